import { streamWithContinuation, type ReasoningWindow, type TextSegment } from '@/lib/llm/stream';
import type { FinishReason, RoleTemplate } from '@/lib/llm/types';
import type { EvidenceRecord, StepHandle } from '@/lib/trace/types';
import type { MethodContext } from '../../types';
import type { Eigen1Params } from '../params';
import { injectorTemplate, monitorTemplate, querierTemplate, type EvidenceItem, type QuestionFrame } from '../templates';
import { usageOf, type Stage, type StageUsage } from '../usage';
import { callRole } from './call';
import { toItem, type RetrievedItem } from './records';
import { retrieve } from './retrieve';
import { normalise } from '@/lib/llm/offline/text';

/** The monitor's judgement of one window of the stream. */
export interface WindowVerdict {
  start: number;
  end: number;
  needsRetrieval: boolean;
  reason: string;
}

/** Text spliced into the stream: written by the injector from retrieved records (or, injector off, the records as retrieved), never by the reasoning model. */
export interface Injection {
  index: number;
  query: string;
  /** Who wrote the query: the querier, or (querier off) the triggering window as it stands. */
  queryBy: 'querier' | 'window';
  /** The retrieval's records as the trace stored them (a stored injection refers to them). */
  retrieved: EvidenceRecord[];
  aside: string;
  usedIds: string[];
  /** Exactly what was appended to the assistant prefix. */
  splice: string;
  /** Where the splice starts in the reasoning text (the model's text up to here stays as written). */
  spliceOffset: number;
  writtenBy: 'injector' | 'raw-retrieval';
  modelWritten: false;
  usage: StageUsage[];
}

/** Who generates, and with which prompt: any EIGEN-1 role that writes reasoning. */
export interface GenerationSpec<I> {
  /** The stage whose ledger counts the generation's calls (monitor, querier and injector calls count under their own). */
  stage: Stage;
  /** The candidate line (1-based); seeds retrieval tie-breaks per line. */
  lane: number;
  template: RoleTemplate<I, unknown>;
  input: I;
}

export interface Generation {
  stage: Stage;
  lane: number;
  text: string;
  /** Model-written and injected stretches of the text, with offsets. */
  segments: TextSegment[];
  windows: (WindowVerdict & { spliced: boolean })[];
  injections: Injection[];
  finishReason: FinishReason;
  continuation: 'continued' | 'new-turn' | null;
  /** The records the injected text states: what the role may cite beyond what it was given (as roles see them: evidenceOf). */
  evidence: EvidenceRecord[];
  /** MCQ: per option, the queries that named it and the injected records that touch its entity (empty when the question has no options). */
  optionChecks: OptionCheck[];
  usage: StageUsage[];
}

export interface OptionCheck {
  key: string;
  option: string;
  queries: string[];
  evidenceIds: string[];
  /**
   * How the injected records back the option: `direct`, a triple of a relation the question asks joins it to a
   * question entity (`directIds`); `indirect`, records touch it otherwise (another relation, a path, a passage); `none`.
   */
  support: 'direct' | 'indirect' | 'none';
  directIds: string[];
}

type Ctx = MethodContext<Eigen1Params>;

/**
 * Monitored generation (EIGEN-1 §3.1, Algorithm 1), the one way every EIGEN-1
 * role writes reasoning: the text streams; each completed window (512
 * characters, 128 overlap) goes to the monitor while the stream waits; on
 * "needs retrieval" the querier writes a query, documents and the KG are
 * searched, the injector writes an aside, and the model continues from its own
 * text plus the aside. At most maxInjections per generation. Each trigger is a
 * step under this generation, which sits under the stage that generates.
 * Ablations (Table 3): monitor off streams unwatched (the records are in the
 * prompt up front instead); querier off queries with the window; injector off
 * splices the records raw.
 */
