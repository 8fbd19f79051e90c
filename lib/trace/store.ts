import { getPool } from '@/lib/db/client';
import type { ModelCallRecord } from '@/lib/llm/types';
import { evidenceId, storedJson, pack, packMessages, unpack, unpackMessages, type Json, type LineAt, type Stored } from './codec';
import type { ChannelName, EvidenceRecord } from './types';

/**
 * The trace repository: every read and write of steps, evidence and model calls
 * goes through here (the recorder writes, the run views read).
 *
 * Storage, compactly:
 * - everything a step retrieved is one record on the step (`steps.evidence_pool`,
 *   a table in the stored form of ./codec), not one row per candidate;
 * - evidence a method selected (used in a prompt or rule) is also a row of
 *   `evidence`, which is what "the evidence of a run" means to queries;
 * - step inputs and outputs are stored packed (./codec): evidence records the
 *   run already stored become references, tables keep field names once, large
 *   values are compressed;
 * - a model call's prompt lines that an earlier call of the run stored are
 *   references to them (./codec packMessages), and its parsed output, when it
 *   is just its output text read as JSON, is a marker;
 * - a step is written when it ends, with its output, its pool, its selected
 *   evidence and its model calls, in one statement shared with whatever else
 *   of the run is waiting (TraceWriter); a step still running after a moment
 *   is written as `running` first, so a crash leaves it marked interrupted.
 */

export type StepStatus = 'running' | 'succeeded' | 'failed' | 'skipped';

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

/** A step's input or output as stored (JSON), packed: what this run already stored becomes references. */
export function encodeStepJson(value: unknown, stored: Stored): Json {
  return pack(value, stored);
}

// ---------------------------------------------------------------- writes

/** A step's row as first written: running, or complete when the step ended (or was skipped) before its row was written. */
export interface StepRow extends StepPlace {
  input: Json;
  output?: Json;
  durationMs?: number;
  contractIssue?: string | null;
  startedAt: Date;
}

export interface CallRow extends ModelCallRecord {
  ordinal: number;
  stepId: string | null;
}

/** How a step ended: status, output and duration; the evidence it retrieved (its pool), the rows of what was selected, its model calls. */
export interface StepEnd {
  stepId: string;
  status: 'succeeded' | 'failed';
  output: Json;
  /** The output broke its kind's contract: the issues, kept with the step (null: it fits). */
  contractIssue: string | null;
  durationMs: number;
  pool: EvidenceRecord[];
  selected: EvidenceRecord[];
  calls: Omit<CallRow, 'stepId'>[];
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
 * first; statements still go out in order.
 */
export class TraceWriter {
  /** Step rows not written yet, in ordinal order. */
  private readonly unwritten = new Map<string, StepRow>();
  private waiting: { end: StepEnd | null; calls: CallRow[]; rows: EvidenceRecord[]; resolve(): void; reject(e: unknown): void }[] = [];
  /** Where the run's prompt lines are stored in full (./codec packMessages): later calls refer to them. */
  private readonly lines = new Map<string, LineAt>();
  private chain: Promise<void> = Promise.resolve();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    readonly runId: string,
    private readonly behind = false,
  ) {}

