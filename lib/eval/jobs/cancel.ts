import { getPool } from '@/lib/db/client';
import { NotFoundError } from '@/lib/base/errors';
import { countItems } from './driver';
import { recordFinishedRuns } from './record';

/**
 * Cancels an unfinished job: its driver stops at its next look, its runs in
 * flight are cancelled (a running one stops at its next step) and recorded as
 * such; items never started stay without runs. Finished items keep their outcome.
 */
export async function cancelEvalJob(jobId: string): Promise<{ status: string }> {
  const pool = getPool();
  const { rows } = await pool.query<{ status: string }>(
    `update eval_jobs set status = case when status in ('queued', 'running') then 'cancelled'::"RunStatus" else status end,
            finished_at = case when status in ('queued', 'running') then now() else finished_at end, updated_at = now()
      where id = $1 returning status`,
    [jobId],
  );
  if (!rows.length) throw new NotFoundError(`No evaluation with id ${jobId}`);
  if (rows[0].status !== 'cancelled') return rows[0];
  await pool.query(
    `update runs set status = 'cancelled', finished_at = now(), error = 'cancelled with its evaluation', updated_at = now()
      where eval_job_id = $1 and status in ('queued', 'running')`,
    [jobId],
  );
  await recordFinishedRuns(jobId);
  const counts = await countItems(jobId);
  await pool.query(`update eval_jobs set done = $2, errors = $3 where id = $1`, [jobId, counts.done, counts.errors]);
  return rows[0];
}
