import { ownerFilter, viewerOfOwner } from '@/lib/auth/access';
import { readSetQuestionIds } from '@/lib/eval/store/sets';
import { assertSafeText, clip } from '@/lib/api/input';
import { parseMethodParams } from '@/lib/methods/parse-params';
import { sampleIndexes, seededRandom } from '@/lib/kg/query/prng';
import { listMethods } from '@/lib/methods/registry';
import type { MethodId } from '@/lib/methods/types';
import { describeBackend } from '@/lib/runs/backend';
import { InvalidInputError, NotFoundError, invalidFromZod } from '@/lib/base/errors';
import { newShareId } from '@/lib/runs/share-id';
import { parseGrid, type GridConfig } from './grid';
import { insertJob } from './store';
import { tryLockJob, type JobLock } from './store/lock';
import { EvalJobRequestSchema, type JobSample, type JobSettings } from './schemas';

/** Runs one job may hold: questions × methods × configurations. */
export const MAX_JOB_ITEMS = 200_000;

export interface CreatedEvalJob {
  id: string;
  shareId: string;
  total: number;
}

/**
 * Validates an evaluation request and stores the job with one item per
 * question × method × configuration (all pending). Nothing runs yet: a driver
 * (the server's eval workers, or the CLI in-process) picks the job up.
 *
 * With `lock`, the caller gets the job's lock, taken before the job becomes
 * visible, so that no server's supervisor can start the job it means to drive itself.
 */
export interface CreateJobOptions {
  lock?: boolean;
  /** A reproduction table's rows as the grid (instead of the request's switches), each with its own parameters. */
  reproduce?: { table: string; grid: GridConfig[] };
  /** The signed-in user who starts it (lib/auth/access); its runs are theirs too. */
  ownerId?: string | null;
}

export async function createEvalJob(body: unknown, opts?: CreateJobOptions & { lock?: false }): Promise<CreatedEvalJob>;
export async function createEvalJob(body: unknown, opts: CreateJobOptions & { lock: true }): Promise<CreatedEvalJob & { lock: JobLock }>;
export async function createEvalJob(body: unknown, opts: CreateJobOptions = {}): Promise<CreatedEvalJob & { lock?: JobLock }> {
  const parsed = EvalJobRequestSchema.safeParse(assertSafeText(body));
  if (!parsed.success) throw invalidFromZod(parsed.error);
  const req = parsed.data;
  // The request is checked whole before anything is read: a bad parameter is a 400 whatever the set.
  const methodParams = checkMethods(req.methods, req.params);

  // The starter's own set (or everyone's), never another user's of the same name.
  const set = await readSetQuestionIds(req.set, ownerFilter(viewerOfOwner(opts.ownerId)));
  if (!set) throw new NotFoundError(`No question set named "${clip(req.set)}"`);
  if (!set.questions.length) throw new InvalidInputError(`The set "${set.name}" holds no questions`);

  const grid = opts.reproduce?.grid ?? parseGrid(req.switches);
  for (const method of req.methods) for (const config of grid) checkRowParams(method, config, methodParams[method]);
  const settings: JobSettings = {
    backend: describeBackend(req.backend),
    concurrency: req.concurrency,
    methodParams,
    ...(opts.reproduce ? { reproduce: opts.reproduce.table } : {}),
  };
  const questionIds = sampleQuestions(
    set.questions.map((q) => q.id),
    req.limit,
    req.seed,
  );
  const sample: JobSample = { limit: req.limit ?? null, seed: req.seed, setTotal: set.questions.length };

  const total = questionIds.length * req.methods.length * grid.length;
  if (total > MAX_JOB_ITEMS) throw new InvalidInputError(`The job would hold ${total} runs; at most ${MAX_JOB_ITEMS} (use --limit for a sample)`);

  const items = questionIds.flatMap((questionId) => req.methods.flatMap((method) => grid.map((config) => ({ questionId, method, configKey: config.key }))));
  let lock: JobLock | undefined;
  const job = await insertJob(
    {
      ownerId: opts.ownerId ?? null,
      shareId: newShareId(),
      setId: set.id,
      name: req.name || `${set.name}: ${req.methods.join(', ')} × ${grid.map((g) => g.key).join(', ')}`,
      methods: req.methods,
      grid,
      settings,
      sample,
      total,
      items,
    },
    // The row is not committed yet: nobody else can know the id, so the lock is ours.
    async (jobId) => {
      if (opts.lock) lock = (await tryLockJob(jobId)) ?? undefined;
    },
  ).catch(async (e) => {
    await lock?.release();
    throw e;
  });
  return { ...job, total, lock };
}

/** Every method must be registered; its parameters are checked now (with the paper defaults filled in), not at the first run. */
function checkMethods(methods: MethodId[], params: Partial<Record<MethodId, Record<string, unknown>>>): Record<string, Record<string, unknown>> {
  const available = listMethods().map((m) => m.id);
  const missing = methods.filter((m) => !available.includes(m));
  if (missing.length) throw new InvalidInputError(`Not available yet: ${missing.join(', ')} (registered: ${available.join(', ') || 'none'})`);
  const extra = Object.keys(params).filter((m) => !methods.includes(m as MethodId));
  if (extra.length) throw new InvalidInputError(`Parameters given for methods the job does not run: ${extra.join(', ')}`);
  const out: Record<string, Record<string, unknown>> = {};
  for (const id of methods) {
    out[id] = parseMethodParams(id, params[id], ['params', id]);
  }
  return out;
}

/** A configuration's own parameters must parse over the method's, now rather than at its first run. */
function checkRowParams(method: MethodId, config: GridConfig, base: Record<string, unknown>): void {
  if (!config.params) return;
  parseMethodParams(method, { ...base, ...config.params }, ['grid', config.key]);
}

/** The whole set, or a seeded sample of `limit` questions kept in set order: the same seed draws the same questions. */
export function sampleQuestions<T>(ordered: readonly T[], limit: number | undefined, seed: string): T[] {
  if (!limit || limit >= ordered.length) return [...ordered];
  const picked = sampleIndexes(ordered.length, limit, seededRandom(`eval-sample/${seed}`)).sort((a, b) => a - b);
  return picked.map((i) => ordered[i]);
}