  /** A started (or skipped) step: its row goes with the next write, or on its own after START_WRITE_MS. */
  add(row: StepRow): void {
    this.unwritten.set(row.id, row);
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

  private write(end: StepEnd | null, calls: CallRow[] = [], rows: EvidenceRecord[] = [], now = !this.behind): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ end, calls, rows, resolve, reject });
      if (now) this.chain = this.chain.then(() => this.drain());
      else this.soon();
    });
  }

  /** One statement for everything waiting; writes queued while it runs go together in the next. */
  private async drain(): Promise<void> {
    const batch = this.waiting;
    this.waiting = [];
    if (!batch.length) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const rows = [...this.unwritten.values()];
    this.unwritten.clear();
    const ends = batch.flatMap((b) => (b.end ? [b.end] : []));
    const endOf = new Map(ends.map((e) => [e.stepId, e]));
    const added = new Map<string, LineAt>();
    const calls = [...ends.flatMap((e) => e.calls.map((c) => ({ ...c, stepId: e.stepId }))), ...batch.flatMap((b) => b.calls)]
      .sort((a, b) => a.ordinal - b.ordinal)
      .map((c) => ({ ...c, messages: packMessages(c.messages, c.ordinal, this.lines, added) }));
    try {
      await writeSteps(
        this.runId,
        rows.map((r) => {
          const e = endOf.get(r.id);
          return e ? { ...r, status: e.status, output: e.output, durationMs: e.durationMs, pool: e.pool, contractIssue: e.contractIssue } : r;
        }),
        ends.filter((e) => !rows.some((r) => r.id === e.stepId)),
        evidenceRows([...ends.flatMap((e) => e.selected.map((r) => ({ ...r, selected: true }))), ...batch.flatMap((b) => b.rows)]),
        calls,
      );
      for (const [line, at] of added) this.lines.set(line, at);
      for (const b of batch) b.resolve();
    } catch (error) {
      // Rows of steps still running are tried again with the next write.
      for (const r of rows) if (!endOf.has(r.id) && !this.unwritten.has(r.id)) this.unwritten.set(r.id, r);
      for (const b of batch) b.reject(error);
    }
  }
}

