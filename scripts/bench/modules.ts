import type { BenchModule } from './types';
import { importRate } from './import-rate';
import { kgQueries } from './kg-queries';
import { inMemoryBfs } from './inmemory-bfs';
import { methodRuns } from './method-runs';
import { evalOffline } from './eval-offline';
import { runPage } from './run-page';
import { paraphrase } from './paraphrase';

/** The benchmarks `npm run bench` runs, in order (later ones may read earlier metrics). Add new modules here. */
export const BENCH_MODULES: BenchModule[] = [importRate, kgQueries, inMemoryBfs, methodRuns, evalOffline, runPage, paraphrase];
