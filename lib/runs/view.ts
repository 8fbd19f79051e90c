import { getPool, getPrisma } from '@/lib/db/client';
import { readLinkReport } from '@/lib/kg/link-report';
import { stepHeadline } from '@/lib/trace/headline';
import { rejectedHypotheses, type RejectedHypothesis } from '@/lib/trace/hypotheses';
import { readStep, readTrace, type StoredEvidence } from '@/lib/trace/store';
import type { MethodAnswer } from '@/lib/methods/types';
import { getMethod } from '@/lib/methods/registry';
import type { ConfigChange } from './config';
import { summariseCost, type RunCost } from './cost';
import { NotFoundError } from './errors';
import { redactForClient } from './redact';
import { RunConfigSchema, RunInputSchema, type RunConfig } from './schemas';

/**
 * The run as the run page, the permalink and the comparison read it: every
 * step of the trace as an outline (kind, label, status, a headline, its cost),
 * every evidence record, the answer, scores and cost. Step inputs, outputs and
 * model calls are fetched per step (`getStepDetail`) when a step is opened, so
 * a finished run of a few hundred steps loads fast and a live run polls cheaply.
 * Plain JSON (dates as ISO strings): the same value hydrates the client.
 */
export interface RunView {
  /** The run's id; on a share link's view its share id (see lib/runs/share.ts). */
  id: string;
  shareId: string;
  /** Opened through a share link: read-only, every id in it a share id. */
  shared: boolean;
  status: RunStatus;
  method: string;
  methodName: string;
  /** Steps per top-level stage kind known before the stage starts (see MethodDefinition.plannedStages). */
  plannedStages: Record<string, number>;
  question: string;
  questionId: string | null;
  input: { options: Record<string, string> | null; answerType: string; documentIds: string[]; gold: unknown };
  documents: { id: string; title: string | null }[];
  config: RunConfig | null;
  configHash: string;
  answer: MethodAnswer | null;
  correct: boolean | null;
  scores: Record<string, unknown> | null;
  cost: RunCost | null;
  kgVersion: string | null;
  parent: { id: string; shareId: string } | null;
  configDiff: ConfigChange[] | null;
  children: { id: string; shareId: string; status: RunStatus; configDiff: ConfigChange[] | null; createdAt: string }[];
  error: string | null;
  attempts: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  steps: StepSummary[];
  evidence: EvidenceView[];
  /** The question's linked entities (the graph's seeds). */
  seeds: SeedEntity[];
  /** Hypotheses a reviewer rejected (not evidence, but drawn dashed in the graph). */
  rejectedHypotheses: RejectedHypothesis[];
}

export type RunStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface StepSummary {
  id: string;
  ordinal: number;
  parentStepId: string | null;
  kind: string;
  label: string;
  status: 'running' | 'succeeded' | 'failed' | 'skipped';
  startedAt: string;
  durationMs: number | null;
  headline: string | null;
  calls: number;
  tokensIn: number;
  tokensOut: number;
  evidence: number;
}

/** Every evidence record of the run, candidates included (selected: a method used it). */
export type EvidenceView = StoredEvidence;

export interface SeedEntity {
  nodeId: string;
  name: string;
  kind: string;
  mention: string;
  method: string;
  score: number;
}

export interface ModelCallView {
  id: string;
  ordinal: number;
  role: string;
  backend: string;
  model: string;
  template: string;
  templateVersion: number;
  messages: unknown;
  output: string | null;
  parsed: unknown;
  tokensIn: number;
  tokensOut: number;
  latencyMs: number;
  cached: boolean;
  attempts: number;
  error: string | null;
  createdAt: string;
}

export interface StepDetail {
  step: StepSummary & { input: unknown; output: unknown };
  calls: ModelCallView[];
}

export const LIVE_STATUSES: readonly RunStatus[] = ['queued', 'running'];

export async function getRunView(where: { id: string } | { shareId: string }): Promise<RunView> {
  const prisma = getPrisma();
  const run = await prisma.run.findUnique({
    where,
    include: {
      parent: { select: { id: true, shareId: true } },
      children: { select: { id: true, shareId: true, status: true, configDiff: true, createdAt: true }, orderBy: { createdAt: 'asc' } },
    },
  });
  if (!run) throw new NotFoundError('id' in where ? `No run with id ${where.id}` : 'No run behind this link');

  const [trace, usage, cost, documents] = await Promise.all([
    readTrace(run.id),
    callUsageByStep(run.id),
    run.cost ? Promise.resolve(run.cost as unknown as RunCost) : summariseCost(run.id),
    readDocuments(RunInputSchema.safeParse(run.input).data?.documentIds ?? []),
  ]);
  const evidenceByStep = new Map<string, number>();
  for (const e of trace.evidence) if (e.stepId) evidenceByStep.set(e.stepId, (evidenceByStep.get(e.stepId) ?? 0) + 1);

  const input = RunInputSchema.safeParse(run.input);
  const config = RunConfigSchema.safeParse(run.config);
  const view: RunView = {
    id: run.id,
    shareId: run.shareId,
    shared: false,
    status: run.status,
    method: run.method,
    methodName: methodName(run.method),
    plannedStages: config.success ? plannedStages(run.method, config.data.params) : {},
    question: run.questionText,
    questionId: run.questionId,
    input: input.success
      ? { options: input.data.options, answerType: input.data.answerType, documentIds: input.data.documentIds, gold: input.data.gold ?? null }
      : { options: null, answerType: 'open', documentIds: [], gold: null },
    documents,
    config: config.success ? config.data : null,
    configHash: run.configHash,
    answer: (run.answer as MethodAnswer | null) ?? null,
    correct: run.correct,
    scores: (run.scores as Record<string, unknown> | null) ?? null,
    cost,
    kgVersion: run.kgVersion,
    parent: run.parent,
    configDiff: (run.configDiff as ConfigChange[] | null) ?? null,
    children: run.children.map((c) => ({ ...c, configDiff: (c.configDiff as ConfigChange[] | null) ?? null, createdAt: c.createdAt.toISOString() })),
    error: run.error,
    attempts: run.attempts,
    createdAt: run.createdAt.toISOString(),
    startedAt: run.startedAt?.toISOString() ?? null,
    finishedAt: run.finishedAt?.toISOString() ?? null,
    steps: trace.steps.map((s) => summarise(s, usage.get(s.id), evidenceByStep.get(s.id) ?? 0)),
    evidence: trace.evidence,
    seeds: questionSeeds(run.questionText, trace.steps),
    rejectedHypotheses: rejectedHypotheses(trace.steps),
  };
  return redactForClient(view);
}

