import { setImmediate as nextTurn } from 'node:timers/promises';
import { z } from 'zod';
import { getPool, sendBehind } from '@/lib/db/client';
import { errorMessage } from '@/lib/base/errors';
import { Channel, RunStatus, StepStatus } from '@/lib/db/generated/enums';
import { prepared, queryRow, queryRows } from '@/lib/db/rows';
import type { ModelCallRecord } from '@/lib/llm/types';
import {
  evidenceId,
  packBodies,
  packMessages,
  packText,
  storedText,
  unpack,
  unpackBodies,
  unpackMessages,
  type CallTexts,
  type LineAt,
  type Pack,
  type Stored,
  type StepTexts,
} from './codec';
import { EVIDENCE_KINDS, type ChannelName, type EvidenceRecord } from './types';

/**
 * The trace repository: every read and write of steps, evidence and model calls
 * goes through here (the recorder writes, the run views read).
 *
 * Storage, compactly:
 * - everything a step retrieved is one record on the step (`steps.evidence_pool`,
 *   a table in the stored form of ./codec), not one row per candidate;
 * - evidence a method selected (used in a prompt or rule) is also a row of
 *   `evidence`, which is what "the evidence of a run" means to queries; a row
 *   whose record is in a pool names it (step, ordinal, channel, kind, ref) and
 *   leaves its text, data and scores to the pool;
 * - step inputs and outputs are stored packed (./codec): evidence records the
 *   run already stored become references, tables keep field names once, large
 *   values are compressed;
 * - a model call's prompt lines that an earlier call of the run stored are
 *   references to them (./codec packMessages), and its parsed output, when it
 *   is just its output text read as JSON, is a marker;
 * - a step is written when it ends, with its output, its pool, its selected
 *   evidence and its model calls, in one statement shared with whatever else
 *   of the run is waiting (TraceWriter); a step still running after a moment
 *   is written as `running` first, so a crash leaves it marked interrupted;
 * - when the run ends, the bodies its writer stored (step inputs, outputs and
 *   pools, call messages and outputs) move into one pack deflated together
 *   (`trace_packs`, ./codec packBodies): the rows keep their place, status and
 *   timing, their bodies are read back from the pack (`readTrace`, `readCalls`).
 */

export type { StepStatus };

/** Where a step stands in its run's tree, and how it went: what a stored step and a written row share. */
export interface StepPlace {
  id: string;
  ordinal: number;
  parentStepId: string | null;
  kind: string;
  label: string;
  status: StepStatus;
}

export interface StoredStep extends StepPlace {
  /** With evidence references expanded. */
  input: unknown;
  output: unknown;
  startedAt: Date;
  durationMs: number | null;
  /** The recorded output broke its kind's contract (lib/trace/step-schemas.ts): the issues; null when it fits. */
  contractIssue: string | null;
}

/** An evidence record as the run's trace holds it: everything retrieved, `selected` when a method used it. */
export interface StoredEvidence {
  id: string;
  ordinal: number;
  stepId: string | null;
  channel: ChannelName;
  kind: string;
  ref: string;
  text: string;
  data: unknown;
  scores: Record<string, number | null> | null;
  selected: boolean;
}

/** A step's input or output as stored, its packed JSON text (what this run already stored becomes references); null for none. */
export function encodeStepJson(value: unknown, stored: Stored): string | null {
  return value === undefined || value === null ? null : packText(value, stored);
}

// ---------------------------------------------------------------- writes

/** A step's row as first written: running, or complete when the step ended (or was skipped) before its row was written. */
export interface StepRow extends StepPlace {
  /** Packed JSON text (encodeStepJson). */
  input: string | null;
  output?: string | null;
  durationMs?: number;
  contractIssue?: string | null;
  startedAt: Date;
}

export interface CallRow extends ModelCallRecord {
  ordinal: number;
  stepId: string | null;
}

/** A step's output as stored. */
export interface StepBody {
  /** Packed JSON text (encodeStepJson). */
  output: string | null;
  /** The output broke its kind's contract: the issues, kept with the step (null: it fits). */
  contractIssue: string | null;
}

/** How a step ended: status, output and duration; the evidence it retrieved (its pool), the rows of what was selected, its model calls. */
export interface StepEnd {
  stepId: string;
  status: 'succeeded' | 'failed';
  /**
   * Its output as stored, made when its write is built: a model run's writes wait for the next call's request
   * (`holdWrites`), so encoding and checking the output take none of the time between its calls. May throw: the write
   * then fails (and the run with it).
   */
  body(): StepBody;
  durationMs: number;
  pool: EvidenceRecord[];
  selected: EvidenceRecord[];
  calls: Omit<CallRow, 'stepId'>[];
}

/**
 * A run's end, stored by its trace's last write (`TraceWriter.seal`) in the same statement: an `update runs …`, given
 * the run's steps and model calls as that statement leaves them (`trace`: relations with the columns of `steps` and
 * `model_calls` a run's cost reads: id, kind, duration_ms, ordinal; step_id, cached, tokens_in, tokens_out) and the
 * names of its parameters (`param(i)` for `params[i]`). Written only if every earlier write of the trace was stored.
 */
export interface RunEnd {
  sql(trace: { steps: string; calls: string }, param: (i: number) => string): string;
  params: unknown[];
}

/** The run was taken over by another worker (this one was presumed dead): stop without writing anything more. */
export class RunLeaseLostError extends Error {
  constructor() {
    super('Another worker took this run over');
  }
}

/**
 * A step still running after this long gets its `running` row (a crash then shows it interrupted); quicker steps (most offline ones, even
 * on a loaded machine) are written once, when they end. Writes held back (`behind`) wait at most this long too.
 */