export async function monitoredGeneration<I>(ctx: Ctx, parent: StepHandle, spec: GenerationSpec<I>, frame: QuestionFrame): Promise<Generation> {
  const p = ctx.params;
  const components = { monitor: p.monitor, querier: p.querier, injector: p.injector };
  return ctx.trace.step(
    {
      kind: 'eigen1.generation',
      label: p.monitor ? 'Monitored generation' : 'Generation (monitor off: explicit RAG up front)',
      input: {
        stage: spec.stage,
        lane: spec.lane,
        template: spec.template.id,
        ...components,
        windowChars: p.windowChars,
        overlapChars: p.overlapChars,
        maxInjections: p.monitor ? p.maxInjections : 0,
      },
      parent,
    },
    async (step) => {
      const verdicts: (WindowVerdict & { usage: StageUsage[] })[] = [];
      const injections: Injection[] = [];
      const generation = await streamWithContinuation(ctx.model, spec.template, spec.input, {
        windowChars: p.windowChars,
        overlapChars: p.overlapChars,
        // Monitor off: no window is ever reviewed.
        maxSplices: p.monitor ? p.maxInjections : 0,
        params: { temperature: p.temperature },
        recorder: ctx.trace.callRecorder(step),
        review: async (window, textSoFar) => {
          const verdict = await monitor(ctx, step, frame, window);
          verdicts.push(verdict);
          if (!verdict.needsRetrieval) return null;
          const asked = injections.map((i) => i.query);
          const context = readIn(textSoFar, injections);
          const injection = await inject(ctx, step, frame, { window, textSoFar, context, asked, index: injections.length + 1, seed: p.seed + spec.lane - 1 });
          injections.push(injection);
          return injection.splice;
        },
      });
      const windows = verdicts.map(({ usage: _usage, ...v }) => ({ ...v, spliced: generation.windows.some((w) => w.start === v.start && w.spliced) }));
      const used = new Set(injections.flatMap((i) => i.usedIds));
      const evidence = [
        ...new Map(
          injections
            .flatMap((i) => i.retrieved)
            .filter((r) => used.has(r.id))
            .map((r) => [r.id, r]),
        ).values(),
      ];
      return {
        stage: spec.stage,
        lane: spec.lane,
        text: generation.text,
        segments: generation.segments,
        windows,
        injections,
        finishReason: generation.finishReason,
        continuation: generation.continuation,
        evidence,
        optionChecks: await checkOptions(ctx, step, frame, injections, evidence),
        usage: [usageOf(spec.stage, generation.calls), ...verdicts.flatMap((v) => v.usage), ...injections.flatMap((i) => i.usage)],
      };
    },
  );
}

async function monitor(ctx: Ctx, parent: StepHandle, frame: QuestionFrame, window: ReasoningWindow): Promise<WindowVerdict & { usage: StageUsage[] }> {
  // The window's text is in the generation's output and in the monitor's prompt; the step keeps its offsets.
  return ctx.trace.step(
    { kind: 'eigen1.monitor', label: `Monitor window ${window.start}–${window.end}`, input: { start: window.start, end: window.end }, parent },
    async (step) => {
      const { output, usage } = await callRole(ctx, step, 'monitor', monitorTemplate, { frame, window: window.text });
      return { start: window.start, end: window.end, needsRetrieval: output.needsRetrieval, reason: output.reason, usage: [usage] };
    },
  );
}

async function inject(
  ctx: Ctx,
  parent: StepHandle,
  frame: QuestionFrame,
  at: { window: ReasoningWindow; textSoFar: string; context: string; asked: string[]; index: number; seed: number },
): Promise<Injection> {
  const span = { start: at.window.start, end: at.window.end };
  return ctx.trace.step(
    { kind: 'eigen1.injection', label: `Injection ${at.index}`, input: { window: span, at: at.textSoFar.length }, parent },
    async (step) => {
      const querier = await formQuery(ctx, step, frame, at.window, at.asked);
      const retrieval = await retrieve(ctx, step, querier.query, { topK: ctx.params.queryTopK, seed: at.seed, context: at.context });
      const injector = await integrate(ctx, step, frame, { text: at.textSoFar, query: querier.query, retrieved: retrieval.records.map(toItem) });
      const lead = /\s$/.test(at.textSoFar) || !at.textSoFar ? '' : ' ';
      return {
        index: at.index,
        query: querier.query,
        queryBy: querier.by,
        retrieved: retrieval.records,
        aside: injector.aside,
        usedIds: injector.usedIds,
        splice: `${lead}${injector.aside} `,
        spliceOffset: at.textSoFar.length,
        writtenBy: injector.by,
        modelWritten: false as const,
        usage: [...querier.usage, ...injector.usage],
      };
    },
  );
}

/**
 * The reasoning so far as retrieval reads it: an aside cites its records by id (their text is shown once, in the
 * prompts' evidence lists), so each cited id is read as the record's text, and what was found steers the next search.
 */
function readIn(text: string, injections: Injection[]): string {
  const byId = new Map(injections.flatMap((i) => i.retrieved).map((r) => [r.id, r.text]));
  return text.replace(/\[([^\]\s]+)\]/g, (cited, id: string) => byId.get(id) ?? cited);
}

