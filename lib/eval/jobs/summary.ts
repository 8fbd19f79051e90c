import { getPool, getPrisma } from '@/lib/db/client';
import { toJson } from '@/lib/base/json';
import { summarise, type EvalSummary, type ScoredItem } from './aggregate';
import type { LoadedJob } from './load';
import { ItemOutcomeSchema } from './schemas';

/** Every item of a job with its question's family and answer type, in question order. */
export async function loadScoredItems(jobId: string): Promise<(ScoredItem & { ordinal: number })[]> {
  const { rows } = await getPool().query<{ questionId: string; ordinal: number; method: string; configKey: string; family: string | null; answerType: string; runId: string | null; scores: unknown }>(
    `select i.question_id "questionId", q.ordinal, i.method, i.config_key "configKey", q.family, q.answer_type "answerType", i.run_id "runId", i.scores
       from eval_items i join questions q on q.id = i.question_id
      where i.job_id = $1
      order by q.ordinal`,
    [jobId],
  );
  return rows.map(({ scores, ...row }) => ({ ...row, outcome: scores ? ItemOutcomeSchema.parse(scores) : null }));
}

export async function computeSummary(job: Pick<LoadedJob, 'id' | 'methods' | 'grid'>): Promise<EvalSummary> {
  const items = await loadScoredItems(job.id);
  return summarise(items, job.methods, job.grid);
}

/** Freezes the tables on the job when it finishes: the share page shows them as they were. */
export async function storeSummary(job: Pick<LoadedJob, 'id' | 'methods' | 'grid'>): Promise<EvalSummary> {
  const summary = await computeSummary(job);
  await getPrisma().evalJob.update({ where: { id: job.id }, data: { summary: toJson(summary) } });
  return summary;
}
