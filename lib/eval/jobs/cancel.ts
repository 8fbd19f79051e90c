import { NotFoundError } from '@/lib/base/errors';
import { recordFinishedRuns } from './record';
import { cancelJob, countItems, storeCounts } from './store';

/**
 * Cancels an unfinished job: its driver stops at its next look, its runs in
 * flight are cancelled (a running one stops at its next step) and recorded as
 * such; items never started stay without runs. Finished items keep their outcome.
 */
export async function cancelEvalJob(jobId: string): Promise<{ status: string }> {
  const status = await cancelJob(jobId);
  if (status === null) throw new NotFoundError(`No evaluation with id ${jobId}`);
  if (status !== 'cancelled') return { status };
  await recordFinishedRuns(jobId);
  await storeCounts(jobId, await countItems(jobId));
  return { status };
}
