import { DEMO_FILES, DEMO_SOURCE } from '../demo/files';
import type { GraphImportSummary } from './graph-writer';
import { importHetionet } from './hetionet';
import type { ImportOptions } from './options';

/** Replaces the graph with the small demo graph, through the Hetionet importer, recorded as source 'demo'. */
export function loadDemoGraph(opts: ImportOptions = {}): Promise<GraphImportSummary> {
  return importHetionet({ ...DEMO_FILES, source: DEMO_SOURCE, version: 'demo-1' }, opts);
}
