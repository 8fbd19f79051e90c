import { AsyncLocalStorage } from 'node:async_hooks';
import { isConnectionLoss } from '@/lib/db/connection-loss';
import type { CitationIndex } from '@/lib/channels/citations';
import { LexicalSimilarity, LEXICAL_WHY, type Similarity } from './similarity';
import { ModelCallError } from './errors';
import { renderMessages } from './messages';
import type { BackendDescription, CallRecorder, ModelBackend, ModelCallRecord, ModelRequest, ModelResult, RoleTemplate } from './types';

/** Calls a run makes at once unless configured (HOPSCOPE_MODEL_CONCURRENCY). */
export const DEFAULT_MODEL_CONCURRENCY = 8;

export type ModelCallOptions = Omit<ModelRequest, 'template' | 'input'> & {
  /** Records this call instead of the client's default recorder (the trace step that makes it). */
  recorder?: CallRecorder;
};

/**
 * The clients whose calls hold a slot where code runs, innermost first: a call made from within
 * one (EIGEN-1's monitor, asked while its generation streams) needs none, or a full limit would
 * deadlock. One storage for every client: Node 20 visits every AsyncLocalStorage ever entered on
 * each async resource created, so one per client (per run) slowed a worker with every run.
 */
interface HeldSlot {
  client: ModelClient;
  outer: HeldSlot | undefined;
}
const holdingSlot = new AsyncLocalStorage<HeldSlot>();

/**
 * What a method holds to talk to the model: any backend, plus the recorder the
 * trace layer passes in, so that every call, failed ones included, lands in the
 * trace exactly once without methods having to remember it.
 */
export class ModelClient {
  private readonly recorder: CallRecorder | null;
  private readonly citations: CitationIndex | null;
  /** Sim between texts for the methods' scores: the endpoint's embeddings, or a labelled lexical stand-in (the default). */
  readonly similarity: Similarity;
  /** The run's calls in flight at once, at most `concurrency` (independent calls of a method go out together up to it). */
  private readonly slots: Slots;
  /** Calls holding a slot whose request is not out yet (reading the response cache, being sent), and who waits for none to be. */
  private sending = 0;
  private readonly awaitingOut: (() => void)[] = [];

  constructor(
    readonly backend: ModelBackend,
    options: { recorder?: CallRecorder; citations?: CitationIndex; similarity?: Similarity; concurrency?: number } = {},
  ) {
    this.slots = new Slots(options.concurrency ?? DEFAULT_MODEL_CONCURRENCY);
    this.recorder = options.recorder ?? null;
    this.citations = options.citations ?? null;
    this.similarity = options.similarity ?? new LexicalSimilarity(backend.name === 'offline' ? LEXICAL_WHY.offline : LEXICAL_WHY.unconfigured);
  }

  /** Whether this code runs inside one of this client's calls that holds a slot. */
  private holdsSlot(): boolean {
    for (let at = holdingSlot.getStore(); at; at = at.outer) if (at.client === this) return true;
    return false;
  }

  describe(): BackendDescription {
    return this.backend.describe();
  }

  /**
   * Resolves once every call started so far (this turn of the event loop included) has its request out or has ended.
   * Work that needs no call's answer, done beside calls, waits for it: its CPU and database reads then run while the
   * model answers instead of holding back the requests. At once for the offline engine, whose calls are its own work.
   */
  async requestsOut(): Promise<void> {
    if (this.backend.name === 'offline') return;
    await new Promise((resolve) => setImmediate(resolve));
    if (this.sending) await new Promise<void>((resolve) => this.awaitingOut.push(resolve));
  }

  /** One call's request is out, or it ended without one: once none is left to go out, who waits is told. */
  private sent(): void {
    if (--this.sending > 0) return;
    for (const resolve of this.awaitingOut.splice(0)) resolve();
  }

