import { z } from 'zod';
import { getPool, getPrisma } from '@/lib/db/client';
import { queryRow, queryRows } from '@/lib/db/rows';
import { RunStatus } from '@/lib/db/generated/enums';
import type { Prisma } from '@/lib/db/generated/client';
import { newCuid } from '@/lib/db/cuid';
import type { OwnerFilter } from '@/lib/base/owners';

/** The runs' store: their rows (lib/runs/store/lease.ts holds the claim and lease protocol, ./cost.ts the cost). */

/**
 * A run's state as one text (status, last update, owner, share id, its
 * verifications and its reruns), which changes whenever anything its reads
 * show changes; null when there is no such run (./snapshot.ts tags reads with it).
 */
export async function readRunState(where: RunWhere): Promise<RunStateRow | null> {
  const [row] = await readRunStates([where]);
  return row;
}

export type RunWhere = { id: string } | { shareId: string };
const RunStateRow = z.object({ id: z.string(), shareId: z.string(), status: z.string(), state: z.string() });
export type RunStateRow = z.infer<typeof RunStateRow>;

/**
 * The states of several runs in one query, in the order asked (null where there is no such run). Each run
 * is asked once: a burst of reads asks for a few runs many times (PostgreSQL's work 2.1 → 0.1 ms for 199 reads of 10).
 */
export async function readRunStates(wheres: RunWhere[]): Promise<(RunStateRow | null)[]> {
  const ids = [...new Set(wheres.flatMap((w) => ('id' in w ? [w.id] : [])))];
  const shareIds = [...new Set(wheres.flatMap((w) => ('shareId' in w ? [w.shareId] : [])))];
  const found = await queryRows(
    getPool(),
    RunStateRow,
    `select r.id, r.share_id "shareId", r.status,
            concat_ws('|', r.status, r.updated_at, r.owner_id, r.share_id,
                      (select concat(count(*), ':', max(v.created_at)) from verifications v where v.run_id = r.id),
                      (select concat(count(*), ':', max(c.updated_at)) from runs c where c.parent_run_id = r.id)) state
       from runs r where r.id = any($1::text[]) or r.share_id = any($2::text[])`,
    [ids, shareIds],
  );
  return wheres.map((w) => found.find((r) => ('id' in w ? r.id === w.id : r.shareId === w.shareId)) ?? null);
}

/** How many of these runs have ended (succeeded, failed or cancelled). */
export async function countEndedRuns(ids: string[]): Promise<number> {
  const prisma = await getPrisma();
  return prisma.run.count({ where: { id: { in: ids }, status: { in: ['succeeded', 'failed', 'cancelled'] } } });
}

/** Deletes these runs (their traces go with them). */
export async function deleteRuns(ids: string[]): Promise<void> {
  const prisma = await getPrisma();
  await prisma.run.deleteMany({ where: { id: { in: ids } } });
}

/** A new run's row (queued). */
export interface NewRun {
  shareId: string;
  questionId: string | null;
  questionText: string;
  input: unknown;
  method: string;
  config: unknown;
  configHash: string;
  parentRunId: string | null;
  configDiff?: unknown;
  evalJobId?: string | null;
  ownerId: string | null;
  backendKey: string;
}

/**
 * Inserts a queued run; its id is made here, as Prisma's `cuid()` default would. Plain SQL: a command that runs one question
 * (`hopscope run`) then never starts Prisma's query compiler, whose first query costs about a third of a second.
 */
export async function insertRun(run: NewRun): Promise<{ id: string; shareId: string }> {
  const id = newCuid();
  await getPool().query(
    `insert into runs (id, share_id, question_id, question_text, input, method, config, config_hash, parent_run_id, config_diff,
                       eval_job_id, owner_id, backend_key, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, now())`,
    [
      id,
      run.shareId,
      run.questionId,
      run.questionText,
      JSON.stringify(run.input ?? null),
      run.method,
      JSON.stringify(run.config ?? null),
      run.configHash,
      run.parentRunId,
      run.configDiff === undefined ? null : JSON.stringify(run.configDiff),
      run.evalJobId ?? null,
      run.ownerId,
      run.backendKey,
    ],
  );
  return { id, shareId: run.shareId };
}

/** What a rerun copies from its parent. */
export async function readRunToRerun(id: string) {
  const prisma = await getPrisma();
  return prisma.run.findUnique({
    where: { id },
    select: { id: true, questionId: true, questionText: true, input: true, config: true, ownerId: true },
  });
}

/** Cancels the run when it is queued or running; its status afterwards, or null when there is no such run. */
export async function cancelQueuedOrRunning(id: string): Promise<{ cancelled: boolean; status: RunStatus } | null> {
  const prisma = await getPrisma();
  const { count } = await prisma.run.updateMany({
    where: { id, status: { in: ['queued', 'running'] } },
    data: { status: 'cancelled', finishedAt: new Date(), error: 'cancelled by the user' },
  });
  const run = await prisma.run.findUnique({ where: { id }, select: { status: true } });
  return run && { cancelled: count > 0, status: run.status };
}

/** The method a run used; null when there is no such run. */
export async function readRunMethod(id: string): Promise<string | null> {
  const prisma = await getPrisma();
  const run = await prisma.run.findUnique({ where: { id }, select: { method: true } });
  return run?.method ?? null;
}