/** New step rows, the ends of steps already written, selected evidence rows and model calls (prompts packed): one statement. */
async function writeSteps(runId: string, rows: (StepRow & { pool?: EvidenceRecord[] })[], updates: StepEnd[], selected: EvidenceRecord[], calls: PackedCall[]): Promise<void> {
  await getPool().query(
    `with i as (insert into steps (id, run_id, ordinal, parent_step_id, kind, label, status, input, output, duration_ms, evidence_pool, started_at, contract_issue)
                select x.id, $1, x.ordinal, x.parent, x.kind, x.label, x.status::"StepStatus", x.input, x.output, x.duration_ms, x.pool, x.started_at, x.contract_issue
                  from jsonb_to_recordset($2::jsonb) as x(id text, ordinal int, parent text, kind text, label text, status text, input jsonb, output jsonb,
                                                          duration_ms int, pool jsonb, started_at timestamp, contract_issue text)),
          u as (update steps s set status = x.status::"StepStatus", output = x.output, duration_ms = x.duration_ms, evidence_pool = x.pool, contract_issue = x.contract_issue
                  from jsonb_to_recordset($3::jsonb) as x(id text, status text, output jsonb, duration_ms int, pool jsonb, contract_issue text)
                 where s.id = x.id and s.run_id = $1),
          e as (${INSERT_EVIDENCE('$4')}),
          m as (${INSERT_CALLS('$5')})
     select 1`,
    [
      runId,
      `[${rows
        .map((r) =>
          withJson(
            { id: r.id, ordinal: r.ordinal, parent: r.parentStepId, kind: r.kind, label: r.label, status: r.status, duration_ms: r.durationMs ?? null, started_at: r.startedAt, contract_issue: r.contractIssue ?? null },
            { input: r.input, output: r.output ?? null, pool: r.pool?.length ? poolJson(r.pool) : null },
          ),
        )
        .join(',')}]`,
      `[${updates.map((e) => withJson({ id: e.stepId, status: e.status, duration_ms: e.durationMs, contract_issue: e.contractIssue }, { output: e.output, pool: e.pool.length ? poolJson(e.pool) : null })).join(',')}]`,
      evidenceJson(selected),
      callsJson(calls),
    ],
  );
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
const INSERT_EVIDENCE = (param: string) =>
  `insert into evidence (id, run_id, step_id, ordinal, channel, kind, ref, text, data, scores, selected)
   select x.id, $1, x.step_id, x.ordinal, x.channel::"Channel", x.kind, x.ref, x.text, x.data, x.scores, x.selected
     from jsonb_to_recordset(${param}::jsonb) as x(id text, step_id text, ordinal int, channel text, kind text, ref text, text text, data jsonb, scores jsonb, selected boolean)
   on conflict (id) do update set selected = excluded.selected or evidence.selected`;

const INSERT_CALLS = (param: string) =>
  `insert into model_calls (id, run_id, step_id, ordinal, role, backend, model, template, template_version, messages, output, parsed,
                            tokens_in, tokens_out, latency_ms, cached, attempts, error)
   select gen_random_uuid()::text, $1, x."stepId", x.ordinal, x.role, x.backend, x.model, x.template, x."templateVersion", x.messages, x.output, x.parsed,
          x."tokensIn", x."tokensOut", x."latencyMs", x.cached, x.attempts, x.error
     from jsonb_to_recordset(${param}::jsonb) as x("stepId" text, ordinal int, role text, backend text, model text, template text, "templateVersion" int, messages jsonb,
          output text, parsed jsonb, "tokensIn" int, "tokensOut" int, "latencyMs" int, cached boolean, attempts int, error text)`;

/** An object's JSON text with `stored` fields added in their stored form (./codec storedJson: large ones compressed), each value serialised once. */
function withJson(plain: Record<string, unknown>, stored: Record<string, Json>): string {
  const fields = Object.entries(stored).map(([k, v]) => `${JSON.stringify(k)}:${storedJson(v)}`);
  return `${JSON.stringify(plain).slice(0, -1)},${fields.join(',')}}`;
}

/** The pool drops what its step and ordinal imply (step id, record id); each record keeps the selected flag it was retrieved with. */
function poolJson(records: EvidenceRecord[]): Json {
  return pack(records.map(({ stepId: _s, id: _i, ...r }) => r));
}

function evidenceJson(records: EvidenceRecord[]): string {
  return JSON.stringify(records.map((r) => ({ id: r.id, step_id: r.stepId, ordinal: r.ordinal, channel: r.channel, kind: r.kind, ref: r.ref, text: r.text, data: r.data ?? null, scores: r.scores ?? null, selected: r.selected })));
}

type PackedCall = Omit<CallRow, 'messages'> & { messages: Json };

/** A call's parsed output that is just its output text read as JSON is stored as a marker, not a second copy. */
const PARSED_IS_OUTPUT = { $parsedIsOutput: true };

function storedParsed(parsed: unknown, output: string | null): unknown {
  if (parsed === undefined || parsed === null) return null;
  if (output === null) return parsed;
  try {
    return JSON.stringify(JSON.parse(output)) === JSON.stringify(parsed) ? PARSED_IS_OUTPUT : parsed;
  } catch {
    return parsed;
  }
}

function parsedOf(stored: unknown, output: string | null): unknown {
  return stored && typeof stored === 'object' && (stored as { $parsedIsOutput?: unknown }).$parsedIsOutput === true && output !== null ? JSON.parse(output) : stored;
}

function callsJson(calls: PackedCall[]): string {
  return JSON.stringify(
    calls.map((c) => ({
      stepId: c.stepId, ordinal: c.ordinal, role: c.role, backend: c.backend, model: c.model, template: c.template, templateVersion: c.templateVersion,
      messages: c.messages, output: c.output, parsed: storedParsed(c.parsed, c.output), tokensIn: c.tokensIn, tokensOut: c.tokensOut,
      latencyMs: c.latencyMs, cached: c.cached, attempts: c.attempts, error: c.error,
    })),
  );
}

// ---------------------------------------------------------------- resume

export interface ResumeState {
  steps: { id: string; ordinal: number; key: string | null; status: StepStatus; output: unknown }[];
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
     delete from evidence where step_id in (select id from gone)`,
    [runId],
  );
  const { steps, records, selectedIds } = await readTraceRows(runId, true);
  const { rows } = await pool.query<{ call: number | null }>(`select max(ordinal) "call" from model_calls where run_id = $1`, [runId]);
  const maxEvidence = Math.max(-1, ...[...records.values()].map((r) => r.ordinal));
  return {
    steps: steps.map((s) => ({
      id: s.id,
      ordinal: s.ordinal,
      key: (unpack(s.rawInput) as { __key?: string } | null)?.__key ?? null,
      status: s.status,
      output: unpack(s.rawOutput, byOrdinal(records)),
    })),
    records,
    selectedIds,
    nextStep: (steps.at(-1)?.ordinal ?? -1) + 1,
    nextEvidence: maxEvidence + 1,
    nextCall: (rows[0]?.call ?? -1) + 1,
  };
}

/** The state of a run that has no trace yet. */
export function emptyTrace(): ResumeState {
  return { steps: [], records: new Map(), selectedIds: new Set(), nextStep: 0, nextEvidence: 0, nextCall: 0 };
}

export async function runStatus(runId: string): Promise<string | null> {
  const { rows } = await getPool().query<{ status: string }>(`select status from runs where id = $1`, [runId]);
  return rows[0]?.status ?? null;
}

// ---------------------------------------------------------------- reads

/** A step row as stored: input and output still packed. */
type StepRowRaw = Omit<StoredStep, 'input' | 'output'> & { rawInput: unknown; rawOutput: unknown };

async function readTraceRows(runId: string, withIO: boolean, stepId?: string) {
  const pool = getPool();
  const [steps, pools, rows] = await Promise.all([
    pool.query<StepRowRaw>(
      `select id, ordinal, parent_step_id "parentStepId", kind, label, status, ${withIO ? 'input' : 'null'} "rawInput", ${withIO ? 'output' : 'null'} "rawOutput",
              started_at "startedAt", duration_ms "durationMs", contract_issue "contractIssue"
         from steps where run_id = $1 and ($2::text is null or id = $2) order by ordinal`,
      [runId, stepId ?? null],
    ),
    pool.query<{ id: string; pool: unknown }>(`select id, evidence_pool pool from steps where run_id = $1 and evidence_pool is not null`, [runId]),
    pool.query<StoredEvidence>(
      `select id, ordinal, step_id "stepId", channel, kind, ref, text, data, scores, selected from evidence where run_id = $1`,
      [runId],
    ),
  ]);
  // Records as retrieved (the pools), then rows for what no pool holds (evidence outside steps; runs stored before pools).
  const records = new Map<string, EvidenceRecord>();
  for (const p of pools.rows) {
    for (const r of unpack(p.pool) as Omit<EvidenceRecord, 'stepId'>[]) {
      const id = r.id ?? evidenceId(runId, r.ordinal);
      records.set(id, { ...r, id, stepId: p.id });
    }
  }
  const selectedIds = new Set<string>();
  for (const row of rows.rows) {
    if (row.selected) selectedIds.add(row.id);
    if (!records.has(row.id)) records.set(row.id, { ...row, kind: row.kind as EvidenceRecord['kind'], data: row.data ?? undefined, scores: row.scores ?? undefined });
  }
  return { steps: steps.rows, records, selectedIds };
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

/** A model call as stored, its messages as they were sent. */
export interface StoredCall {
  id: string;
  stepId: string | null;
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
  createdAt: Date;
}

/** A run's model calls in order (only those of `stepId` when given), prompts expanded (they refer to earlier calls' lines, so all are read). */
export async function readCalls(runId: string, stepId?: string): Promise<StoredCall[]> {
  const { rows } = await getPool().query<StoredCall>(
    `select id, step_id "stepId", ordinal, role, backend, model, template, template_version "templateVersion", messages, output, parsed,
            tokens_in "tokensIn", tokens_out "tokensOut", latency_ms "latencyMs", cached, attempts, error, created_at "createdAt"
       from model_calls where run_id = $1 order by ordinal`,
    [runId],
  );
  const messages = unpackMessages(rows);
  return rows.filter((c) => stepId === undefined || c.stepId === stepId).map((c) => ({ ...c, messages: messages.get(c.ordinal), parsed: parsedOf(c.parsed, c.output) }));
}

function byOrdinal(records: Map<string, EvidenceRecord>): (ordinal: number) => EvidenceRecord | undefined {
  const at = new Map([...records.values()].map((r) => [r.ordinal, r]));
  return (n) => at.get(n);
}
