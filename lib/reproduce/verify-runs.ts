import { unverifiedFinishedRuns, type LoadedJob } from '@/lib/eval/jobs/store';
import { verifyRun } from '@/lib/runs/verify';
import { findTable } from './catalogue';

/**
 * K2V rows are read from each run's latest verification: a reproduction job of a
 * reward table verifies its finished runs when it completes (the eval driver calls
 * this before it freezes the job's tables).
 */
export async function verifyReproductionRuns(job: Pick<LoadedJob, 'id' | 'settings'>): Promise<void> {
  const table = job.settings.reproduce ? findTable(job.settings.reproduce) : undefined;
  if (table?.kind !== 'k2v') return;
  for (const id of await unverifiedFinishedRuns(job.id)) await verifyRun(id);
}