const START_WRITE_MS = 200;

/**
 * The writes of one run's trace, grouped: one statement writes every step row
 * not yet written (started steps, skipped ones) together with the ends that
 * are waiting, so a step costs one round trip, and steps that end together
 * (parallel proposers) share one. A write resolves only once it is stored.
 *
 * `behind` (the offline engine, whose steps take milliseconds): writes are
 * not sent as they come but held, and all that waits goes in one statement at
 * the next `flush` or START_WRITE_MS after the first was held, whichever is
 * first; statements still go out in order. Each such statement packs what it
 * writes (as `seal` does): the bodies of a run that outlives START_WRITE_MS go
 * into a pack per statement, each stored once, not first into rows (each
 * body deflated on its own) and at the seal into the pack again with the rows
 * cleared. Readers merge a run's packs (`readPacks`).
 */
export class TraceWriter {
  /** Step rows not written yet, in ordinal order. */
  private readonly unwritten = new Map<string, StepRow>();
  private waiting: {
    end: StepEnd | null;
    calls: CallRow[];
    rows: EvidenceRecord[];
    seal: boolean;
    runEnd?: RunEnd;
    resolve(): void;
    reject(e: unknown): void;
  }[] = [];
  /** Where the run's prompt lines are stored in full (./codec packMessages): later calls refer to them. */
  private readonly lines = new Map<string, LineAt>();
  /** What this writer stored, for the run's pack: step bodies by ordinal (and whether the step has ended), call bodies by ordinal. */
  private stepTexts = new Map<number, StepTexts & { ended: boolean }>();
  private callTexts = new Map<number, CallTexts & { chars: [number, number] }>();
  private readonly ordinals = new Map<string, number>();
  /** Ids of the records this writer stored in pools: their `evidence` rows need not repeat them. */
  private readonly pooled = new Set<string>();
  private chain: Promise<void> = Promise.resolve();
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Set once a write found the lease gone: nothing more is sent. */
  private lost = false;
  /** Set once a write failed: the run's end is not stored with a later one (the run fails). */
  private failed = false;
  /** Set once the run's end is stored: a later write (the pack) holds while the run is still this attempt's, ended. */
  private ended = false;

  /**
   * `lease`: the attempt that claimed the run (runs.attempts). Every statement
   * writes only while the run is still `running` under that attempt, holding
   * the run's row while it writes, so a worker that was taken over (stalled,
   * presumed dead) writes nothing more; the first write that finds the lease
   * gone rejects with RunLeaseLostError, and so does every later one. Null:
   * unconditional (a trace written outside any claim).
   */
  constructor(
    readonly runId: string,
    private readonly behind = false,
    private readonly lease: number | null = null,
    /**
     * For a writer whose steps do not wait for their writes (a model run's): a write waits for the next flush (sent once a
     * model call's request is out), the run's end, or START_WRITE_MS, whichever is first. What a run writes between two
     * calls is then built while the next call is in flight, not before its request, and the last step's end goes in the
     * statement that stores the run's end: one round trip after the run's last call, not two.
     */
    private readonly holdWrites = false,
  ) {}

  /** A started (or skipped) step: its row goes with the next write, or on its own after START_WRITE_MS. */
  add(row: StepRow): void {
    this.unwritten.set(row.id, row);
    this.ordinals.set(row.id, row.ordinal);
    this.soon();
  }

