import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { CallRecorder, ModelCallRecord } from '@/lib/llm/types';
import { CitationIndex } from '@/lib/channels/citations';
import { evidenceId, type Stored } from './codec';
import {
  emptyTrace,
  encodeStepJson,
  openTrace,
  runStatus,
  RunLeaseLostError,
  TraceWriter,
  type CallRow,
  type ResumeState,
  type RunEnd,
  type StepBody,
} from './store';
import { RecordMarks } from './recorded';
import { StepContractError, stepContractIssues, type StepKind, type StepOutput } from './step-schemas';
import type { EvidenceInput, EvidenceRecord, StepHandle } from './types';
import { errorMessage } from '@/lib/base/errors';
import { sameJson } from '@/lib/base/json';

/** Shorter strings are stored as they are (a reference would not be smaller). */
const MIN_REF_LENGTH = 16;
/** How often a running run's status is read for a cancellation, at most. */
const CANCEL_CHECK_MS = 250;

export class RunCancelledError extends Error {
  constructor() {
    super('The run was cancelled');
  }
}

export { RunLeaseLostError };

interface StepSpec<K extends StepKind = StepKind> {
  /** A kind of the step contract registry (lib/trace/step-schemas.ts). */
  kind: K;
  label: string;
  input?: unknown;
  parent?: StepHandle | null;
  /**
   * Stored, the step runs its function again on a resumed run, its children replaying their stored outputs, and
   * returns what the function returns: its own output need not hold what the method carries on from it.
   */
  replayChildren?: boolean;
}

/** A stored step a resumed run replays: succeeded (its output) or skipped. */
interface ReplayedStep {
  handle: StepHandle;
  status: 'succeeded' | 'skipped';
  input: unknown;
  output: unknown;
}

/** A step an earlier attempt of this run completed, as a resumed run finds it stored. */
export interface StoredStep {
  ordinal: number;
  input: unknown;
  output: unknown;
}

/** What a step collects while it runs; written with the step when it ends. */
interface OpenStep {
  evidence: EvidenceRecord[];
  selected: Set<string>;
  calls: Omit<CallRow, 'stepId'>[];
}

/**
 * The steps whose callbacks are running, innermost first, across every run of the process. One
 * storage for all runs: Node 20 keeps every AsyncLocalStorage ever entered and visits each of them
 * whenever an async resource is created, so one per run made a worker slower with every run it did.
 */
interface RunningStep {
  recorder: TraceRecorder;
  step: StepHandle;
  outer: RunningStep | undefined;
}
const runningSteps = new AsyncLocalStorage<RunningStep>();

/**
 * Records a run's trace as it happens, through the trace repository
 * (`./store`): when a step ends, its row with its output, the evidence it
 * retrieved (one compact pool), the rows of what was selected and its model
 * calls, in one write (a step still running after a moment is written as
 * running first). Writes go out in order, one statement for all that is waiting.
 *
 * Durability: every write goes out in order. In a run's executor (`everyStepWaits` false) no step waits
 * for its write or for the cancellation check's status read, with a model or without: each would add a database
 * round trip (tens of milliseconds under load) to the run's critical path. With a slow model (a real endpoint) a step's write is sent when it ends,
 * so it is stored while the next model call is in flight; a crash loses at most the writes in flight, and the
 * resumed run makes those steps again (their deterministic calls answered by the response cache, which stores
 * an answer as it arrives). With the offline engine writes are held and go, with all others waiting, within
 * START_WRITE_MS (./store) or at the run's flush or seal, which the run awaits before its end is stored.
 * A write that failed fails the run at its next step or flush; `everyStepWaits` (the default elsewhere)
 * makes every step wait for its write.
 *
 * Resuming: a recorder opened on a run that already has succeeded steps replays
 * them: a step whose key (its position in the method's control flow) matches a
 * stored succeeded step returns the stored output instead of running again. Step
 * functions must therefore return JSON-serialisable values. A step marked `replayChildren` runs its function
 * again instead, each of its stored children replaying, so it returns what the function computes from them.
 */