/** The querier's query; querier off: the triggering window as it stands, and the trace says so. */
async function formQuery(ctx: Ctx, parent: StepHandle, frame: QuestionFrame, window: ReasoningWindow, asked: string[]) {
  const spec = { kind: 'eigen1.querier' as const, label: 'Querier', input: { window: { start: window.start, end: window.end }, asked }, parent };
  if (!ctx.params.querier) {
    await ctx.trace.skipped(spec, 'ablation (querier off): the monitor window that triggered is the query');
    return { query: window.text.trim(), by: 'window' as const, usage: [] };
  }
  return ctx.trace.step(spec, async (s) => {
    const { output, usage } = await callRole(ctx, s, 'querier', querierTemplate, { frame, window: window.text, asked });
    return { query: output.query.trim(), by: 'querier' as const, usage: [usage] };
  });
}

/** The injector's aside; injector off: the retrieved records spliced as retrieved, unfiltered and not rewritten. */
async function integrate(ctx: Ctx, parent: StepHandle, frame: QuestionFrame, at: { text: string; query: string; retrieved: RetrievedItem[] }) {
  const spec = { kind: 'eigen1.injector' as const, label: 'Injector', input: { query: at.query, retrievedIds: at.retrieved.map((r) => r.id) }, parent };
  if (!ctx.params.injector) {
    await ctx.trace.skipped(spec, 'ablation (injector off): the retrieved records go into the stream raw');
    return { aside: rawRetrieval(at.query, at.retrieved), usedIds: at.retrieved.map((r) => r.id), by: 'raw-retrieval' as const, usage: [] };
  }
  return ctx.trace.step(spec, async (s) => {
    const { output, usage } = await callRole(ctx, s, 'injector', injectorTemplate, { frame, ...at });
    // Only records that were retrieved can be cited; a model may name others.
    return {
      aside: output.aside.trim(),
      usedIds: output.usedIds.filter((id) => at.retrieved.some((r) => r.id === id)),
      by: 'injector' as const,
      usage: [usage],
    };
  });
}

/**
 * Aid `option-checks` (trace only; none with the aids off): which options the generation's queries named, which
 * injected records touch each option's linked entity (or name it), and how directly, by the relations the reader reads.
 */
async function checkOptions(ctx: Ctx, step: StepHandle, frame: QuestionFrame, injections: Injection[], evidence: EvidenceRecord[]): Promise<OptionCheck[]> {
  if (!Object.keys(frame.options ?? {}).length || !(await ctx.channels.aids.note(step, 'option-checks', 'per-option support recorded in the trace'))) return [];
  const read = await ctx.channels.aids.anchors(step, frame);
  // The relations the question asks, at the question entity they start from.
  const asked = [...(read?.relations ?? [])].map(([nodeId, metaedges]) => ({ nodeId, metaedges: new Set(metaedges) }));
  return Object.entries(frame.options ?? {}).map(([key, option]) => {
    const names = [option, ...(frame.optionLinks[key] ?? []).map((l) => l.name)].map(normalise).filter(Boolean);
    const nodes = new Set((frame.optionLinks[key] ?? []).map((l) => l.nodeId));
    const namesOption = (text: string) => names.some((n) => ` ${normalise(text)} `.includes(` ${n} `));
    const touches = (r: EvidenceRecord) => {
      // A pair's check states an absence: it supports no option.
      if (r.kind === 'check') return false;
      const triples = toItem(r).triples;
      return triples.length
        ? triples.some((t) => nodes.has(t.sourceId) || nodes.has(t.targetId) || namesOption(`${t.sourceName} | ${t.targetName}`))
        : namesOption(r.text);
    };
    const direct = (r: EvidenceRecord) => {
      const triples = toItem(r).triples;
      return (
        triples.length === 1 &&
        asked.some(
          (a) =>
            a.metaedges.has(triples[0].metaedge) &&
            [triples[0].sourceId, triples[0].targetId].includes(a.nodeId) &&
            (nodes.has(triples[0].sourceId) || nodes.has(triples[0].targetId)),
        )
      );
    };
    const evidenceIds = evidence.filter(touches).map((r) => r.id);
    const directIds = evidence.filter(direct).map((r) => r.id);
    const support = directIds.length ? ('direct' as const) : evidenceIds.length ? ('indirect' as const) : ('none' as const);
    return { key, option, queries: injections.filter((i) => namesOption(i.query)).map((i) => i.query), evidenceIds, support, directIds };
  });
}

/** What a generation's injections brought in, as roles see evidence. */
export function evidenceOf(generation: Generation): RetrievedItem[] {
  return generation.evidence.map(toItem);
}

/** Raw retrieval output as it would reach the context without an injector. */
export function rawRetrieval(query: string, retrieved: EvidenceItem[]): string {
  const records = retrieved.length ? retrieved.map((r) => `[${r.id}] ${r.text}`).join('\n') : '(nothing found)';
  return `\n[Retrieved for "${query.replace(/\s+/g, ' ')}":\n${records}\n]\n`;
}
