import { streamWithContinuation, type ReasoningWindow, type TextSegment } from '@/lib/llm/stream';
import type { FinishReason } from '@/lib/llm/types';
import type { StepHandle } from '@/lib/trace/types';
import type { MethodContext } from '../../types';
import type { Eigen1Params } from '../params';
import { generateTemplate, injectorTemplate, monitorTemplate, querierTemplate, type EvidenceItem, type QuestionFrame } from '../templates';
import { usageOf, type StageUsage } from '../usage';
import { callRole } from './call';
import { retrieve, type RetrievedItem } from './retrieve';

/** The monitor's judgement of one window of the stream. */
export interface WindowVerdict {
  start: number;
  end: number;
  needsRetrieval: boolean;
  reason: string;
}

/** Text spliced into the stream: written by the injector from retrieved records, never by the reasoning model. */
export interface Injection {
  index: number;
  query: string;
  retrieved: RetrievedItem[];
  aside: string;
  usedIds: string[];
  /** Exactly what was appended to the assistant prefix. */
  splice: string;
  /** Where the splice starts in the reasoning text (the model's text up to here stays as written). */
  spliceOffset: number;
  writtenBy: 'injector';
  modelWritten: false;
  usage: StageUsage[];
}

export interface Generation {
  proposer: number;
  text: string;
  /** Model-written and injected stretches of the text, with offsets. */
  segments: TextSegment[];
  windows: (WindowVerdict & { spliced: boolean })[];
  injections: Injection[];
  finishReason: FinishReason;
  /** The records the injected asides state: what the proposal may cite. */
  evidence: EvidenceItem[];
  usage: StageUsage[];
}

type Ctx = MethodContext<Eigen1Params>;

/**
 * Monitored generation (EIGEN-1 §3.1): the proposer's reasoning streams; each
 * completed window (512 characters, 128 overlap) goes to the monitor while the
 * stream waits; on "needs retrieval" the querier writes a query, documents and
 * the KG are searched, the injector writes an aside, and the model continues
 * from its own text plus the aside. At most maxInjections per generation.
 */
export async function monitoredGeneration(ctx: Ctx, parent: StepHandle, frame: QuestionFrame, proposer: number): Promise<Generation> {
  const p = ctx.params;
  return ctx.trace.step(
    { kind: 'eigen1.generation', label: 'Monitored generation', input: { proposer, windowChars: p.windowChars, overlapChars: p.overlapChars, maxInjections: p.maxInjections }, parent },
    async (step) => {
      const verdicts: (WindowVerdict & { usage: StageUsage[] })[] = [];
      const injections: Injection[] = [];
      const generation = await streamWithContinuation(ctx.model, generateTemplate, { frame, proposer, proposers: p.k }, {
        windowChars: p.windowChars,
        overlapChars: p.overlapChars,
        maxSplices: p.maxInjections,
        params: { temperature: p.temperature },
        recorder: ctx.trace.callRecorder(step),
        review: async (window, textSoFar) => {
          const verdict = await monitor(ctx, step, frame, window);
          verdicts.push(verdict);
          if (!verdict.needsRetrieval) return null;
          const asked = injections.map((i) => i.query);
          const injection = await inject(ctx, step, frame, { window, textSoFar, asked, index: injections.length + 1, seed: p.seed + proposer });
          injections.push(injection);
          return injection.splice;
        },
      });
      const windows = verdicts.map(({ usage: _usage, ...v }) => ({ ...v, spliced: generation.windows.some((w) => w.start === v.start && w.spliced) }));
      const used = new Set(injections.flatMap((i) => i.usedIds));
      const evidence = [...new Map(injections.flatMap((i) => i.retrieved).filter((r) => used.has(r.id)).map((r) => [r.id, r])).values()];
      return {
        proposer,
        text: generation.text,
        segments: generation.segments,
        windows,
        injections,
        finishReason: generation.finishReason,
        continuation: generation.continuation,
        evidence,
        usage: [usageOf('generation', generation.calls), ...verdicts.flatMap((v) => v.usage), ...injections.flatMap((i) => i.usage)],
      };
    },
  );
}

async function monitor(ctx: Ctx, parent: StepHandle, frame: QuestionFrame, window: ReasoningWindow): Promise<WindowVerdict & { usage: StageUsage[] }> {
  return ctx.trace.step(
    { kind: 'eigen1.monitor', label: `Monitor window ${window.start}–${window.end}`, input: { start: window.start, end: window.end, window: window.text }, parent },
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
  at: { window: ReasoningWindow; textSoFar: string; asked: string[]; index: number; seed: number },
): Promise<Injection> {
  return ctx.trace.step(
    { kind: 'eigen1.injection', label: `Injection ${at.index}`, input: { window: { start: at.window.start, end: at.window.end }, at: at.textSoFar.length }, parent },
    async (step) => {
      const querier = await ctx.trace.step({ kind: 'eigen1.querier', label: 'Querier', input: { window: at.window.text, asked: at.asked }, parent: step }, async (s) => {
        const { output, usage } = await callRole(ctx, s, 'querier', querierTemplate, { frame, window: at.window.text, asked: at.asked });
        return { query: output.query.trim(), usage };
      });
      const retrieval = await retrieve(ctx, step, querier.query, { topK: ctx.params.queryTopK, seed: at.seed, context: at.textSoFar });
      const injector = await ctx.trace.step({ kind: 'eigen1.injector', label: 'Injector', input: { query: querier.query, retrievedIds: retrieval.items.map((r) => r.id) }, parent: step }, async (s) => {
        const { output, usage } = await callRole(ctx, s, 'injector', injectorTemplate, { frame, text: at.textSoFar, query: querier.query, retrieved: retrieval.items });
        // Only records that were retrieved can be cited; a model may name others.
        return { aside: output.aside.trim(), usedIds: output.usedIds.filter((id) => retrieval.items.some((r) => r.id === id)), usage };
      });
      const lead = /\s$/.test(at.textSoFar) || !at.textSoFar ? '' : ' ';
      return {
        index: at.index,
        query: querier.query,
        retrieved: retrieval.items,
        aside: injector.aside,
        usedIds: injector.usedIds,
        splice: `${lead}${injector.aside} `,
        spliceOffset: at.textSoFar.length,
        writtenBy: 'injector' as const,
        modelWritten: false as const,
        usage: [querier.usage, injector.usage],
      };
    },
  );
}