export class TraceRecorder {
  private nextStep = 0;
  private nextEvidence = 0;
  private nextCall = 0;
  private occurrences = new Map<string, number>();
  private lastCancelCheck: number;
  /** The first trace write that failed (written behind a step): the run fails at its next step or flush. */
  private writeFailure: unknown = null;
  /** The run was found cancelled (by a status read behind a step): the next step stops it. */
  private cancelled = false;
  private readonly open = new Map<string, OpenStep>();
  /** Every evidence record of the run by id, and the same objects by identity (step inputs and outputs store references to them). */
  private readonly records = new Map<string, EvidenceRecord>();
  private readonly recordObjects = new Set<object>();
  /** The records this recorder made, and which a step contract checked (each is checked once). */
  private readonly marks = new RecordMarks();
  /** Retrieved evidence (KG, passages, web records) by reference: retrieved again, it is the record first made of it (`sameRetrieval`). */
  private readonly retrieved = new Map<string, EvidenceRecord[]>();
  /** Ids and texts of stored records: copies of them in step inputs and outputs are stored as references. */
  private readonly strings = new Map<string, { $id: number } | { $tx: number }>();
  private readonly stored: Stored = {
    ordinalOf: (v) => (this.recordObjects.has(v) ? (v as EvidenceRecord).ordinal : undefined),
    stringRef: (s) => (s.length >= MIN_REF_LENGTH ? this.strings.get(s) : undefined),
  };
  private readonly selectedIds: Set<string>;
  private readonly writer: TraceWriter;
  /** The run's citation ids, one per distinct fact, in evidence order. */
  readonly citations = new CitationIndex();

  private constructor(
    readonly runId: string,
    private readonly replay: Map<string, ReplayedStep>,
    state: ResumeState,
    /** Whether this worker still holds the run (its heartbeat says); checked between steps. */
    private readonly stillOwned: () => boolean,
    /** A step output that breaks its kind's contract fails the step (and the run) instead of being recorded with a flag. */
    private readonly strictContracts: boolean,
    /**
     * Model calls take a while (a real endpoint): a step that makes one is written as running at once, not after START_WRITE_MS,
     * writes go out when made, and a step that made calls waits for its end's. Otherwise (the offline engine) writes are held.
     */
    private readonly slowModel: boolean,
    /** When the run's status was last read (its claim): the first cancellation check is due CANCEL_CHECK_MS after it. */
    statusReadAt: number,
    /** The claiming attempt every write is conditional on (./store TraceWriter); null: unconditional. */
    lease: number | null,
    /** With a slow model, every step waits for its write (false: none does). */
    private readonly everyStepWaits: boolean,
  ) {
    this.lastCancelCheck = statusReadAt;
    const records = [...state.records.values()].sort((a, b) => a.ordinal - b.ordinal);
    for (const r of records) {
      this.remember(r);
      if (!this.known(r)) this.retrieve(r);
    }
    this.citations.register(records);
    this.selectedIds = state.selectedIds;
    this.nextStep = state.nextStep;
    this.nextEvidence = state.nextEvidence;
    this.nextCall = state.nextCall;
    this.writer = new TraceWriter(runId, !slowModel, lease, slowModel && !everyStepWaits);
  }

