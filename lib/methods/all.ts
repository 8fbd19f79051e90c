import type { MethodDefinition } from './types';

/** Every method module; each registers its templates and offline rules on import. */
export const methodModules: MethodDefinition[] = [];
