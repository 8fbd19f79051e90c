import { summarise, type EvalSummary } from './aggregate';
import { jobItems, storeSummary as storeJobSummary, type LoadedJob } from './store';

export async function computeSummary(job: Pick<LoadedJob, 'id' | 'methods' | 'grid'>): Promise<EvalSummary> {
  return summarise(await jobItems(job.id), job.methods, job.grid);
}

/** Freezes the tables on the job when it finishes: the share page shows them as they were. */
export async function storeSummary(job: Pick<LoadedJob, 'id' | 'methods' | 'grid'>): Promise<EvalSummary> {
  const summary = await computeSummary(job);
  await storeJobSummary(job.id, summary);
  return summary;
}
