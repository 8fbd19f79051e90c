import type { MethodDefinition } from './types';
import { bioweave } from './bioweave';
import { eigen1 } from './eigen1';
import { regram } from './regram';
import { cot, direct, kgRag } from './baselines';
import { xr2 } from './xr2';

/** Every method module; each registers its templates and offline rules on import. */
export const methodModules: MethodDefinition[] = [direct, cot, kgRag, xr2, eigen1, regram, bioweave];
