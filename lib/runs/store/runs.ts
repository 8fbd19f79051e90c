import { z } from 'zod';
import { getPool, getPrisma } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import type { RunStatus } from '@/lib/db/generated/enums';
import type { OwnerFilter } from '@/lib/base/owners';
import { toJson } from '@/lib/base/json';

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
  return getPrisma().run.count({ where: { id: { in: ids }, status: { in: ['succeeded', 'failed', 'cancelled'] } } });
}

/** Deletes these runs (their traces go with them). */
export async function deleteRuns(ids: string[]): Promise<void> {
  await getPrisma().run.deleteMany({ where: { id: { in: ids } } });
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

export async function insertRun(run: NewRun): Promise<{ id: string; shareId: string }> {
  const { input, config, configDiff, ...rest } = run;
  return getPrisma().run.create({
    data: { ...rest, input: toJson(input), config: toJson(config), ...(configDiff !== undefined ? { configDiff: toJson(configDiff) } : {}) },
    select: { id: true, shareId: true },
  });
}

/** What a rerun copies from its parent. */
export async function readRunToRerun(id: string) {
  return getPrisma().run.findUnique({
    where: { id },
    select: { id: true, questionId: true, questionText: true, input: true, config: true, ownerId: true },
  });
}

/** Cancels the run when it is queued or running; its status afterwards, or null when there is no such run. */
export async function cancelQueuedOrRunning(id: string): Promise<{ cancelled: boolean; status: RunStatus } | null> {
  const prisma = getPrisma();
  const { count } = await prisma.run.updateMany({
    where: { id, status: { in: ['queued', 'running'] } },
    data: { status: 'cancelled', finishedAt: new Date(), error: 'cancelled by the user' },
  });
  const run = await prisma.run.findUnique({ where: { id }, select: { status: true } });
  return run && { cancelled: count > 0, status: run.status };
}

/** The method a run used; null when there is no such run. */
export async function readRunMethod(id: string): Promise<string | null> {
  const run = await getPrisma().run.findUnique({ where: { id }, select: { method: true } });
  return run?.method ?? null;
}

/** The id of the run behind a share id; null when there is none. */
export async function runIdOfShare(shareId: string): Promise<string | null> {
  const run = await getPrisma().run.findUnique({ where: { shareId }, select: { id: true } });
  return run?.id ?? null;
}

/** The share id of a run; null when there is no such run. */
export async function shareIdOf(id: string): Promise<string | null> {
  const run = await getPrisma().run.findUnique({ where: { id }, select: { shareId: true } });
  return run?.shareId ?? null;
}

/** Which of these run ids exist. */
export async function existingRunIds(ids: string[]): Promise<Set<string>> {
  const runs = await getPrisma().run.findMany({ where: { id: { in: ids } }, select: { id: true } });
  return new Set(runs.map((r) => r.id));
}

/** The backend a run needs (runs.backend_key); null when there is no such run. */
export async function readBackendKey(id: string): Promise<string | null> {
  const run = await getPrisma().run.findUnique({ where: { id }, select: { backendKey: true } });
  return run?.backendKey ?? null;
}

const childSelect = { select: { id: true, shareId: true, status: true, configDiff: true, createdAt: true }, orderBy: { createdAt: 'asc' as const } };

/** A run's row with its reruns (oldest first), as its record and export show it; null when there is none. */
export function readRunWithChildren(where: { id: string } | { shareId: string }) {
  return getPrisma().run.findUnique({ where, include: { children: childSelect } });
}

/** A run's row with its parent and reruns (oldest first), as its view reads it; null when there is none. */
export function readRunWithFamily(where: { id: string } | { shareId: string }) {
  return getPrisma().run.findUnique({ where, include: { parent: { select: { id: true, shareId: true } }, children: childSelect } });
}
type RunWithFamily = NonNullable<Awaited<ReturnType<typeof readRunWithFamily>>>;

/** The latest runs, newest first, that the owner filter lets through; only those among `ids` when given. */
export function listRuns(limit: number, opts: { ids?: readonly string[]; owners?: OwnerFilter } = {}) {
  return getPrisma().run.findMany({
    where: { ...(opts.ids ? { id: { in: [...opts.ids] } } : {}), ...(opts.owners ?? {}) },
    orderBy: { createdAt: 'desc' },
    take: limit,
    select: { id: true, shareId: true, method: true, questionText: true, status: true, correct: true, createdAt: true, answer: true, config: true },
  });
}

/** The question, method and owner of a run; null when there is none. */
export function readRunQuestion(id: string) {
  return getPrisma().run.findUnique({ where: { id }, select: { method: true, questionId: true, questionText: true, ownerId: true } });
}

/** One owner's finished (succeeded or failed) runs of a question (by id, or by text for a question typed in) with a method, oldest first. */
export function finishedRunsOfQuestion(q: { ownerId: string | null; method: string; questionId: string | null; questionText: string }) {
  return getPrisma().run.findMany({
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
