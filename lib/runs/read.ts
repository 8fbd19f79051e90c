import { MethodAnswerSchema } from '@/lib/trace/steps/common';
import { citationsOf } from '@/lib/channels/citations';
import { readCalls, readTrace } from '@/lib/trace/store';
import { NotFoundError } from '@/lib/base/errors';
import { redactForClient } from '@/lib/base/redact';
import { ownerFilter } from '@/lib/auth/access';
import { listRuns, readRunWithFamily } from './store/runs';
import type { Viewer } from '@/lib/auth/viewer';

/** The whole run as the API, the run page and the permalink show it (GET /api/runs/{id}). */
export async function getRunRecord(where: { id: string } | { shareId: string }) {
  const run = await readRunWithFamily(where);
  if (!run) throw new NotFoundError('id' in where ? `No run with id ${where.id}` : 'No run behind this link');
  const [trace, calls] = await Promise.all([readTrace(run.id), readCalls(run.id)]);
  return redactForClient({
    id: run.id,
    shareId: run.shareId,
    status: run.status,
    method: run.method,
    question: run.questionText,
    questionId: run.questionId,
    input: run.input,
    config: run.config,
    configHash: run.configHash,
    answer: run.answer,
    correct: run.correct,
    scores: run.scores,
    cost: run.cost,
    kgVersion: run.kgVersion,
    parentRunId: run.parentRunId,
    configDiff: run.configDiff,
    children: run.children,
    error: run.error,
    attempts: run.attempts,
    createdAt: run.createdAt,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    steps: trace.steps.map((s) => ({ ...s, input: stripKey(s.input) })),
    // Each record with the citation id ("K3") it was shown to a model under.
    evidence: withCites(trace.evidence),
    modelCalls: calls,
  });
}

export type RunRecord = Awaited<ReturnType<typeof getRunRecord>>;

/** The replay key is internal bookkeeping; the trace shows the step's own input. */
function stripKey(input: unknown) {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input;
  const { __key: _k, ...rest } = input as Record<string, unknown>;
  return rest;
}

/** The latest runs, newest first; only those among `ids` when given (the runs this browser started). */
export async function listRecentRuns(limit = 20, opts: { ids?: readonly string[]; viewer?: Viewer } = {}) {
  // With sign-in on, only the viewer's own runs (and those from before sign-in): others' are reached by their share links.
  const runs = await listRuns(limit, { ids: opts.ids, owners: opts.viewer ? ownerFilter(opts.viewer) : undefined });
  return redactForClient(runs.map((r) => ({ ...r, answer: MethodAnswerSchema.safeParse(r.answer).data ?? null })));
}

function withCites<E extends { id: string; ordinal: number; channel: string; kind: string; ref: string; text: string }>(
  evidence: E[],
): (E & { cite: string })[] {
  const cites = citationsOf([...evidence].sort((a, b) => a.ordinal - b.ordinal).map((e) => ({ ...e, channel: e.channel as never, kind: e.kind as never })));
  return evidence.map((e) => ({ ...e, cite: cites.get(e.id)! }));
}
