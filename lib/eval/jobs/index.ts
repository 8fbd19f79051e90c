export { createEvalJob, sampleQuestions, MAX_JOB_ITEMS, type CreatedEvalJob } from './create';
export { driveEvalJob, type DriveMode, type DriveOptions, type DriveResult } from './driver';
export { countItems, type ItemCounts } from './store';
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
export { evalExport, exportItems, exportJson, itemsCsv, scoresCsv, EXPORT_FORMATS, EXPORT_TABLES, type ExportedItem } from './export';
export { parseGrid, configKey, GRID_PRESETS, type GridConfig } from './grid';
export { EvalJobRequestSchema, type EvalJobRequest, type ItemOutcome } from './schemas';
export type { CellScore, EvalSummary, FamilyTable, CostPoint } from './aggregate';
export type { JobWhere } from './store';
