import { z } from 'zod';
import type { RunStatus } from '@/lib/db/generated/enums';
import { readLinkReport } from '@/lib/kg/link-report';
import { estimatePromptTokens, estimateTokens, estimateTokensOfChars } from '@/lib/llm/tokens';
import type { ChatMessage } from '@/lib/llm/types';
import type { K2vReport } from '@/lib/trace/steps/k2v';
import type { ChannelName } from '@/lib/trace/types';
import { stepHeadline } from '@/lib/trace/headline';
import { rejectedHypotheses, type RejectedHypothesis } from '@/lib/trace/hypotheses';
import { overlapGroups } from '@/lib/trace/concurrency';
import type { CallTimingRow, StepPlace, StoredCall, StoredEvidence, StoredStep } from '@/lib/trace/store';
import type { MethodAnswer } from '@/lib/methods/types';
import { parseStepInput } from '@/lib/trace/step-schemas';
import { MethodAnswerSchema } from '@/lib/trace/steps/common';
import { GoldAnswerSchema, type GoldAnswer } from '@/lib/eval/scoring';
import { getMethod } from '@/lib/methods/registry';
import { ConfigDiffSchema, type ConfigChange } from './config';
import { RunCostSchema, type RunCost } from './cost';
import { waitingFor } from './backend';
import { RunConfigSchema, RunInputSchema, type RunConfig } from './schemas';

/**
 * The run's view, built from what the stores read (./view.ts reads and redacts):
 * pure, so it is tested without a database (tests/unit/run-view.test.ts).
 *
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
  /** While queued: the worker it waits for (one serving its backend: "a worker with endpoint … and model …"). */
  waitingFor: string | null;
  method: string;
  methodName: string;
  /** Steps per top-level stage kind known before the stage starts (see MethodDefinition.plannedStages). */
  plannedStages: Record<string, number>;
  /** Run parameters set away from the method's defaults (the paper's): a row's ablation, shown beside the switches. */
  offDefaults: { name: string; value: unknown; paper: unknown }[];
  question: string;
  questionId: string | null;
  input: { options: Record<string, string> | null; answerType: string; documentIds: string[]; gold: GoldAnswer | null };
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
  /** Every model call's timing and tokens (the waterfall), without prompts or outputs. */
  calls: CallTiming[];
  /** K2V verifications of the run, newest first: records of their own, which never change the run (the run id left out: permalinks show them). */
  verifications: VerificationView[];
}

/** A model call on the timeline. Tokens a backend did not report (the offline engine) are estimates, flagged. */
export interface CallTiming {
  id: string;
  stepId: string | null;
  ordinal: number;
  role: string;
  /** When the request went out (on rows written before that was kept: the row's write time minus the latency). */
  startedAt: string;
  latencyMs: number;
  /** Calls whose time in flight overlapped (directly or through others) share a group number, 1, 2, …; null: it overlapped none. */
  concurrentGroup: number | null;
  tokensIn: number;
  tokensOut: number;
  tokensEstimated: boolean;
  cached: boolean;
}

/** The schema's own statuses (Prisma's enums), never copies. */
export type { RunStatus };