/** The id of the run behind a share id; null when there is none. */
export async function runIdOfShare(shareId: string): Promise<string | null> {
  const prisma = await getPrisma();
  const run = await prisma.run.findUnique({ where: { shareId }, select: { id: true } });
  return run?.id ?? null;
}

/** The share id of a run; null when there is no such run. */
export async function shareIdOf(id: string): Promise<string | null> {
  const prisma = await getPrisma();
  const run = await prisma.run.findUnique({ where: { id }, select: { shareId: true } });
  return run?.shareId ?? null;
}

/** Which of these run ids exist. */
export async function existingRunIds(ids: string[]): Promise<Set<string>> {
  const prisma = await getPrisma();
  const runs = await prisma.run.findMany({ where: { id: { in: ids } }, select: { id: true } });
  return new Set(runs.map((r) => r.id));
}

/** The backend a run needs (runs.backend_key); null when there is no such run. */
export async function readBackendKey(id: string): Promise<string | null> {
  const prisma = await getPrisma();
  const run = await prisma.run.findUnique({ where: { id }, select: { backendKey: true } });
  return run?.backendKey ?? null;
}

/** A JSON column as Prisma types it. */
const json = z.custom<Prisma.JsonValue>(() => true);
const ChildRow = z.object({ id: z.string(), shareId: z.string(), status: z.enum(RunStatus), configDiff: json, createdAt: z.coerce.date() });
const RunWithFamilyRow = z.object({
  id: z.string(),
  shareId: z.string(),
  questionId: z.string().nullable(),
  questionText: z.string(),
  input: json,
  method: z.string(),
  config: json,
  configHash: z.string(),
  status: z.enum(RunStatus),
  answer: json,
  correct: z.boolean().nullable(),
  scores: json,
  cost: json,
  kgVersion: z.string().nullable(),
  parentRunId: z.string().nullable(),
  configDiff: json,
  evalJobId: z.string().nullable(),
  attempts: z.number(),
  backendKey: z.string(),
  leaseUntil: z.date().nullable(),
  error: z.string().nullable(),
  ownerId: z.string().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
  startedAt: z.date().nullable(),
  finishedAt: z.date().nullable(),
  parent: z.object({ id: z.string(), shareId: z.string() }).nullable(),
  children: z.array(ChildRow),
});

/**
 * A run's row with its parent and reruns (oldest first), as its record, export and view read it; null when there is none.
 * Plain SQL, like insertRun: reading a run back is all a one-question command asks of the database besides the trace.
 */
export async function readRunWithFamily(where: RunWhere) {
  return queryRow(
    getPool(),
    RunWithFamilyRow,
    `select r.id, r.share_id "shareId", r.question_id "questionId", r.question_text "questionText", r.input, r.method, r.config,
            r.config_hash "configHash", r.status, r.answer, r.correct, r.scores, r.cost, r.kg_version "kgVersion",
            r.parent_run_id "parentRunId", r.config_diff "configDiff", r.eval_job_id "evalJobId", r.attempts, r.backend_key "backendKey",
            r.lease_until "leaseUntil", r.error, r.owner_id "ownerId", r.created_at "createdAt", r.updated_at "updatedAt",
            r.started_at "startedAt", r.finished_at "finishedAt",
            (select json_build_object('id', p.id, 'shareId', p.share_id) from runs p where p.id = r.parent_run_id) parent,
            (select coalesce(json_agg(json_build_object('id', c.id, 'shareId', c.share_id, 'status', c.status, 'configDiff', c.config_diff,
                                                        'createdAt', c.created_at) order by c.created_at), '[]')
               from runs c where c.parent_run_id = r.id) children
       from runs r where ${'id' in where ? 'r.id' : 'r.share_id'} = $1`,
    ['id' in where ? where.id : where.shareId],
  );
}
type RunWithFamily = NonNullable<Awaited<ReturnType<typeof readRunWithFamily>>>;

/** The latest runs, newest first, that the owner filter lets through; only those among `ids` when given. */
export async function listRuns(limit: number, opts: { ids?: readonly string[]; owners?: OwnerFilter } = {}) {
  const prisma = await getPrisma();
  return prisma.run.findMany({
    where: { ...(opts.ids ? { id: { in: [...opts.ids] } } : {}), ...(opts.owners ?? {}) },
    orderBy: { createdAt: 'desc' },
    take: limit,
    select: { id: true, shareId: true, method: true, questionText: true, status: true, correct: true, createdAt: true, answer: true, config: true },
  });
}

/** The question, method and owner of a run; null when there is none. */
export async function readRunQuestion(id: string) {
  const prisma = await getPrisma();
  return prisma.run.findUnique({ where: { id }, select: { method: true, questionId: true, questionText: true, ownerId: true } });
}

/** One owner's finished (succeeded or failed) runs of a question (by id, or by text for a question typed in) with a method, oldest first. */
export async function finishedRunsOfQuestion(q: { ownerId: string | null; method: string; questionId: string | null; questionText: string }) {
  const prisma = await getPrisma();
  return prisma.run.findMany({
    where: {
      ownerId: q.ownerId,
      method: q.method,
      status: { in: ['succeeded', 'failed'] },
      ...(q.questionId ? { questionId: q.questionId } : { questionText: q.questionText }),
    },
    orderBy: { createdAt: 'asc' },
    select: { id: true, shareId: true, status: true, correct: true, config: true },
  });
}