  /** A flush START_WRITE_MS from the first write held (unreferenced: a trace write is never a reason to keep a process alive). */
  private soon(): void {
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.flush().catch(() => undefined);
    }, START_WRITE_MS).unref();
  }

  /** Stores a step's end (and every row still unwritten); resolves once it is stored. */
  end(end: StepEnd): Promise<void> {
    return this.write(end);
  }

  /** Stores every row still unwritten and every write held. */
  flush(): Promise<void> {
    return this.write(null, [], [], true);
  }

  /** Stores model calls made outside any running step (with every row still unwritten). */
  calls(calls: CallRow[]): Promise<void> {
    return this.write(null, calls);
  }

  /** Stores evidence rows: records selected after their step ended, or recorded outside a running step. */
  rows(records: EvidenceRecord[]): Promise<void> {
    return records.length ? this.write(null, [], records) : Promise.resolve();
  }

  /**
   * Everything still waiting, written in one statement that also moves the
   * bodies of every step that has ended, and of every call, into one pack of
   * the run (./codec packBodies): rows written now go in without their bodies,
   * rows written before are cleared. A step still running keeps its row as it
   * is. `runEnd`: the run's end, stored by the
   * same statement unless an earlier write failed. Rejects like any write.
   */
  seal(runEnd?: RunEnd): Promise<void> {
    return this.write(null, [], [], true, true, runEnd);
  }

  /**
   * The run's end with everything still waiting, in one statement, and then its pack in a statement of its own, sent
   * behind (`sendBehind`: closing the database waits for it). For a writer whose bodies are already stored in their
   * rows (not `behind`: a slow model's writes go out as they come), so the trace is complete in its rows when the end is
   * stored: the pack then only moves those bodies into one deflated pack (readers take either), off the path from
   * the run's last call to its end. Resolves once the end is stored; rejects like `seal`.
   */
  async endRun(runEnd: RunEnd): Promise<void> {
    await this.write(null, [], [], true, false, runEnd);
    if (this.failed) return;
    // Begun on the event loop's next turn: the pack's making (every body of the run encoded into one buffer) would
    // otherwise run before the end is reported, and a run's end is what its caller waits for.
    sendBehind(
      nextTurn()
        .then(() => this.seal())
        .catch((error) => {
          // A run deleted meanwhile keeps nothing to pack; any other failure leaves the bodies in their rows.
          if (!(error instanceof RunLeaseLostError)) console.warn(`[trace] ${this.runId}: the ended run's pack was not stored: ${errorMessage(error)}`);
        }),
    );
  }

  private write(end: StepEnd | null, calls: CallRow[] = [], rows: EvidenceRecord[] = [], now = !this.behind, seal = false, runEnd?: RunEnd): Promise<void> {
    if (this.lost) return Promise.reject(new RunLeaseLostError());
    return new Promise((resolve, reject) => {
      this.waiting.push({ end, calls, rows, seal, runEnd, resolve, reject });
      // A flush (nothing of its own to write), a seal and the run's end are never held.
      const held = !now || (this.holdWrites && !seal && !runEnd && (end !== null || calls.length > 0 || rows.length > 0));
      if (held) this.soon();
      else this.chain = this.chain.then(() => this.drain());
    });
  }

  /**
   * One statement for everything waiting (and, when a seal waits among it or the writes are held, a pack); writes
   * queued while it runs go together in the next. A seal is part of its batch: an earlier drain that takes it seals.
   */
  private async drain(): Promise<void> {
    const batch = this.waiting;
    this.waiting = [];
    if (!batch.length) return;
    const seal = this.behind || batch.some((b) => b.seal);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const rows = [...this.unwritten.values()];
    this.unwritten.clear();
    let ends: EndedStep[];
    try {
      ends = batch.flatMap(({ end }) => (end ? [ended(end)] : []));
    } catch (error) {
      this.failBatch(batch, rows, new Set(), error);
      return;
    }
    const endOf = new Map(ends.map((e) => [e.stepId, e]));
    const added = new Map<string, LineAt>();
    const calls = [...ends.flatMap((e) => e.calls.map((c) => ({ ...c, stepId: e.stepId }))), ...batch.flatMap((b) => b.calls)]
      .sort((a, b) => a.ordinal - b.ordinal)
      .map((c): PackedCall => {
        const texts = {
          messages: JSON.stringify(packMessages(c.messages, c.ordinal, this.lines, added)),
          output: c.output,
          parsed: storedParsed(c.parsed, c.output),
        };
        return {
          ...c,
          texts,
          chars: [c.messages.reduce((n, m) => n + (typeof m.content === 'string' ? charCount(m.content) : 0), 0), c.output === null ? 0 : charCount(c.output)],
        };
      });
    const newRows = rows.map((r): WrittenRow => {
      const e = endOf.get(r.id);
      const row = e ? { ...r, status: e.status, output: e.output, durationMs: e.durationMs, contractIssue: e.contractIssue } : r;
      return { ...row, texts: { input: row.input, output: row.output ?? null, pool: e?.pool.length ? poolText(e.pool) : null } };
    });
    const rowIds = new Set(rows.map((r) => r.id));
    const updates = ends
      .filter((e) => !rowIds.has(e.stepId))
      .map((e): WrittenEnd => ({
        ...e,
        ordinal: this.ordinals.get(e.stepId),
        texts: { output: e.output, pool: e.pool.length ? poolText(e.pool) : null },
      }));
    const pooledNow = new Set(ends.flatMap((e) => e.pool.map((r) => r.id)));
    const inPool = (id: string) => this.pooled.has(id) || pooledNow.has(id);
    // What the run's stored bodies are once this statement is in: the rows written before, with what it adds.
    const stepTexts = new Map(this.stepTexts);
    for (const r of newRows) stepTexts.set(r.ordinal, { ...r.texts, ended: r.status !== 'running' });
    for (const e of updates) {
      const written = e.ordinal === undefined ? undefined : stepTexts.get(e.ordinal);
      if (written) stepTexts.set(e.ordinal!, { ...written, ...e.texts, ended: true });
    }
    const callTexts = new Map(this.callTexts);
    for (const c of calls) callTexts.set(c.ordinal, { ...c.texts, chars: c.chars });
    try {
      const pack = seal
        ? runPack(
            stepTexts,
            callTexts,
            this.stepTexts,
            this.callTexts,
            updates.map((e) => e.ordinal),
          )
        : null;
      if (this.lost) throw new RunLeaseLostError();
      const runEnd = this.failed ? null : (batch.find((b) => b.runEnd)?.runEnd ?? null);
      await writeSteps(
        this.runId,
        { attempt: this.lease, ended: this.ended },
        newRows,
        updates,
        evidenceRows([...ends.flatMap((e) => e.selected.map((r) => ({ ...r, selected: true }))), ...batch.flatMap((b) => b.rows)]).map((r) =>
          inPool(r.id) ? poolReference(r) : r,
        ),
        calls,
        pack,
        // A trace with a write missing is not a finished run's: the seal rejects with that write's error (TraceRecorder.seal).
        runEnd,
      );
      if (runEnd) this.ended = true;
      for (const id of pooledNow) this.pooled.add(id);
      for (const [line, at] of added) this.lines.set(line, at);
      for (const o of pack?.steps ?? []) stepTexts.delete(o);
      if (pack) callTexts.clear();
      this.stepTexts = stepTexts;
      this.callTexts = callTexts;
      for (const b of batch) b.resolve();
    } catch (error) {
      this.failBatch(batch, rows, new Set(endOf.keys()), error);
    }
  }

  /** A batch not written: the trace has failed, every writer in it hears why, and rows of steps still running are tried again with the next write. */
  private failBatch(batch: TraceWriter['waiting'], rows: StepRow[], ended: ReadonlySet<string>, error: unknown): void {
    if (error instanceof RunLeaseLostError) this.lost = true;
    this.failed = true;
    for (const r of rows) if (!ended.has(r.id) && !this.unwritten.has(r.id)) this.unwritten.set(r.id, r);
    for (const b of batch) b.reject(error);
  }
}