export interface StepSummary extends StepPlace {
  startedAt: string;
  durationMs: number | null;
  headline: string | null;
  calls: number;
  tokensIn: number;
  tokensOut: number;
  /** Some of the tokens are estimates (about four characters a token): the backend reported none. */
  tokensEstimated?: boolean;
  evidence: number;
  /** The recorded output broke its kind's contract: the step was kept, flagged with the issues. */
  contractIssue?: string;
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

/** A stored model call as the page reads it: dates as strings, and whether its token counts are estimates. */
export type ModelCallView = Omit<StoredCall, 'stepId' | 'createdAt'> & { tokensEstimated: boolean; createdAt: string };

export interface StepDetail {
  step: StepSummary & { input: unknown; output: unknown };
  calls: ModelCallView[];
}

/** A run's row as its view reads it (lib/runs/store/runs.ts readRunWithFamily). */
export interface RunRow {
  id: string;
  shareId: string;
  status: RunStatus;
  backendKey: string;
  method: string;
  questionText: string;
  questionId: string | null;
  input: unknown;
  config: unknown;
  configHash: string;
  answer: unknown;
  correct: boolean | null;
  scores: unknown;
  kgVersion: string | null;
  parent: { id: string; shareId: string } | null;
  configDiff: unknown;
  children: { id: string; shareId: string; status: RunStatus; configDiff: unknown; createdAt: Date }[];
  error: string | null;
  attempts: number;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

/** Everything a run's view is built from. */
export interface RunViewSource {
  run: RunRow;
  trace: { steps: StepRow[]; evidence: StoredEvidence[] };
  calls: CallTiming[];
  cost: RunCost;
  documents: { id: string; title: string | null }[];
  verifications: K2vReport[];
}

/** The run's view (not yet redacted for the client). */
export function buildRunView({ run, trace, calls, cost, documents, verifications }: RunViewSource): RunView {
  const usage = usageByStep(calls);
  const evidenceByStep = new Map<string, number>();
  for (const e of trace.evidence) if (e.stepId) evidenceByStep.set(e.stepId, (evidenceByStep.get(e.stepId) ?? 0) + 1);

  const input = RunInputSchema.safeParse(run.input);
  const config = RunConfigSchema.safeParse(run.config);
  return {
    id: run.id,
    shareId: run.shareId,
    shared: false,
    status: run.status,
    waitingFor: run.status === 'queued' ? waitingFor(run.backendKey) : null,
    method: run.method,
    methodName: methodName(run.method),
    plannedStages: config.success ? plannedStages(run.method, config.data.params) : {},
    offDefaults: config.success ? offDefaults(run.method, config.data.params) : [],
    question: run.questionText,
    questionId: run.questionId,
    input: input.success
      ? {
          options: input.data.options,
          answerType: input.data.answerType,
          documentIds: input.data.documentIds,
          gold: GoldAnswerSchema.safeParse(input.data.gold).data ?? null,
        }
      : { options: null, answerType: 'open', documentIds: [], gold: null },
    documents,
    config: config.success ? config.data : null,
    configHash: run.configHash,
    answer: storedAnswer(run.answer),
    correct: run.correct,
    scores: RunScoresSchema.safeParse(run.scores).data ?? null,
    cost,
    kgVersion: run.kgVersion,
    parent: run.parent,
    configDiff: storedDiff(run.configDiff),
    children: run.children.map((c) => ({ ...c, configDiff: storedDiff(c.configDiff), createdAt: c.createdAt.toISOString() })),
    error: run.error,
    attempts: run.attempts,
    createdAt: run.createdAt.toISOString(),
    startedAt: run.startedAt?.toISOString() ?? null,
    finishedAt: run.finishedAt?.toISOString() ?? null,
    steps: trace.steps.map((s) => summarise(s, usage.get(s.id), evidenceByStep.get(s.id) ?? 0)),
    evidence: trace.evidence,
    seeds: questionSeeds(run.questionText, trace.steps),
    rejectedHypotheses: rejectedHypotheses(trace.steps),
    calls,
    verifications: verifications.map(({ runId: _r, ...report }) => report),
  };
}

/** The documents a run's input names (none when the input does not fit its schema). */
export function documentIdsOf(input: unknown): string[] {
  return RunInputSchema.safeParse(input).data?.documentIds ?? [];
}

/** One step's input, output and model calls (opened in the trace timeline), from its stored step and its calls. */
export function buildStepDetail(stored: { step: StoredStep; evidence: number }, calls: StoredCall[]): StepDetail {
  const { step, evidence } = stored;
  const stepId = step.id;
  const views = calls.map(({ stepId: _s, createdAt, ...c }): ModelCallView => {
    const estimated = unreported(c);
    return {
      ...c,
      tokensIn: estimated ? estimatePromptTokens(messagesOf(c.messages)) : c.tokensIn,
      tokensOut: estimated ? estimateTokens(c.output ?? '') : c.tokensOut,
      tokensEstimated: estimated,
      messages: c.messages,
      parsed: c.parsed ?? null,
      createdAt: createdAt.toISOString(),
    };
  });
  const detail: StepDetail = {
    step: {
      ...summarise(step, usageByStep(views.map((c) => ({ ...c, stepId }))).get(stepId), evidence),
      input: stripKey(step.input),
      output: step.output ?? null,
    },
    calls: views,
  };
  return detail;
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
  contractIssue: string | null;
}

function summarise(
  s: StepRow,
  usage: { calls: number; tokensIn: number; tokensOut: number; tokensEstimated?: boolean } | undefined,
  evidence: number,
): StepSummary {
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
    ...(usage?.tokensEstimated ? { tokensEstimated: true } : {}),
    evidence,
    ...(s.contractIssue ? { contractIssue: s.contractIssue } : {}),
  };
}

/** The offline engine reports no tokens: its calls' tokens are estimated from the prompt and output text. */
const unreported = (c: { backend: string; tokensIn: number; tokensOut: number }) => c.backend === 'offline' && c.tokensIn === 0 && c.tokensOut === 0;

function messagesOf(value: unknown): ChatMessage[] {
  return Array.isArray(value)
    ? value.flatMap((m) => (m && typeof m === 'object' && typeof (m as ChatMessage).content === 'string' ? [m as ChatMessage] : []))
    : [];
}

/** Every model call of a run on the timeline: overlapping calls grouped, tokens the backend did not report estimated from the texts' sizes. */
export function buildCallTimings(rows: readonly CallTimingRow[]): CallTiming[] {
  const groups = overlapGroups(rows.map((r) => ({ start: r.startedAt.getTime(), end: r.startedAt.getTime() + r.latencyMs })));
  return rows.map((r, i) => {
    const estimated = unreported(r);
    return {
      id: r.id,
      stepId: r.stepId,
      ordinal: r.ordinal,
      role: r.role,
      startedAt: r.startedAt.toISOString(),
      latencyMs: r.latencyMs,
      concurrentGroup: groups[i],
      tokensIn: estimated ? estimateTokensOfChars(r.promptChars) : r.tokensIn,
      tokensOut: estimated ? estimateTokensOfChars(r.outputChars) : r.tokensOut,
      tokensEstimated: estimated,
      cached: r.cached,
    };
  });
}

function usageByStep(calls: readonly Pick<CallTiming, 'stepId' | 'tokensIn' | 'tokensOut' | 'tokensEstimated'>[]) {
  const usage = new Map<string, { calls: number; tokensIn: number; tokensOut: number; tokensEstimated: boolean }>();
  for (const c of calls) {
    if (!c.stepId) continue;
    const u = usage.get(c.stepId) ?? { calls: 0, tokensIn: 0, tokensOut: 0, tokensEstimated: false };
    u.calls += 1;
    u.tokensIn += c.tokensIn;
    u.tokensOut += c.tokensOut;
    u.tokensEstimated ||= c.tokensEstimated;
    usage.set(c.stepId, u);
  }
  return usage;
}

export type VerificationView = Omit<K2vReport, 'runId'>;

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
    const text = parseStepInput('channel.entity', s.input).data?.text;
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

function offDefaults(id: string, params: unknown): RunView['offDefaults'] {
  try {
    const method = getMethod(id as Parameters<typeof getMethod>[0]);
    const [set, defaults] = [method.params.safeParse(params ?? {}), method.params.safeParse({})];
    if (!set.success || !defaults.success) return [];
    const [ours, paper] = [set.data as Record<string, unknown>, defaults.data as Record<string, unknown>];
    return Object.keys(ours)
      .filter((name) => JSON.stringify(ours[name]) !== JSON.stringify(paper[name]))
      .map((name) => ({ name, value: ours[name], paper: paper[name] }));
  } catch {
    return [];
  }
}

/** The replay key is internal bookkeeping; the trace shows the step's own input. */
function stripKey(input: unknown) {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input ?? null;
  const { __key: _k, ...rest } = input as Record<string, unknown>;
  return rest;
}

// JSON columns of a run, read through their schemas (a value that does not fit reads as absent).
const RunScoresSchema = z.record(z.string(), z.unknown());
const storedAnswer = (v: unknown): MethodAnswer | null => MethodAnswerSchema.safeParse(v).data ?? null;
const storedDiff = (v: unknown): ConfigChange[] | null => ConfigDiffSchema.safeParse(v).data ?? null;
/** The cost stored with a finished run; null when none is (a live run's is summed from its trace). */
export const storedCost = (v: unknown): RunCost | null => RunCostSchema.safeParse(v).data ?? null;