  /**
   * Opens the trace of a run; on a resumed run, marks interrupted steps and
   * prepares replay. `fresh`: the run has no trace yet. `strictContracts`
   * (default: under test, so tests fail loudly): a contract breach fails the step.
   * `slowModel` (default true; false for the offline engine): a step that calls
   * the model is written as running when the call is made, writes go out when
   * made, and a step waits for its write (false: all are held and grouped);
   * with `everyStepWaits` false (a run's executor) none waits: its write is
   * sent behind. `statusReadAt`: when the
   * caller last read the run's status (a claim), so cancellation is not read
   * again at once. `lease`: the attempt that claimed the run; every write is
   * conditional on it, so a worker taken over writes nothing more.
   */
  static async open(
    runId: string,
    opts: {
      fresh?: boolean;
      stillOwned?: () => boolean;
      strictContracts?: boolean;
      slowModel?: boolean;
      statusReadAt?: number;
      lease?: number;
      everyStepWaits?: boolean;
    } = {},
  ): Promise<TraceRecorder> {
    const state = opts.fresh ? emptyTrace() : await openTrace(runId);
    const replay = new Map<string, ReplayedStep>();
    for (const s of state.steps) {
      if (!s.key || (s.status !== 'succeeded' && s.status !== 'skipped')) continue;
      const handle: StepHandle = { id: s.id, ordinal: s.ordinal, kind: s.kind, label: s.label, key: s.key };
      replay.set(s.key, { handle, status: s.status, input: s.input, output: s.output });
    }
    return new TraceRecorder(
      runId,
      replay,
      state,
      opts.stillOwned ?? (() => true),
      opts.strictContracts ?? process.env.NODE_ENV === 'test',
      opts.slowModel ?? true,
      opts.statusReadAt ?? -Infinity,
      opts.lease ?? null,
      opts.everyStepWaits ?? true,
    );
  }

  /**
   * The steps of `kind` an earlier attempt of this run completed (none on a fresh run): a resumed run gives back a
   * completed parent's output without running it, so what its children did is read here, not seen again.
   */
  storedSteps(kind: StepKind): StoredStep[] {
    return [...this.replay.values()]
      .filter((s) => s.status === 'succeeded' && s.handle.kind === kind)
      .map((s) => ({ ordinal: s.handle.ordinal, input: s.input, output: s.output }));
  }

  /** The step of this run whose callback is running (through every await inside it), for records made below a method's view, such as embedding requests. */
  currentStep(): StepHandle | null {
    for (let at = runningSteps.getStore(); at; at = at.outer) if (at.recorder === this) return at.step;
    return null;
  }

  /**
   * Runs one stage of a method as a recorded step; its return value is the
   * step's output, of a type its kind's contract allows. An output that still
   * breaks the contract at run time (a value the types could not see) fails
   * the step under test; elsewhere the step is recorded as it is, flagged with
   * the contract issue, so a run is never lost to it.
   */
  async step<K extends StepKind, T extends StepOutput<K>>(spec: StepSpec<K>, fn: (step: StepHandle) => Promise<T>): Promise<T> {
    const key = this.keyFor(spec);
    const stored = this.replay.get(key);
    if (stored?.status === 'succeeded') {
      if (!spec.replayChildren) return stored.output as T;
      return runningSteps.run({ recorder: this, step: stored.handle, outer: runningSteps.getStore() }, () => fn(stored.handle));
    }
    // The ordinal is taken before anything is awaited, so steps started together keep their order.
    const ordinal = this.nextStep++;
    await this.throwIfCancelled();
    const startedAt = new Date();
    const id = randomUUID();
    this.writer.add({
      id,
      ordinal,
      parentStepId: spec.parent?.id ?? null,
      kind: spec.kind,
      label: spec.label,
      status: 'running',
      input: this.encode({ ...(isPlainObject(spec.input) ? spec.input : { value: spec.input }), __key: key }),
      startedAt,
    });
    const handle: StepHandle = { id, ordinal, kind: spec.kind, label: spec.label, key };
    const open: OpenStep = { evidence: [], selected: new Set(), calls: [] };
    this.open.set(id, open);
    let status: 'succeeded' | 'failed' = 'failed';
    let output: unknown;
    try {
      output = await runningSteps.run({ recorder: this, step: handle, outer: runningSteps.getStore() }, () => fn(handle));
      // Strict, a breach fails the step here; otherwise the output is checked with its write (`ended`).
      const issue = this.strictContracts ? stepContractIssues(spec.kind, output, undefined, this.marks) : null;
      if (issue) throw new StepContractError(spec.kind, issue);
      status = 'succeeded';
      return output as T;
    } catch (error) {
      output = { error: errorMessage(error) };
      throw error;
    } finally {
      this.open.delete(id);
      const kept = open.evidence;
      for (const r of kept) this.remember(r);
      const selected = kept.filter((r) => r.selected || open.selected.has(r.id));
      for (const r of selected) this.selectedIds.add(r.id);
      await this.written(
        this.writer.end({
          stepId: id,
          status,
          body: this.ended(spec.kind, ordinal, status === 'succeeded', output),
          durationMs: Date.now() - startedAt.getTime(),
          pool: kept,
          selected,
          calls: open.calls,
        }),
      );
    }
  }