/** A step row to write, its bodies as JSON texts. */
type WrittenRow = StepRow & { texts: StepTexts };
type EndedStep = Omit<StepEnd, 'body'> & StepBody;
type WrittenEnd = EndedStep & { ordinal: number | undefined; texts: Omit<StepTexts, 'input'> };

function ended({ body, ...end }: StepEnd): EndedStep {
  return { ...end, ...body() };
}

const Held = z.object({ held: z.boolean(), ended: z.boolean().optional() });

/**
 * The run's end in the trace's statement (parameters from $`first` on): its steps and calls as the statement leaves
 * them, for its cost (the statement's other parts do not see one another's rows), then the update itself.
 */
function endingCtes(runEnd: RunEnd, first: number): string {
  return `
          steps_after as (
            select s.id, s.kind, coalesce(x.duration_ms, s.duration_ms) duration_ms, s.ordinal
              from steps s left join jsonb_to_recordset($3::jsonb) as x(id text, duration_ms int) on x.id = s.id where s.run_id = $1
            union all
            select x.id, x.kind, x.duration_ms, x.ordinal from jsonb_to_recordset($2::jsonb) as x(id text, kind text, duration_ms int, ordinal int)),
          calls_after as (
            select step_id, cached, tokens_in, tokens_out from model_calls where run_id = $1
            union all
            select x."stepId", x.cached, x."tokensIn", x."tokensOut" from jsonb_to_recordset($5::jsonb) as x("stepId" text, cached boolean, "tokensIn" int, "tokensOut" int)),
          ended as (${runEnd.sql({ steps: 'steps_after', calls: 'calls_after' }, (i) => `$${first + i}`)})`;
}

/** New step rows, the ends of steps already written, selected evidence rows and model calls (prompts packed), and the run's end: one statement. */
async function writeSteps(
  runId: string,
  lease: { attempt: number | null; ended: boolean },
  rows: WrittenRow[],
  updates: WrittenEnd[],
  selected: EvidenceRecord[],
  calls: PackedCall[],
  pack: RunPack | null,
  runEnd: RunEnd | null,
): Promise<void> {
  const packed = pack ? new Set(pack.steps) : null;
  // A body that goes into the pack is not written to its row as well.
  const bodies = (ordinal: number | undefined, texts: Partial<StepTexts>) =>
    packed && ordinal !== undefined && packed.has(ordinal) ? { input: null, output: null, pool: null } : texts;
  // Rows' bodies in their stored form (large ones deflated off the event loop) before the statement goes.
  const [stepRows, endRows] = await Promise.all([
    allOf(
      rows.map((r) =>
        withJson(
          {
            id: r.id,
            ordinal: r.ordinal,
            parent: r.parentStepId,
            kind: r.kind,
            label: r.label,
            status: r.status,
            duration_ms: r.durationMs ?? null,
            started_at: r.startedAt,
            contract_issue: r.contractIssue ?? null,
          },
          bodies(r.ordinal, { input: r.texts.input, output: r.texts.output, pool: r.texts.pool }),
        ),
      ),
    ),
    allOf(
      updates.map((e) =>
        withJson(
          {
            id: e.stepId,
            status: e.status,
            duration_ms: e.durationMs,
            contract_issue: e.contractIssue,
            packed: e.ordinal !== undefined && !!packed?.has(e.ordinal),
          },
          bodies(e.ordinal, e.texts),
        ),
      ),
    ),
  ]);
  // Every part writes only while the lease holds ($9: the claiming attempt; null: unconditional); `for share` keeps a
  // takeover (which updates the row) waiting until this statement is in, so nothing is written after it. Once this
  // attempt has stored the run's end, the run is still its own while ended (a later attempt would have taken it running).
  const status = lease.ended ? `status <> 'running'` : `status = 'running'`;
  const result = await queryRow(
    getPool(),
    Held,
    prepared(`with lease as (select 1 from runs where id = $1 and ($9::int is null or (${status} and attempts = $9::int)) for share),
          i as (insert into steps (id, run_id, ordinal, parent_step_id, kind, label, status, input, output, duration_ms, evidence_pool, started_at, contract_issue)
                select x.id, $1, x.ordinal, x.parent, x.kind, x.label, x.status::"StepStatus", x.input, x.output, x.duration_ms, x.pool, x.started_at, x.contract_issue
                  from jsonb_to_recordset($2::jsonb) as x(id text, ordinal int, parent text, kind text, label text, status text, input jsonb, output jsonb,
                                                          duration_ms int, pool jsonb, started_at timestamptz, contract_issue text)
                 where exists (select 1 from lease)),
          u as (update steps s set status = x.status::"StepStatus", output = x.output, duration_ms = x.duration_ms, evidence_pool = x.pool, contract_issue = x.contract_issue,
                                   input = case when x.packed then null else s.input end
                  from jsonb_to_recordset($3::jsonb) as x(id text, status text, output jsonb, duration_ms int, pool jsonb, contract_issue text, packed boolean)
                 where s.id = x.id and s.run_id = $1 and exists (select 1 from lease)),
          e as (${INSERT_EVIDENCE('$4', 'exists (select 1 from lease)')}),
          m as (${INSERT_CALLS('$5', 'exists (select 1 from lease)')}),
          p as (insert into trace_packs (run_id, seq, body) select $1, coalesce(max(seq) + 1, 0), $6::bytea from trace_packs
                 where run_id = $1 having $6::bytea is not null and exists (select 1 from lease)),
          cleared as (update steps set input = null, output = null, evidence_pool = null where run_id = $1 and ordinal = any($7::int[]) and exists (select 1 from lease)),
          markers as (update model_calls c set messages = x.marker, output = null, parsed = null
                  from jsonb_to_recordset($8::jsonb) as x(ordinal int, marker jsonb) where c.run_id = $1 and c.ordinal = x.ordinal and exists (select 1 from lease))
${runEnd ? `,${endingCtes(runEnd, 10)}` : ''}
     select exists (select 1 from lease) held${runEnd ? ', (select count(*) from ended) > 0 ended' : ''}`),
    [
      runId,
      `[${stepRows.join(',')}]`,
      `[${endRows.join(',')}]`,
      evidenceJson(selected),
      callsJson(calls, !!pack),
      pack ? await pack.body : null,
      pack?.clearSteps ?? [],
      JSON.stringify(pack?.clearCalls ?? []),
      lease.attempt,
      ...(runEnd?.params ?? []),
    ],
  );
  if (!result?.held) throw new RunLeaseLostError();
}

