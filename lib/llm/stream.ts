import type { ModelClient } from './client';
import type { CallRecorder, FinishReason, ModelParams, ModelResult, RoleTemplate } from './types';

/**
 * Streamed generation that can be interrupted and resumed with text spliced in:
 * the primitive behind EIGEN-1's monitored generation. Over an OpenAI-compatible
 * API a splice means: stop the stream, append the injected text to what the
 * model wrote, and ask for a continuation of that assistant prefix.
 */

export interface ReasoningWindow {
  /** Character offsets into the whole text (model and injected). */
  start: number;
  end: number;
  text: string;
}

export interface ReviewedWindow extends ReasoningWindow {
  /** Whether this window's review spliced text in (and ended the stream there). */
  spliced: boolean;
}

export interface TextSegment {
  source: 'model' | 'injected';
  start: number;
  end: number;
  /** For model text: the index in `calls` of the call that wrote it. */
  call: number | null;
}

export interface ContinuationOptions {
  /** Window length in characters (EIGEN-1: 512). */
  windowChars?: number;
  /** Characters shared by consecutive windows (EIGEN-1: 128). */
  overlapChars?: number;
  /** Splices allowed per generation (EIGEN-1: 2); later windows are not reviewed. */
  maxSplices?: number;
  params?: ModelParams;
  signal?: AbortSignal;
  /** Records each call of the generation (the trace step that runs it); else the client's default recorder. */
  recorder?: CallRecorder;
  /** Every piece of text as it joins the result, with where it came from. */
  onText?(text: string, source: TextSegment['source']): void;
  /**
   * Judges a completed window while the stream waits; returns text to splice in
   * at the current end of the text (include any leading space or newline), or
   * null to let generation run on.
   */
  review(window: ReasoningWindow, textSoFar: string): Promise<string | null>;
}

export interface ContinuedGeneration {
  text: string;
  segments: TextSegment[];
  windows: ReviewedWindow[];
  /** One model call per stretch of model text: the first, then each continuation. */
  calls: ModelResult<unknown>[];
  finishReason: FinishReason;
  /**
   * How the model text after each splice was asked for: 'continued' when every
   * continuation extended the assistant message, 'new-turn' when any was sent
   * as a new turn after it (the server refused continue_final_message, or it
   * is switched off); null when nothing was spliced.
   */
  continuation: 'continued' | 'new-turn' | null;
}

export async function streamWithContinuation<I>(
  client: ModelClient,
  template: RoleTemplate<I, unknown>,
  input: I,
  options: ContinuationOptions,
): Promise<ContinuedGeneration> {
  const windowChars = options.windowChars ?? 512;
  const step = windowChars - (options.overlapChars ?? 128);
  if (step <= 0) throw new Error('overlapChars must be smaller than windowChars');
  const maxSplices = options.maxSplices ?? 2;

  let text = '';
  let windowStart = 0;
  const segments: TextSegment[] = [];
  const windows: ReviewedWindow[] = [];
  const calls: ModelResult<unknown>[] = [];
  const pending: { splice: string | null; cut: number } = { splice: null, cut: 0 };

  for (;;) {
    const prefix = text;
    const result = await client.call(template, input, {
      params: options.params,
      signal: options.signal,
      recorder: options.recorder,
      assistantPrefix: prefix || undefined,
      stream: {
        onDelta: (piece) => options.onText?.(piece, 'model'),
        shouldStop: async (generated) => {
          if (calls.length >= maxSplices) return false; // one splice per earlier call
          const full = prefix + generated;
          while (windowStart + windowChars <= full.length) {
            const window = { start: windowStart, end: windowStart + windowChars, text: full.slice(windowStart, windowStart + windowChars) };
            windowStart += step;
            // A splice goes in at a sentence or word boundary: the partial word after it is dropped, and the model writes it anew.
            const cut = boundaryBefore(full, prefix.length);
            const splice = await options.review(window, full.slice(0, cut));
            windows.push({ ...window, spliced: splice !== null });
            if (splice !== null) {
              pending.splice = splice;
              pending.cut = cut;
              return true;
            }
          }
          return false;
        },
      },
    });
    calls.push(result);
    const splice = pending.splice;
    pending.splice = null;
    // Model text never repeats what is already written (a continuation that restates its prefix), and stops at the splice's boundary.
    const fresh = withoutRepeat(prefix, result.text);
    const written = splice === null ? fresh : fresh.slice(0, Math.max(0, pending.cut - prefix.length - (result.text.length - fresh.length)));
    if (written) segments.push({ source: 'model', start: text.length, end: text.length + written.length, call: calls.length - 1 });
    text += written;

    // A review that asked for a splice is honoured even when its window closed the stream (a backend may then
    // report 'stop' rather than 'stopped'): the retrieval is done, and the model may revise its ending.
    if (splice === null) {
      const continuing = calls.slice(1);
      const continuation = !continuing.length ? null : continuing.every((c) => c.continuation === 'continued') ? 'continued' : 'new-turn';
      return { text, segments, windows, calls, finishReason: result.finishReason, continuation };
    }
    segments.push({ source: 'injected', start: text.length, end: text.length + splice.length, call: null });
    text += splice;
    options.onText?.(splice, 'injected');
    // The monitor judges the model's writing, not the aside it was just given.
    windowStart = text.length;
  }
}

/** Sentences this close to the end are a boundary worth cutting back to; further back, a word boundary is. */
const SENTENCE_REACH = 160;
/** A restated stretch shorter than this may be a coincidence (a repeated phrase), and is kept. */
const MIN_REPEAT = 24;

/**
 * Where text may be cut for a splice, at or after `floor`: after the last
 * sentence end near the end, else after the last whitespace, else the end.
 */
export function boundaryBefore(text: string, floor = 0): number {
  const tail = text.slice(Math.max(floor, text.length - SENTENCE_REACH));
  const offset = text.length - tail.length;
  const sentence = [...tail.matchAll(/[.!?:;]["')\]]?\s+|\n+/g)].at(-1);
  if (sentence) return offset + sentence.index! + sentence[0].length;
  const space = text.slice(floor).search(/\s\S*$/);
  return space >= 0 ? floor + space + 1 : text.length;
}

/** The continuation without a leading stretch it repeats from the text before it. */
export function withoutRepeat(before: string, next: string): string {
  if (next.length < MIN_REPEAT || before.length < MIN_REPEAT) return next;
  const at = before.indexOf(next.slice(0, MIN_REPEAT));
  if (at < 0) return next;
  let k = MIN_REPEAT;
  while (k < next.length && at + k < before.length && before[at + k] === next[k]) k++;
  return next.slice(k).replace(/^\s+/, (s) => (/\s$/.test(before) ? '' : s));
}