/** One step's input, output and model calls (opened in the trace timeline). */
export async function getStepDetail(runId: string, stepId: string): Promise<StepDetail> {
  const [stored, calls] = await Promise.all([
    readStep(runId, stepId),
    getPrisma().modelCall.findMany({ where: { runId, stepId }, orderBy: { ordinal: 'asc' } }),
  ]);
  if (!stored) throw new NotFoundError(`Run ${runId} has no step ${stepId}`);
  const { step, evidence } = stored;
  const usage = { calls: calls.length, tokensIn: sum(calls.map((c) => c.tokensIn)), tokensOut: sum(calls.map((c) => c.tokensOut)) };
  const detail: StepDetail = {
    step: { ...summarise(step, usage, evidence), input: stripKey(step.input), output: step.output ?? null },
    calls: calls.map(({ runId: _r, stepId: _s, createdAt, ...c }) => ({ ...c, messages: c.messages, parsed: c.parsed ?? null, createdAt: createdAt.toISOString() })),
  };
  return redactForClient(detail);
}

interface StepRow {
  id: string;
  ordinal: number;
  parentStepId: string | null;
  kind: string;
  label: string;
  status: StepSummary['status'];
  input: unknown;
  output: unknown;
  startedAt: Date;
  durationMs: number | null;
}

function summarise(s: StepRow, usage: { calls: number; tokensIn: number; tokensOut: number } | undefined, evidence: number): StepSummary {
  return {
    id: s.id,
    ordinal: s.ordinal,
    parentStepId: s.parentStepId,
    kind: s.kind,
    label: s.label,
    status: s.status,
    startedAt: s.startedAt.toISOString(),
    durationMs: s.durationMs,
    headline: stepHeadline(s.status, s.output),
    calls: usage?.calls ?? 0,
    tokensIn: usage?.tokensIn ?? 0,
    tokensOut: usage?.tokensOut ?? 0,
    evidence,
  };
}

async function callUsageByStep(runId: string) {
  const { rows } = await getPool().query<{ step_id: string; calls: string; tin: string; tout: string }>(
    `select step_id, count(*) calls, coalesce(sum(tokens_in), 0) tin, coalesce(sum(tokens_out), 0) tout
       from model_calls where run_id = $1 and step_id is not null group by step_id`,
    [runId],
  );
  return new Map(rows.map((r) => [r.step_id, { calls: Number(r.calls), tokensIn: Number(r.tin), tokensOut: Number(r.tout) }]));
}

async function readDocuments(ids: string[]) {
  if (!ids.length) return [];
  const docs = await getPrisma().document.findMany({ where: { id: { in: ids } }, select: { id: true, title: true } });
  return ids.flatMap((id) => docs.filter((d) => d.id === id));
}

/**
 * The entities linked in the question itself: the outputs of entity-linking
 * steps whose input text is the question (whatever method ran them).
 */
export function questionSeeds(question: string, steps: readonly Pick<StepRow, 'kind' | 'input' | 'output' | 'status'>[]): SeedEntity[] {
  const seeds = new Map<string, SeedEntity>();
  const q = question.trim();
  for (const s of steps) {
    const report = s.kind === 'channel.entity' && s.status === 'succeeded' ? readLinkReport(s.output) : null;
    if (!report) continue;
    const text = (s.input as { text?: unknown } | null)?.text;
    if (typeof text !== 'string' || text.trim() !== q) continue;
    for (const link of report.links) {
      if (seeds.has(link.nodeId)) continue;
      seeds.set(link.nodeId, {
        nodeId: link.nodeId,
        name: String(link.name ?? link.nodeId),
        kind: String(link.kind ?? ''),
        mention: String(link.mention ?? ''),
        method: String(link.method ?? ''),
        score: Number(link.score ?? 0),
      });
    }
  }
  return [...seeds.values()];
}

function methodName(id: string): string {
  try {
    return getMethod(id as Parameters<typeof getMethod>[0]).name;
  } catch {
    return id;
  }
}

function plannedStages(id: string, params: unknown): Record<string, number> {
  try {
    const method = getMethod(id as Parameters<typeof getMethod>[0]);
    const parsed = method.params.safeParse(params ?? {});
    return parsed.success ? (method.plannedStages?.(parsed.data) ?? {}) : {};
  } catch {
    return {};
  }
}

/** The replay key is internal bookkeeping; the trace shows the step's own input. */
function stripKey(input: unknown) {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input ?? null;
  const { __key: _k, ...rest } = input as Record<string, unknown>;
  return rest;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** The method a run used (the rerun form reads its parameters). */
export async function getRunMethod(id: string): Promise<string> {
  const run = await getPrisma().run.findUnique({ where: { id }, select: { method: true } });
  if (!run) throw new NotFoundError(`No run with id ${id}`);
  return run.method;
}