/** The run's pack made by a sealing write: its body, the steps and calls it holds, and the rows written before whose bodies it takes over. */
interface RunPack {
  /** Deflated on libuv's threads while the statement's other parameters are made on the event loop. */
  body: Promise<Buffer>;
  steps: number[];
  clearSteps: number[];
  clearCalls: { ordinal: number; marker: CallMarker }[];
}

/**
 * The pack of every ended step and every call, as they will be stored (`steps`, `calls`), given which of them were
 * already written with their bodies (`before`): those rows are cleared, except steps whose end this very write updates.
 * Null when there is nothing to pack.
 */
function runPack(
  steps: Map<number, StepTexts & { ended: boolean }>,
  calls: Map<number, CallTexts & { chars: [number, number] }>,
  stepsBefore: Map<number, StepTexts & { ended: boolean }>,
  callsBefore: Map<number, CallTexts & { chars: [number, number] }>,
  updated: (number | undefined)[],
): RunPack | null {
  const ended = [...steps].filter(([, t]) => t.ended);
  if (!ended.length && !calls.size) return null;
  const updatedNow = new Set(updated);
  const body = packBodies(ended, [...calls]);
  // Awaited by the statement; a write that fails before it gets there rejects with its own error, not this one's.
  body.catch(() => undefined);
  return {
    body,
    steps: ended.map(([o]) => o),
    clearSteps: ended.map(([o]) => o).filter((o) => stepsBefore.has(o) && !updatedNow.has(o)),
    clearCalls: [...callsBefore].map(([ordinal, c]) => ({ ordinal, marker: { $pack: c.chars } })),
  };
}

/** A packed call's row keeps, instead of its bodies, the length of its prompt and of its output (characters), which timings read without the pack. */
type CallMarker = { $pack: [promptChars: number, outputChars: number] };

function isCallMarker(messages: unknown): messages is CallMarker {
  return !!messages && typeof messages === 'object' && Array.isArray((messages as { $pack?: unknown }).$pack);
}

const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/** Characters as PostgreSQL's length() counts them (code points: a surrogate pair is one). */
function charCount(text: string): number {
  return text.length - (text.match(SURROGATE_PAIR)?.length ?? 0);
}

/**
 * The `evidence` row of a record stored in a pool (written in the same statement or before it): its place and
 * identity (step, ordinal, channel, kind, ref, selected), not its text, data and scores, which readers take from the pool.
 */
function poolReference(r: EvidenceRecord): EvidenceRecord {
  return { ...r, text: '', data: undefined, scores: undefined };
}

/** One row per evidence id (a record recorded unselected and selected in one batch is one row, selected). */
function evidenceRows(records: EvidenceRecord[]): EvidenceRecord[] {
  const byId = new Map<string, EvidenceRecord>();
  for (const r of records) {
    const seen = byId.get(r.id);
    byId.set(r.id, seen ? { ...r, selected: seen.selected || r.selected } : r);
  }
  return [...byId.values()];
}

// $1 is the run id. A record stored unselected (retrieved outside a step) and selected later becomes selected.
const INSERT_EVIDENCE = (param: string, condition = 'true') =>
  `insert into evidence (id, run_id, step_id, ordinal, channel, kind, ref, text, data, scores, selected)
   select x.id, $1, x.step_id, x.ordinal, x.channel::"Channel", x.kind, x.ref, x.text, x.data, x.scores, x.selected
     from jsonb_to_recordset(${param}::jsonb) as x(id text, step_id text, ordinal int, channel text, kind text, ref text, text text, data jsonb, scores jsonb, selected boolean)
    where ${condition}
   on conflict (id) do update set selected = excluded.selected or evidence.selected`;

const INSERT_CALLS = (param: string, condition = 'true') =>
  `insert into model_calls (id, run_id, step_id, ordinal, role, backend, model, template, template_version, messages, output, parsed,
                            tokens_in, tokens_out, latency_ms, started_at, cached, attempts, error)
   select gen_random_uuid()::text, $1, x."stepId", x.ordinal, x.role, x.backend, x.model, x.template, x."templateVersion", x.messages, x.output, x.parsed,
          x."tokensIn", x."tokensOut", x."latencyMs", x."startedAt", x.cached, x.attempts, x.error
     from jsonb_to_recordset(${param}::jsonb) as x("stepId" text, ordinal int, role text, backend text, model text, template text, "templateVersion" int, messages jsonb,
          output text, parsed jsonb, "tokensIn" int, "tokensOut" int, "latencyMs" int, "startedAt" timestamptz, cached boolean, attempts int, error text)
    where ${condition}`;

