export { createEvalJob } from './create';
export { driveEvalJob } from './driver';
export { cancelEvalJob } from './cancel';
export { startEvalWorkers } from './worker';
export { listEvalJobs, getEvalJobView, getMatrixPage, getQuestionDrilldown, type EvalJobView } from './read';
export { evalExport, exportItems, exportJson, itemsCsv, scoresCsv } from './export';
export { GRID_PRESETS } from './grid';
export type { EvalSummary } from './aggregate';