  async call<I, O>(template: RoleTemplate<I, O>, input: I, callOptions: ModelCallOptions = {}): Promise<ModelResult<O>> {
    const { recorder: stepRecorder, ...options } = callOptions;
    const recorder = stepRecorder ?? this.recorder;
    const shown = new Map<string, string>();
    const cited = this.citations ? citing(template, this.citations, shown) : template;
    let result: ModelResult<O>;
    let startedAt = new Date();
    const send = async () => {
      startedAt = new Date();
      this.sending++;
      let out = false;
      const isOut = () => {
        if (out) return;
        out = true;
        this.sent();
      };
      const onRequest = options.onRequest ?? recorder?.sent;
      try {
        return await holdingSlot.run({ client: this, outer: holdingSlot.getStore() }, () =>
          this.backend.call({
            ...options,
            template: cited,
            input,
            onRequest: () => {
              isOut();
              onRequest?.();
            },
          }),
        );
      } finally {
        isOut();
      }
    };
    try {
      result = await (this.holdsSlot() ? send() : this.slots.run(send));
    } catch (err) {
      // The offline engine reads the graph: a lost database is the run's interruption, not a model failure.
      if (isConnectionLoss(err)) throw err;
      const error =
        err instanceof ModelCallError ? err : new ModelCallError('internal', err instanceof Error ? err.message : String(err), { backend: this.backend.name });
      await recorder?.(this.failureRecord(cited, input, options, error, startedAt));
      throw error;
    }
    if (this.citations) result = { ...result, parsed: this.citations.resolve(result.parsed, shown) };
    await recorder?.({
      role: template.role,
      template: template.id,
      templateVersion: template.version,
      backend: result.backend,
      model: result.model,
      messages: result.messages,
      output: this.citations && result.text ? this.citations.display(result.text) : result.text,
      parsed: result.parsed,
      tokensIn: result.tokensIn,
      tokensOut: result.tokensOut,
      tokensEstimated: result.tokensEstimated,
      latencyMs: result.latencyMs,
      startedAt,
      cached: result.cached,
      attempts: result.attempts,
      finishReason: result.finishReason,
      error: result.error ?? null,
    });
    return result;
  }

  private failureRecord<I>(template: RoleTemplate<I, unknown>, input: I, options: ModelCallOptions, error: ModelCallError, startedAt: Date): ModelCallRecord {
    const d = error.details;
    const described = this.backend.describe();
    return {
      role: template.role,
      template: template.id,
      templateVersion: template.version,
      backend: d.backend ?? this.backend.name,
      model: d.model ?? described.roleModels?.[template.role] ?? described.model,
      messages: d.messages ?? renderMessages(template, input, options.assistantPrefix),
      output: d.rawText ?? null,
      parsed: null,
      tokensIn: d.tokensIn ?? 0,
      tokensOut: d.tokensOut ?? 0,
      tokensEstimated: d.tokensEstimated ?? false,
      latencyMs: d.latencyMs ?? 0,
      startedAt,
      cached: false,
      attempts: d.attempts ?? 1,
      finishReason: null,
      error: `${error.kind}: ${error.message}`,
    };
  }
}

/** At most `limit` tasks at once; the others start in the order they asked. */
class Slots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await task();
    } finally {
      // A freed slot passes straight to the next waiter (the count stays), so no newcomer can take it first.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/** The template with record ids written as citation ids in its prompt; `shown` collects which record each id stood for. */
function citing<I, O>(template: RoleTemplate<I, O>, citations: CitationIndex, shown: Map<string, string>): RoleTemplate<I, O> {
  return {
    ...template,
    render: (input: I) => {
      const rewritten = citations.rewrite(template.render(input));
      for (const [cite, id] of rewritten.shown) if (!shown.has(cite)) shown.set(cite, id);
      return skipsNumbers([...rewritten.shown.keys()]) ? `${rewritten.text}\n\n${RUN_WIDE_IDS}` : rewritten.text;
    },
  };
}

/** Said where a prompt's ids skip numbers, which a model otherwise reads as facts left out (K18, K20, K23 → "K19 is missing"). */
export const RUN_WIDE_IDS =
  'Evidence ids are numbered across the whole run, so the numbers here skip: a skipped number is not a fact left out. ' +
  'A list is cut only where it says so ("showing n of m").';

/** Whether the citation ids of some channel are not exactly 1…n. */
function skipsNumbers(cites: string[]): boolean {
  const byPrefix = new Map<string, number[]>();
  for (const c of cites) {
    const m = /^([A-Z])(\d+)$/.exec(c);
    if (m) byPrefix.set(m[1], [...(byPrefix.get(m[1]) ?? []), Number(m[2])]);
  }
  return [...byPrefix.values()].some((ns) => Math.max(...ns) !== new Set(ns).size);
}