/** An object's JSON text with `stored` fields (JSON texts; null: none) added in their stored form (./codec storedText: large ones compressed). */
function withJson(plain: Record<string, unknown>, stored: Record<string, string | null>): string | Promise<string> {
  const keys = Object.keys(stored);
  const head = JSON.stringify(plain).slice(0, -1);
  const joined = (texts: string[]) => `${head},${keys.map((k, i) => `${JSON.stringify(k)}:${texts[i]}`).join(',')}}`;
  const texts = allOf(keys.map((k) => (stored[k] === null ? 'null' : storedText(stored[k]))));
  return Array.isArray(texts) ? joined(texts) : texts.then(joined);
}

/**
 * The values, at once when none is a promise: most rows of a statement have no body to deflate (a held writer's are in
 * its pack), and a promise per row and per field, each run through the process's async hooks, was most of what building
 * a statement's rows allocated.
 */
function allOf<T>(values: (T | Promise<T>)[]): T[] | Promise<T[]> {
  return values.some((v) => v instanceof Promise) ? Promise.all(values) : (values as T[]);
}

/** Fields a pool's records leave out: its step and their ordinals imply them. */
const POOL_OMITS: ReadonlySet<string> = new Set(['stepId', 'id']);

/** A pool's packed JSON text: each record keeps the selected flag it was retrieved with. */
function poolText(records: EvidenceRecord[]): string {
  return packText(records, undefined, POOL_OMITS);
}

function evidenceJson(records: EvidenceRecord[]): string {
  return JSON.stringify(
    records.map((r) => ({
      id: r.id,
      step_id: r.stepId,
      ordinal: r.ordinal,
      channel: r.channel,
      kind: r.kind,
      ref: r.ref,
      text: r.text,
      data: r.data ?? null,
      scores: r.scores ?? null,
      selected: r.selected,
    })),
  );
}

/** A call to write: its bodies as JSON texts, with its prompt and output lengths. */
type PackedCall = CallRow & { texts: CallTexts; chars: [number, number] };

/** A call's parsed output that is just its output text read as JSON is stored as a marker, not a second copy. */
const PARSED_IS_OUTPUT = '{"$parsedIsOutput":true}';

/** A call's parsed output as stored (JSON text; null for none). */
function storedParsed(parsed: unknown, output: string | null): string | null {
  if (parsed === undefined || parsed === null) return null;
  const text = JSON.stringify(parsed);
  if (output === null) return text;
  // Most outputs are the parsed value's JSON text as it is: one stringify says so, without parsing the output.
  if (text === output) return PARSED_IS_OUTPUT;
  try {
    return JSON.stringify(JSON.parse(output)) === text ? PARSED_IS_OUTPUT : text;
  } catch {
    return text;
  }
}

function parsedOf(stored: unknown, output: string | null): unknown {
  return stored && typeof stored === 'object' && (stored as { $parsedIsOutput?: unknown }).$parsedIsOutput === true && output !== null
    ? JSON.parse(output)
    : stored;
}

/** Calls as rows; `packed`: their bodies go into the run's pack, and the row keeps the marker with their lengths. */
function callsJson(calls: PackedCall[], packed: boolean): string {
  return `[${calls
    .map((c) => {
      const plain = {
        stepId: c.stepId,
        ordinal: c.ordinal,
        role: c.role,
        backend: c.backend,
        model: c.model,
        template: c.template,
        templateVersion: c.templateVersion,
        output: packed ? null : c.output,
        tokensIn: c.tokensIn,
        tokensOut: c.tokensOut,
        latencyMs: c.latencyMs,
        startedAt: c.startedAt,
        cached: c.cached,
        attempts: c.attempts,
        error: c.error,
      };
      const marker: CallMarker = { $pack: c.chars };
      return `${JSON.stringify(plain).slice(0, -1)},"messages":${packed ? JSON.stringify(marker) : c.texts.messages},"parsed":${packed ? 'null' : (c.texts.parsed ?? 'null')}}`;
    })
    .join(',')}]`;
}

// ---------------------------------------------------------------- resume

export interface ResumeState {
  steps: { id: string; ordinal: number; kind: string; label: string; key: string | null; status: StepStatus; input: unknown; output: unknown }[];
  records: Map<string, EvidenceRecord>;
  selectedIds: Set<string>;
  nextStep: number;
  nextEvidence: number;
  nextCall: number;
}

/** Opens a run's trace for (re)writing: steps left running by a dead worker are marked failed; what completed is returned for replay. */
export async function openTrace(runId: string): Promise<ResumeState> {
  const pool = getPool();
  await pool.query(
    `with gone as (update steps set status = 'failed', output = '{"error": "interrupted: the server stopped during this step"}'::jsonb
                    where run_id = $1 and status = 'running' returning id)
     delete from evidence where run_id = $1 and step_id in (select id from gone)`,
    [runId],
  );
  const { steps, records, selectedIds } = await readTraceRows(runId, true);
  const last = await queryRow(pool, LastCall, `select max(ordinal) "call" from model_calls where run_id = $1`, [runId]);
  const maxEvidence = Math.max(-1, ...[...records.values()].map((r) => r.ordinal));
  return {
    steps: steps.map((s) => {
      const input = unpack(s.rawInput) as { __key?: string } | null;
      return {
        id: s.id,
        ordinal: s.ordinal,
        kind: s.kind,
        label: s.label,
        key: input?.__key ?? null,
        status: s.status,
        input,
        output: unpack(s.rawOutput, byOrdinal(records)),
      };
    }),
    records,
    selectedIds,
    nextStep: (steps.at(-1)?.ordinal ?? -1) + 1,
    nextEvidence: maxEvidence + 1,
    nextCall: (last?.call ?? -1) + 1,
  };
}