  /**
   * A step's output as its write stores it: encoded, and checked by its kind's contract unless the step already was
   * (strict). A model run's writes wait for the next call's request (`TraceWriter` holdWrites), and so does this work:
   * it runs while that call is in flight, not between the calls. A method never changes an output it returned; under
   * strict contracts (tests) one that changed before its write fails the write. Otherwise (the offline engine, every
   * step waiting) it is done at once: there is no call to hide it behind, and held until a later write an offline
   * EIGEN-1 run spent more CPU (172 → 200 ms a run, p50 of 15).
   */
  private ended(kind: StepKind, ordinal: number, succeeded: boolean, output: unknown): () => StepBody {
    const body = (): StepBody => {
      const contractIssue = succeeded && !this.strictContracts ? stepContractIssues(kind, output, undefined, this.marks) : null;
      if (contractIssue) console.warn(`[trace] run ${this.runId}, step ${ordinal}: ${new StepContractError(kind, contractIssue).message}`);
      return { output: this.encode(output), contractIssue };
    };
    if (!this.slowModel || this.everyStepWaits) {
      const now = body();
      return () => now;
    }
    const returned = this.strictContracts ? JSON.stringify(output) : null;
    return () => {
      if (returned !== null && JSON.stringify(output) !== returned) throw new Error(`step ${ordinal} (${kind}): its output changed after the step returned`);
      return body();
    };
  }

  /** A step that did not run, with the reason (a switched-off channel, a budget reached); written with the next write. */
  async skipped(spec: StepSpec, reason: string): Promise<void> {
    const key = this.keyFor(spec);
    if (this.replay.has(key)) return; // stored as skipped (or as run): written once
    this.writer.add({
      id: randomUUID(),
      ordinal: this.nextStep++,
      parentStepId: spec.parent?.id ?? null,
      kind: spec.kind,
      label: spec.label,
      status: 'skipped',
      input: this.encode({ ...(isPlainObject(spec.input) ? spec.input : {}), __key: key }),
      output: JSON.stringify({ reason }),
      durationMs: 0,
      startedAt: new Date(),
    });
  }

  /** Evidence a step retrieved; stored with the step when it ends (outside a running step: at once, as rows). */
  async addEvidence(step: StepHandle | null, items: EvidenceInput[]): Promise<EvidenceRecord[]> {
    if (!items.length) return [];
    // A passage or web record the run retrieved before (a later round, another query), or a KG record identical to one it
    // retrieved before, is recorded once: later steps refer to that record.
    const records: EvidenceRecord[] = [];
    const reselected: string[] = [];
    const returned = items.map((item): EvidenceRecord => {
      const known = this.known(item);
      if (known) {
        if (item.selected) reselected.push(known.id);
        return known;
      }
      const ordinal = this.nextEvidence++;
      // Evidence ids follow from the run and the ordinal (stored pools leave them out). Object.assign, not a spread: the
      // same record, made ~10 times faster on Node 20 (a spread followed by more fields: ~2–7 µs a record, hundreds a run).
      const record: EvidenceRecord = Object.assign({}, item, {
        id: evidenceId(this.runId, ordinal),
        ordinal,
        stepId: step?.id ?? null,
        selected: (item.selected ?? false) && selectable(item),
      });
      this.marks.madeRecord(record);
      this.retrieve(record);
      records.push(record);
      return record;
    });
    if (reselected.length) await this.markSelected(reselected);
    if (!records.length) return returned;
    this.citations.register(records);
    const open = step && this.open.get(step.id);
    if (open) {
      open.evidence.push(...records);
    } else {
      for (const r of records) this.remember(r);
      for (const r of records) if (r.selected) this.selectedIds.add(r.id);
      await this.written(this.writer.rows(records));
    }
    return returned;
  }

