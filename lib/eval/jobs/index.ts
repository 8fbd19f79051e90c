export { createEvalJob, type CreatedEvalJob } from './create';
export { driveEvalJob, type DriveMode, type DriveOptions, type DriveResult } from './driver';
export type { ItemCounts } from './store';
export { cancelEvalJob } from './cancel';
export { startEvalWorkers, type EvalWorkers } from './worker';
export {
  listEvalJobs,
  getEvalJobView,
  getMatrixPage,
  getQuestionDrilldown,
  type EvalJobView,
  type EvalJobListEntry,
  type MatrixPage,
  type QuestionDrilldown,
} from './read';
export { evalExport, exportItems, exportJson, itemsCsv, scoresCsv, type ExportedItem } from './export';
export { GRID_PRESETS, type GridConfig } from './grid';
export type { EvalJobRequest, ItemOutcome } from './schemas';
export type { CellScore, EvalSummary, FamilyTable, CostPoint } from './aggregate';
export type { JobWhere } from './store';