/** The state of a run that has no trace yet. */
export function emptyTrace(): ResumeState {
  return { steps: [], records: new Map(), selectedIds: new Set(), nextStep: 0, nextEvidence: 0, nextCall: 0 };
}

export async function runStatus(runId: string): Promise<string | null> {
  return (await queryRow(getPool(), RunStatusRow, `select status from runs where id = $1`, [runId]))?.status ?? null;
}

// ---------------------------------------------------------------- reads

const LastCall = z.object({ call: z.number().nullable() });
const RunStatusRow = z.object({ status: z.enum(RunStatus) });
const PackRow = z.object({ body: z.instanceof(Buffer) });

/** A step row as read: input, output and pool still packed (parsed as they are: ./codec reads them). */
const StepRowRawSchema = z.object({
  id: z.string(),
  ordinal: z.number(),
  parentStepId: z.string().nullable(),
  kind: z.string(),
  label: z.string(),
  status: z.enum(StepStatus),
  rawInput: z.unknown(),
  rawOutput: z.unknown(),
  rawPool: z.unknown(),
  packed: z.boolean(),
  startedAt: z.date(),
  durationMs: z.number().nullable(),
  contractIssue: z.string().nullable(),
});
/** A step row as stored: input and output still packed. */
type StepRowRaw = Omit<z.output<typeof StepRowRawSchema>, 'rawPool' | 'packed'>;

const EvidenceRowSchema = z.object({
  id: z.string(),
  ordinal: z.number(),
  stepId: z.string().nullable(),
  channel: z.enum(Channel),
  kind: z.enum(EVIDENCE_KINDS),
  ref: z.string(),
  text: z.string(),
  data: z.unknown(),
  scores: z.record(z.string(), z.number().nullable()).nullable(),
  selected: z.boolean(),
});

/**
 * A run's step rows with their bodies (those of a packed run from its packs)
 * and every evidence record. The rows (bodies and pools together) are read in
 * one statement and the packs after them: a pack is stored in the statement
 * that clears its rows, so rows found cleared always find their pack.
 */
async function readTraceRows(runId: string, withIO: boolean, stepId?: string) {
  const pool = getPool();
  const [steps, rows] = await Promise.all([
    queryRows(
      pool,
      StepRowRawSchema,
      `select id, ordinal, parent_step_id "parentStepId", kind, label, status,
              case when $2 and ($3::text is null or id = $3) then input end "rawInput", case when $2 and ($3::text is null or id = $3) then output end "rawOutput",
              evidence_pool "rawPool", input is null packed, started_at "startedAt", duration_ms "durationMs", contract_issue "contractIssue"
         from steps where run_id = $1 order by ordinal`,
      [runId, withIO, stepId ?? null],
    ),
    queryRows(
      pool,
      EvidenceRowSchema,
      `select id, ordinal, step_id "stepId", channel, kind, ref, text, data, scores, selected from evidence where run_id = $1`,
      [runId],
    ),
  ]);
  const packed = steps.some((s) => s.packed) ? (await readPacks(runId)).steps : null;
  const wanted = (s: { id: string }) => withIO && (stepId === undefined || s.id === stepId);
  const stored = steps.map(({ packed: inPack, rawPool, ...s }) => {
    const body = inPack ? packed?.get(s.ordinal) : undefined;
    // A body a packed row still holds (written to it after the pack) is the row's; the others are the pack's.
    return body
      ? { ...s, rawInput: wanted(s) ? body.input : null, rawOutput: wanted(s) ? (s.rawOutput ?? body.output) : null, rawPool: rawPool ?? body.pool }
      : { ...s, rawPool };
  });
  // Records as retrieved (the pools), then rows for what no pool holds (evidence outside steps; runs stored before pools).
  const records = new Map<string, EvidenceRecord>();
  for (const s of stored) {
    if (s.rawPool === null || s.rawPool === undefined) continue;
    for (const r of unpack(s.rawPool) as Omit<EvidenceRecord, 'stepId'>[]) {
      const id = r.id ?? evidenceId(runId, r.ordinal);
      records.set(id, { ...r, id, stepId: s.id });
    }
  }
  const selectedIds = new Set<string>();
  for (const row of rows) {
    if (row.selected) selectedIds.add(row.id);
    if (!records.has(row.id)) records.set(row.id, { ...row, data: row.data ?? undefined, scores: row.scores ?? undefined });
  }
  return { steps: stored.filter((s) => stepId === undefined || s.id === stepId).map(({ rawPool: _p, ...s }): StepRowRaw => s), records, selectedIds };
}

/** The bodies of a run's packs (a later pack's over an earlier one's). */
async function readPacks(runId: string): Promise<Pack> {
  const rows = await queryRows(getPool(), PackRow, `select body from trace_packs where run_id = $1 order by seq`, [runId]);
  const all: Pack = { steps: new Map(), calls: new Map() };
  for (const { body } of rows) {
    const p = unpackBodies(body);
    for (const [o, b] of p.steps) all.steps.set(o, b);
    for (const [o, c] of p.calls) all.calls.set(o, c);
  }
  return all;
}

