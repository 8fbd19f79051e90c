import { allowed, viewerOfOwner } from '@/lib/auth/access';
import { assertSafeText } from '@/lib/api/input';
import { parseMethodParams } from '@/lib/methods/parse-params';
import { readQuestion } from '@/lib/eval/store/questions';
import { attachDocuments } from '@/lib/corpus/attach';
import { runBundles } from '@/lib/eval/generate/evidence';
import type { AnswerType } from '@/lib/methods/types';
import { backendKey, describeBackend } from './backend';
import { configHash, diffConfig } from './config';
import { InvalidInputError, NotFoundError, invalidFromZod } from '@/lib/base/errors';
import { enqueueRun } from './queue';
import { QuestionOptionsSchema, RerunRequestSchema, RunConfigSchema, RunRequestSchema, type RunConfig, type RunInput } from './schemas';
import { newShareId } from './share-id';
import { cancelQueuedOrRunning, insertRun, readRunToRerun } from './store/runs';

export interface CreatedRun {
  id: string;
  shareId: string;
}

/** Validates a run request, stores the run (queued) and, unless told not to, queues it for a worker. */
export async function createRun(
  body: unknown,
  opts: { enqueue?: boolean; parentRunId?: string; evalJobId?: string; ownerId?: string | null } = {},
): Promise<CreatedRun> {
  const parsed = RunRequestSchema.safeParse(assertSafeText(body));
  if (!parsed.success) throw invalidFromZod(parsed.error);
  const req = parsed.data;

  let input: RunInput;
  let questionId: string | null = null;
  if (req.questionId) {
    const q = await readQuestion(req.questionId);
    // Another user's question is as good as absent (lib/auth/access).
    if (!q || !allowed(viewerOfOwner(opts.ownerId), q.ownerId)) throw new NotFoundError(`No question with id ${req.questionId}`);
    questionId = q.id;
    input = {
      question: q.text,
      options: QuestionOptionsSchema.safeParse(q.options).data ?? null,
      answerType: q.answerType as AnswerType,
      documentIds: q.documentIds,
      gold: q.answer ?? null,
      ...runBundles(q.evidence),
    };
  } else {
    const documentIds = req.documents?.length ? await attachDocuments(req.documents, opts.ownerId ?? null) : [];
    input = {
      question: req.question!,
      options: req.options ?? null,
      answerType: req.options ? 'mcq' : guessAnswerType(req.question!),
      documentIds,
      gold: null,
      webBundle: req.webBundle ?? [],
      docBundle: null,
    };
  }

  const config = buildConfig(req.method, req.switches, req.params, req.kgShuffle, req.backend);
  const run = await insertRun({
    shareId: newShareId(),
    questionId,
    questionText: input.question,
    input,
    method: config.method,
    config,
    configHash: configHash(config),
    parentRunId: opts.parentRunId ?? null,
    evalJobId: opts.evalJobId ?? null,
    ownerId: opts.ownerId ?? null,
    backendKey: backendKey(config.backend),
  });
  if (opts.enqueue !== false) await enqueueRun(run.id, backendKey(config.backend));
  return run;
}

function buildConfig(
  methodId: RunConfig['method'],
  switches: RunConfig['switches'] | undefined,
  rawParams: Record<string, unknown> | undefined,
  kgShuffle: boolean | { seed: number } | undefined,
  backend: 'auto' | 'offline' | 'openai',
): RunConfig {
  return RunConfigSchema.parse({
    method: methodId,
    switches: switches ?? { doc: true, entity: true, kg: true, param: true, web: true },
    params: parseMethodParams(methodId, rawParams),
    kgShuffle: kgShuffle === true ? { seed: 17 } : kgShuffle || null,
    backend: describeBackend(backend),
  });
}

/** Count and yes/no questions are scored differently from open ones; guess from the wording. */
export function guessAnswerType(question: string): AnswerType {
  const q = question.trim().toLowerCase();
  if (/^(how many|what is the number of|count\b|number of)/.test(q)) return 'count';
  if (/^(is|are|does|do|did|can|could|was|were|has|have)\b/.test(q)) return 'yesno';
  return 'open';
}

/** A new run of the parent's question with changed switches or parameters; records the parent and the diff. */
export async function rerun(parentRunId: string, changes: unknown, opts: { enqueue?: boolean; ownerId?: string | null } = {}): Promise<CreatedRun> {
  const parsedChanges = RerunRequestSchema.safeParse(assertSafeText(changes));
  if (!parsedChanges.success) throw invalidFromZod(parsedChanges.error);
  const parent = await readRunToRerun(parentRunId);
  if (!parent) throw new NotFoundError(`No run with id ${parentRunId}`);
  const parentConfig = RunConfigSchema.parse(parent.config);
  const change = parsedChanges.data;
  const methodId = change.method ?? parentConfig.method;
  const config = buildConfig(
    methodId,
    change.switches ?? parentConfig.switches,
    { ...(methodId === parentConfig.method ? parentConfig.params : {}), ...(change.params ?? {}) },
    change.kgShuffle ?? parentConfig.kgShuffle ?? undefined,
    parentConfig.backend.backend,
  );
  const diff = diffConfig(parentConfig, config);
  if (!diff.length) throw new InvalidInputError('The rerun changes nothing: flip a switch or change a parameter');
  const run = await insertRun({
    shareId: newShareId(),
    questionId: parent.questionId,
    questionText: parent.questionText,
    input: parent.input ?? {},
    method: config.method,
    config,
    configHash: configHash(config),
    parentRunId: parent.id,
    configDiff: diff,
    ownerId: opts.ownerId ?? parent.ownerId,
    backendKey: backendKey(config.backend),
  });
  if (opts.enqueue !== false) await enqueueRun(run.id, backendKey(config.backend));
  return run;
}

/** Cancels a queued or running run; the worker stops at its next step. */
export async function cancelRun(runId: string): Promise<{ status: string }> {
  const run = await cancelQueuedOrRunning(runId);
  if (!run) throw new NotFoundError(`No run with id ${runId}`);
  return { status: run.cancelled ? 'cancelled' : run.status };
}

export { InvalidInputError, NotFoundError };
