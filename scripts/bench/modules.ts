import type { BenchModule } from './types';
import { importRate } from './import-rate';
import { kgQueries } from './kg-queries';
import { inMemoryBfs } from './inmemory-bfs';
import { methodRuns } from './method-runs';
import { evalOffline } from './eval-offline';
import { runPage } from './run-page';
import { paraphrase } from './paraphrase';
import { examKg } from './exam-kg';
import { scaleBench } from './scale';
import { modelMode } from './model-mode';
import { linking } from './linking';
import { soak } from './soak';
import { cliStart } from './cli';
import { load } from './load';

/**
 * Every benchmark, in the order they run (later ones may read earlier metrics). Add new modules
 * here; a module without a `flag` joins the default run, which must stay within 10 minutes on the
 * 2-core machine: give anything longer a flag of its own (see BenchModule.flag).
 */
export const BENCH_MODULES: BenchModule[] = [
  importRate,
  cliStart,
  kgQueries,
  inMemoryBfs,
  linking,
  methodRuns,
  evalOffline,
  runPage,
  modelMode,
  load,
  paraphrase,
  examKg,
  soak,
  scaleBench,
];
