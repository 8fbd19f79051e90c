import { z } from 'zod';
import { getPool, getPrisma } from '@/lib/db/client';
import { execute, prepared, queryRow, queryRows } from '@/lib/db/rows';
import { RUN_ENDED_CHANNEL } from '@/lib/eval/jobs/store/lock';
import { toJson } from '@/lib/base/json';
import type { RunEnd } from '@/lib/trace/store';
import { runCostSql } from './cost';
import { notifyRunChanged } from './changes';

/**
 * The claim and lease of runs (runs.status, attempts, lease_until), on the database's
 * clock: a worker claims a queued run, holds it by heartbeats and ends it with
 * writes conditional on its attempt; recovery takes over runs whose lease ran out.
 * An evaluation's run that ends announces it to the job's driver (RUN_ENDED_CHANNEL), any other run to the web
 * server (RUN_CHANGED_CHANNEL).
 */

/** The run as the worker holding it names it: every write is conditional on this attempt still holding it. */
export interface HeldRun {
  id: string;
  attempts: number;
}

const ClaimedSchema = z.object({
  config: z.unknown(),
  input: z.unknown(),
  questionId: z.string().nullable(),
  ownerId: z.string().nullable(),
  attempts: z.number(),
  backendKey: z.string(),
});
export type ClaimedRun = z.infer<typeof ClaimedSchema>;

const CLAIM = prepared(
  `update runs set status = 'running', started_at = now(), updated_at = now(), attempts = attempts + 1,
                   lease_until = now() + make_interval(secs => (case when backend_key = 'offline' then $3 else $4 end)::double precision / 1000)
    where id = $1 and status = 'queued' and backend_key = any($2::text[])
    returning config, input, question_id "questionId", owner_id "ownerId", attempts, backend_key "backendKey"`,
);

/**
 * Claims the run if it is queued and needs one of `backends` (status → running, one
 * more attempt, a lease of `leaseMs` by its backend) and returns what executing it
 * needs, in one statement; null when it is not claimable.
 */
export function claimQueuedRun(id: string, backends: string[], leaseMs: { offline: number; model: number }): Promise<ClaimedRun | null> {
  return queryRow(getPool(), ClaimedSchema, CLAIM, [id, backends, leaseMs.offline, leaseMs.model]);
}

/** The backend a queued run waits for; null when the run is not queued. */
export async function queuedBackendKey(id: string): Promise<string | null> {
  const prisma = await getPrisma();
  const run = await prisma.run.findFirst({ where: { id, status: 'queued' }, select: { backendKey: true } });
  return run?.backendKey ?? null;
}

const RENEW = prepared(
  `update runs set updated_at = now(), lease_until = now() + make_interval(secs => $3::double precision / 1000) where id = $1 and status = 'running' and attempts = $2`,
);

/** Extends the lease by `leaseMs` from now; false when the run is no longer this attempt's. */
export async function renewLease(run: HeldRun, leaseMs: number): Promise<boolean> {
  return (await execute(getPool(), RENEW, [run.id, run.attempts, leaseMs])) > 0;
}

/** What a succeeded run stores. */
export interface RunOutcome {
  answer: unknown;
  correct: boolean | null;
  scores: unknown;
  kgVersion: string | null;
}

/**
 * Ends the run as succeeded with its outcome and its cost, if this attempt still holds it: stored by the trace's last
 * write (TraceRecorder.seal), so the cost is read from the trace as that write leaves it, in the same round trip.
 */
export function succeededEnd(run: HeldRun, outcome: RunOutcome): RunEnd {
  return {
    params: [run.id, JSON.stringify(outcome.answer), outcome.correct, JSON.stringify(outcome.scores), outcome.kgVersion, run.attempts],
    sql: (trace, p) =>
      `update runs set status = 'succeeded', answer = ${p(1)}::jsonb, correct = ${p(2)}, scores = ${p(3)}::jsonb, cost = ${runCostSql(trace.steps, trace.calls)},
                       kg_version = ${p(4)}, finished_at = now(), updated_at = now(), error = null
        where id = ${p(0)} and status = 'running' and attempts = ${p(5)}
        returning case when eval_job_id is not null then pg_notify('${RUN_ENDED_CHANNEL}', eval_job_id) else ${notifyRunChanged} end`,
  };
}