/** A run's steps (inputs and outputs expanded, unless `withIO` is false) and all its evidence, in order, each marked selected or not. */
export async function readTrace(runId: string, opts: { withIO?: boolean } = {}): Promise<{ steps: StoredStep[]; evidence: StoredEvidence[] }> {
  const withIO = opts.withIO ?? true;
  const { steps, records, selectedIds } = await readTraceRows(runId, withIO);
  const at = byOrdinal(records);
  return {
    steps: steps.map(({ rawInput, rawOutput, ...s }) => ({ ...s, input: withIO ? unpack(rawInput, at) : null, output: withIO ? unpack(rawOutput, at) : null })),
    evidence: [...records.values()]
      .sort((a, b) => a.ordinal - b.ordinal)
      .map((r) => ({
        id: r.id,
        ordinal: r.ordinal,
        stepId: r.stepId,
        channel: r.channel,
        kind: r.kind,
        ref: r.ref,
        text: r.text,
        data: r.data ?? null,
        scores: r.scores ?? null,
        selected: selectedIds.has(r.id),
      })),
  };
}

/** One step with its input and output expanded, and how many evidence records it retrieved. */
export async function readStep(runId: string, stepId: string): Promise<{ step: StoredStep; evidence: number } | null> {
  const { steps, records } = await readTraceRows(runId, true, stepId);
  const s = steps[0];
  if (!s) return null;
  const { rawInput, rawOutput, ...rest } = s;
  return {
    step: { ...rest, input: unpack(rawInput, byOrdinal(records)), output: unpack(rawOutput, byOrdinal(records)) },
    evidence: [...records.values()].filter((r) => r.stepId === stepId).length,
  };
}

const StoredCallSchema = z.object({
  id: z.string(),
  stepId: z.string().nullable(),
  ordinal: z.number(),
  role: z.string(),
  backend: z.string(),
  model: z.string(),
  template: z.string(),
  templateVersion: z.number(),
  messages: z.unknown(),
  output: z.string().nullable(),
  parsed: z.unknown(),
  tokensIn: z.number(),
  tokensOut: z.number(),
  latencyMs: z.number(),
  cached: z.boolean(),
  attempts: z.number(),
  error: z.string().nullable(),
  createdAt: z.date(),
});
/** A model call as stored, its messages as they were sent. */
export type StoredCall = z.output<typeof StoredCallSchema>;

/** A run's model calls in order (only those of `stepId` when given), prompts expanded (they refer to earlier calls' lines, so all are read), packed ones from the run's packs. */
export async function readCalls(runId: string, stepId?: string): Promise<StoredCall[]> {
  const rows = await queryRows(
    getPool(),
    StoredCallSchema,
    `select id, step_id "stepId", ordinal, role, backend, model, template, template_version "templateVersion", messages, output, parsed,
            tokens_in "tokensIn", tokens_out "tokensOut", latency_ms "latencyMs", cached, attempts, error, created_at "createdAt"
       from model_calls where run_id = $1 order by ordinal`,
    [runId],
  );
  // Rows first, then the packs (see readTraceRows).
  const packed = rows.some((c) => isCallMarker(c.messages)) ? (await readPacks(runId)).calls : null;
  const calls = rows.map((c) => {
    const body = isCallMarker(c.messages) ? packed?.get(c.ordinal) : undefined;
    return body ? { ...c, messages: body.messages, output: c.output ?? body.output, parsed: c.parsed ?? body.parsed } : c;
  });
  const messages = unpackMessages(calls);
  return calls
    .filter((c) => stepId === undefined || c.stepId === stepId)
    .map((c) => ({ ...c, messages: messages.get(c.ordinal), parsed: parsedOf(c.parsed, c.output) }));
}

function byOrdinal(records: Map<string, EvidenceRecord>): (ordinal: number) => EvidenceRecord | undefined {
  const at = new Map([...records.values()].map((r) => [r.ordinal, r]));
  return (n) => at.get(n);
}

const CallTimingRowSchema = z.object({
  id: z.string(),
  stepId: z.string().nullable(),
  ordinal: z.number(),
  role: z.string(),
  backend: z.string(),
  cached: z.boolean(),
  latencyMs: z.number(),
  startedAt: z.date(),
  tokensIn: z.number(),
  tokensOut: z.number(),
  promptChars: z.coerce.number(),
  outputChars: z.coerce.number(),
});
/** A model call's timing and size, without its texts. */
export type CallTimingRow = z.infer<typeof CallTimingRowSchema>;

/**
 * Timing, tokens and text sizes of every model call of a run, in order: prompt and output
 * lengths are measured in the database (a packed call's row keeps them), not shipped. A row
 * written before the start time was kept starts at its write time minus its latency.
 */
export async function readCallTimings(runId: string): Promise<CallTimingRow[]> {
  return queryRows(
    getPool(),
    CallTimingRowSchema,
    `select id, step_id "stepId", ordinal, role, backend, cached, latency_ms "latencyMs",
            coalesce(started_at, created_at - make_interval(secs => latency_ms / 1000.0)) "startedAt", tokens_in "tokensIn", tokens_out "tokensOut",
            coalesce((messages->'$pack'->>0)::int,
                     (select sum(coalesce(length(m->>'content'), (m->>'n')::int)) from jsonb_array_elements(case when jsonb_typeof(messages) = 'array' then messages else '[]'::jsonb end) m), 0) "promptChars",
            coalesce((messages->'$pack'->>1)::int, length(output), 0) "outputChars"
       from model_calls where run_id = $1 order by ordinal`,
    [runId],
  );
}
