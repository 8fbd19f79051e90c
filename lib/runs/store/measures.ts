import { z } from 'zod';
import { getPool, getPrisma } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';

/** What the benchmarks read back about runs they made: outcomes, step times, recorded times and storage. */

/** One `select 1` on the pool: the round trip every statement of a run pays. */
export async function pingDatabase(): Promise<void> {
  await getPool().query('select 1');
}

/** Each run's status, whether it was scored correct, and its model calls. */
export async function runOutcomes(ids: string[]): Promise<{ status: string; correct: boolean | null; modelCalls: number }[]> {
  const prisma = await getPrisma();
  const runs = await prisma.run.findMany({
    where: { id: { in: ids } },
    select: { correct: true, status: true, _count: { select: { modelCalls: true } } },
  });
  return runs.map((r) => ({ status: r.status, correct: r.correct, modelCalls: r._count.modelCalls }));
}

/** The steps of these kinds in these runs: their parent step and duration. */
export async function stepDurations(runIds: string[], kinds: string[]): Promise<{ parentStepId: string | null; durationMs: number | null }[]> {
  const prisma = await getPrisma();
  return prisma.step.findMany({
    where: { runId: { in: runIds }, kind: { in: kinds } },
    select: { parentStepId: true, durationMs: true },
  });
}

/** Each run's status and its time from claim to finish as recorded (null before it finished). */
export async function recordedRunTimes(ids: string[]): Promise<{ status: string; ms: number | null }[]> {
  const rows = await queryRows(
    getPool(),
    z.object({ status: z.string(), ms: z.union([z.string(), z.number()]).nullable() }),
    `select status, extract(epoch from finished_at - started_at) * 1000 as ms from runs where id = any($1)`,
    [ids],
  );
  return rows.map((r) => ({ status: r.status, ms: r.ms === null ? null : Number(r.ms) }));
}

/**
 * What each run occupies in its tables, in KB (pg_column_size of every row, so TOAST
 * compression counts; indexes do not): run row, steps, evidence, model calls and trace packs.
 */
export async function storedKb(runIds: string[]): Promise<number[]> {
  const rows = await queryRows(
    getPool(),
    z.object({ kb: z.union([z.string(), z.number()]) }),
    `select (pg_column_size(r.*)
             + coalesce((select sum(pg_column_size(s.*)) from steps s where s.run_id = r.id), 0)
             + coalesce((select sum(pg_column_size(e.*)) from evidence e where e.run_id = r.id), 0)
             + coalesce((select sum(pg_column_size(m.*)) from model_calls m where m.run_id = r.id), 0)
             + coalesce((select sum(pg_column_size(p.*)) from trace_packs p where p.run_id = r.id), 0)) / 1024.0 kb
       from runs r where r.id = any($1)`,
    [runIds],
  );
  return rows.map((r) => Number(r.kb));
}