/** Ends the run as failed or cancelled with the reason and its cost so far, if this attempt still holds it. */
export async function storeEnded(run: HeldRun, end: { status: 'failed' | 'cancelled'; error: string; cost: unknown }): Promise<void> {
  const prisma = await getPrisma();
  await prisma.run.updateMany({
    where: { id: run.id, status: 'running', attempts: run.attempts },
    data: { status: end.status, error: end.error, finishedAt: new Date(), cost: toJson(end.cost) },
  });
  await getPool().query(
    `select case when eval_job_id is not null then pg_notify('${RUN_ENDED_CHANNEL}', eval_job_id) else ${notifyRunChanged} end from runs where id = $1`,
    [run.id],
  );
}

const StaleRunSchema = z.object({ id: z.string(), attempts: z.number(), lease: z.string().nullable(), backendKey: z.string() });
export interface StaleRun extends HeldRun {
  /** The expired lease as the database holds it (text: exact to the microsecond). */
  lease: string | null;
  backendKey: string;
}

/** Running runs whose lease has run out on the database's clock (or these, whatever their lease). */
export function staleRuns(only?: string[]): Promise<StaleRun[]> {
  return queryRows(
    getPool(),
    StaleRunSchema,
    `select id, attempts, lease_until::text lease, backend_key "backendKey" from runs
      where status = 'running' and ($1::text[] is not null and id = any($1::text[]) or $1::text[] is null and (lease_until is null or lease_until < now()))`,
    [only ?? null],
  );
}

/** Only a run still as it was seen stale (nobody renewed or took it since) is taken over. */
const UNTOUCHED = `id = $1 and status = 'running' and attempts = $2 and lease_until is not distinct from $3::timestamptz`;

/** Fails a stale run with the reason; false when it was touched since. */
export async function failStale(run: StaleRun, error: string): Promise<boolean> {
  const { rowCount } = await getPool().query(`update runs set status = 'failed', finished_at = now(), updated_at = now(), error = $4 where ${UNTOUCHED}`, [
    run.id,
    run.attempts,
    run.lease,
    error,
  ]);
  return !!rowCount;
}

/** Puts a stale run back in the queued state; false when it was touched since. */
export async function requeueStale(run: StaleRun): Promise<boolean> {
  const { rowCount } = await getPool().query(`update runs set status = 'queued', updated_at = now(), lease_until = null where ${UNTOUCHED}`, [
    run.id,
    run.attempts,
    run.lease,
  ]);
  return !!rowCount;
}

/**
 * Takes up to 100 runs queued for longer than `afterMs` without a job waiting for them on any
 * pg-boss queue (another deployment's queue on the same database counts: its runs are not
 * orphans) and marks them touched now, in one statement; returns them with their backends,
 * for the caller to send again. A run is taken by one sweeper at a time (rows another has
 * locked are skipped, and a touched run is not old any more): sweeps of several worker
 * processes, or two of one process, never send the same orphan twice in one `afterMs`.
 * `only`: just these runs (a test's, on a database other tests share).
 */
export function takeOrphanedRuns(afterMs: number, only?: string[]): Promise<{ id: string; key: string }[]> {
  return queryRows(
    getPool(),
    z.object({ id: z.string(), key: z.string() }),
    `update runs set updated_at = now()
      where id in (select r.id from runs r
                    where r.status = 'queued' and r.updated_at < now() - make_interval(secs => $1::double precision / 1000)
                      and ($2::text[] is null or r.id = any($2::text[]))
                      and not exists (select 1 from pgboss.job j where j.data->>'runId' = r.id and j.state in ('created', 'retry'))
                    limit 100 for update of r skip locked)
        and status = 'queued' and updated_at < now() - make_interval(secs => $1::double precision / 1000)
      returning id, backend_key "key"`,
    [afterMs, only ?? null],
  );
}