  /**
   * Marks evidence the method chose to use (shown to the model or rule that answered).
   * A passage admitted by score alone shares no entity with the question and is never selected.
   */
  async markSelected(ids: string[]): Promise<void> {
    const later: EvidenceRecord[] = [];
    for (const id of ids) {
      if (this.selectedIds.has(id)) continue;
      const pending = [...this.open.values()].find((o) => o.evidence.some((r) => r.id === id));
      const record = pending?.evidence.find((r) => r.id === id) ?? this.records.get(id);
      if (record && !selectable(record)) continue;
      if (pending) pending.selected.add(id);
      else if (this.records.has(id)) {
        later.push(this.records.get(id)!);
        this.selectedIds.add(id);
      }
    }
    await this.written(this.writer.rows(later.map((r) => ({ ...r, selected: true }))));
  }

  /** The model-call hook for calls made inside `step` (written with the step). */
  callRecorder(step: StepHandle | null): CallRecorder {
    const recorder: CallRecorder = async (record: ModelCallRecord) => {
      const call = { ...record, ordinal: this.nextCall++ };
      const open = step && this.open.get(step.id);
      if (open) open.calls.push(call);
      else await this.written(this.writer.calls([{ ...call, stepId: step?.id ?? null }]));
    };
    // Once the call's request is out, what is held is written (the step as running among it): a crash while the model
    // answers then finds the step running, and building the statement does not delay the request.
    if (this.slowModel && step && this.open.has(step.id)) recorder.sent = () => void this.writer.flush().catch(() => undefined);
    return recorder;
  }

  /** The record the run made of what `item` is (`sameRetrieval`), if any. */
  private known(item: EvidenceInput): EvidenceRecord | undefined {
    const same = this.retrieved.get(item.ref);
    if (same) for (const r of same) if (sameRetrieval(r, item)) return r;
    return undefined;
  }

  /** A record later retrievals of the same evidence are (only retrieved channels' records: `sameRetrieval`). */
  private retrieve(record: EvidenceRecord): void {
    if (!deduplicated(record)) return;
    const same = this.retrieved.get(record.ref);
    if (same) same.push(record);
    else this.retrieved.set(record.ref, [record]);
  }

  /** Key = parent key + kind + label + how many times that triple occurred before. */
  private keyFor(spec: StepSpec): string {
    const base = `${spec.parent?.key ?? ''}/${spec.kind}:${spec.label}`;
    const n = this.occurrences.get(base) ?? 0;
    this.occurrences.set(base, n + 1);
    return `${base}#${n}`;
  }

  /** A record of the run's trace (one retrieved again is known by its retrieval key from when it was made or read back). */
  private remember(record: EvidenceRecord) {
    this.records.set(record.id, record);
    this.recordObjects.add(record);
    this.strings.set(record.id, { $id: record.ordinal });
    if (record.text.length >= MIN_REF_LENGTH && !this.strings.has(record.text)) this.strings.set(record.text, { $tx: record.ordinal });
  }

  /** Writes what is still unwritten (skipped steps, rows of running ones, writes sent behind): before the run's end is stored. */
  async flush(): Promise<void> {
    await this.writer.flush();
    if (this.writeFailure) throw this.writeFailure;
  }

