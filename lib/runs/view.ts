import { readDocumentTitles } from '@/lib/corpus/store';
import { readCalls, readCallTimings, readStep, readTrace } from '@/lib/trace/store';
import { reportsOf } from '@/lib/verify/store';
import { NotFoundError } from '@/lib/base/errors';
import { redactForClient } from '@/lib/base/redact';
import { summariseCost } from './store/cost';
import { readRunMethod, readRunWithFamily } from './store/runs';
import { buildCallTimings, buildRunView, buildStepDetail, documentIdsOf, storedCost, type CallTiming, type RunView, type StepDetail } from './view-builder';

export type { CallTiming, EvidenceView, ModelCallView, RunView, SeedEntity, StepDetail, StepSummary, VerificationView } from './view-builder';

/**
 * The reads of a run's view: the stores read, ./view-builder.ts builds (pure), and
 * the result is redacted before it leaves the server.
 */

export async function getRunView(where: { id: string } | { shareId: string }): Promise<RunView> {
  const run = await readRunWithFamily(where);
  if (!run) throw new NotFoundError('id' in where ? `No run with id ${where.id}` : 'No run behind this link');
  const [trace, calls, cost, documents, verifications] = await Promise.all([
    readTrace(run.id),
    callTimings(run.id),
    storedCost(run.cost) ?? summariseCost(run.id),
    readDocumentTitles(documentIdsOf(run.input)),
    reportsOf(run.id),
  ]);
  return redactForClient(buildRunView({ run, trace, calls, cost, documents, verifications }));
}

/** One step's input, output and model calls (opened in the trace timeline). */
export async function getStepDetail(runId: string, stepId: string): Promise<StepDetail> {
  const [stored, calls] = await Promise.all([readStep(runId, stepId), readCalls(runId, stepId)]);
  if (!stored) throw new NotFoundError(`Run ${runId} has no step ${stepId}`);
  return redactForClient(buildStepDetail(stored, calls));
}

/** Timing and tokens of every model call of a run (the waterfall). */
export async function callTimings(runId: string): Promise<CallTiming[]> {
  return buildCallTimings(await readCallTimings(runId));
}

/** The method a run used (the rerun form reads its parameters). */
export async function getRunMethod(id: string): Promise<string> {
  const method = await readRunMethod(id);
  if (method === null) throw new NotFoundError(`No run with id ${id}`);
  return method;
}
