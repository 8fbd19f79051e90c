import type { MethodDefinition } from './types';
import { eigen1 } from './eigen1';

/** Every method module; each registers its templates and offline rules on import. */
export const methodModules: MethodDefinition[] = [eigen1];