  /**
   * With a slow model and `everyStepWaits`, every write is waited for. Otherwise writes are sent behind (at once
   * with a slow model, held briefly with the offline engine), so the steps between a run's model calls add no
   * database round trip to its critical path. A write sent behind that failed fails the run at its next step or flush.
   */
  private async written(write: Promise<void>): Promise<void> {
    if (this.slowModel && this.everyStepWaits) return write;
    write.catch((error) => {
      this.writeFailure ??= error;
    });
  }

  /**
   * When the run has ended: what is held written, the run's trace packed and, given, the run's end stored, in one
   * statement (./store TraceWriter.seal); a trace write that failed before fails the seal, and the end is not stored.
   * With a slow model the bodies are already in their rows: the end goes with the last of them, and the pack follows
   * it behind (./store TraceWriter.endRun): the end is stored without waiting for the pack's deflate and the rows it clears.
   */
  async seal(runEnd?: RunEnd): Promise<void> {
    await (runEnd && this.slowModel ? this.writer.endRun(runEnd) : this.writer.seal(runEnd));
    if (this.writeFailure) throw this.writeFailure;
  }

  /** A step's input or output as stored: evidence records already in the trace become references. */
  private encode(value: unknown): string | null {
    return encodeStepJson(value, this.stored);
  }

  private async throwIfCancelled() {
    if (this.writeFailure) throw this.writeFailure;
    if (!this.stillOwned()) throw new RunLeaseLostError();
    if (this.cancelled) throw new RunCancelledError();
    // At most one status read every CANCEL_CHECK_MS: cancellation is checked between steps, cheaply.
    const now = Date.now();
    if (now - this.lastCancelCheck < CANCEL_CHECK_MS) return;
    this.lastCancelCheck = now;
    const read = runStatus(this.runId).then((status) => {
      if (status === 'cancelled') this.cancelled = true;
    });
    // In a run's executor (no step waiting, with a model or the offline engine) the status is read behind, not on the
    // critical path: a cancellation stops the first step after the read returns (a failed read is tried again at the
    // next check). Awaited, it put a round trip between steps every CANCEL_CHECK_MS (EIGEN-1's offline runs: 1–3 a run).
    if (!this.everyStepWaits) return void read.catch(() => undefined);
    await read;
    if (this.cancelled) throw new RunCancelledError();
  }
}

/**
 * Whether `item` is the evidence `known` is (the same reference, looked up first). A passage or web record: the same
 * channel, kind, text, and whether it may be selected (a withheld passage shown later is a new record). A KG record: all
 * of it, data and scores as their JSON (EIGEN-1's retrievals read the same neighbourhoods again and again, ≈ 5 of 6 of its
 * KG records: each is recorded, checked and stored once). Other evidence is never the same. Compared field by field: a
 * key text made of the fields per record (its JSON) was a tenth of a KG step's CPU.
 */
function sameRetrieval(known: EvidenceInput, item: EvidenceInput): boolean {
  if (known.channel !== item.channel || known.kind !== item.kind || known.ref !== item.ref || known.text !== item.text || !deduplicated(item)) return false;
  if (item.channel === 'kg') return sameJson(known.data ?? null, item.data ?? null) && sameJson(known.scores ?? null, item.scores ?? null);
  return selectable(known) === selectable(item);
}

/** Evidence a run records once however often it is retrieved: KG records, passages and web records. */
function deduplicated(r: EvidenceInput): boolean {
  return r.channel === 'kg' || r.channel === 'doc' || r.channel === 'web';
}

/** A passage retrieved by score alone shares no entity with the question: it may be recorded, never selected. */
function selectable(r: Pick<EvidenceInput, 'channel' | 'data'>): boolean {
  return !(r.channel === 'doc' && isPlainObject(r.data) && r.data.relevance === 'score');
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
