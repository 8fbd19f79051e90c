import { randomUUID } from 'node:crypto';
import { getPool } from '@/lib/db/client';
import type { ModelCallRecord } from '@/lib/llm/types';
import { evidenceId, pack, unpack, type Stored } from './codec';
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
 *   run already stored become references, tables keep field names once;
 * - a step is written twice: once when it starts (so a crash leaves it
 *   `running`), and once when it ends, with its output, its pool, its selected
 *   evidence and its model calls in one statement.
 */

export type StepStatus = 'running' | 'succeeded' | 'failed' | 'skipped';

export interface StoredStep {
  id: string;
  ordinal: number;
  parentStepId: string | null;
  kind: string;
  label: string;
  status: StepStatus;
  /** With evidence references expanded. */
  input: unknown;
  output: unknown;
  startedAt: Date;
  durationMs: number | null;
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

/** JSON text for a step's input or output, packed: what this run already stored becomes references. */
export function encodeStepJson(value: unknown, stored: Stored): string {
  return JSON.stringify(pack(value, stored));
}

// ---------------------------------------------------------------- writes

export async function insertStep(row: { runId: string; ordinal: number; parentStepId: string | null; kind: string; label: string; status: StepStatus; input: string; output?: string; durationMs?: number }): Promise<string> {
  const id = randomUUID();
  await getPool().query(
    `insert into steps (id, run_id, ordinal, parent_step_id, kind, label, status, input, output, duration_ms)
     values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10)`,
    [id, row.runId, row.ordinal, row.parentStepId, row.kind, row.label, row.status, row.input, row.output ?? null, row.durationMs ?? null],
  );
  return id;
}

export interface CallRow extends ModelCallRecord {
  ordinal: number;
}

/**
 * Ends a step in one statement: status, output and duration; the step's
 * evidence pool; rows for its selected evidence; its model calls.
 */
export async function finishStep(end: {
  runId: string;
  stepId: string;
  status: 'succeeded' | 'failed';
  output: string;
  durationMs: number;
  pool: EvidenceRecord[];
  selected: EvidenceRecord[];
  calls: CallRow[];
}): Promise<void> {
  await getPool().query(
    `with s as (update steps set status = $3, output = $4::jsonb, duration_ms = $5, evidence_pool = $6::jsonb where id = $2),
          e as (${INSERT_EVIDENCE('$7')}),
          m as (${INSERT_CALLS('$8')})
     select 1`,
    [end.runId, end.stepId, end.status, end.output, end.durationMs, end.pool.length ? poolJson(end.pool) : null, evidenceJson(end.selected.map((r) => ({ ...r, selected: true }))), callsJson(end.calls)],
  );
}

/** Evidence rows: records selected after their step ended, or recorded outside a running step. */
export async function insertRows(runId: string, records: EvidenceRecord[]): Promise<void> {
  if (!records.length) return;
  await getPool().query(`${INSERT_EVIDENCE('$2')} on conflict (id) do update set selected = excluded.selected or evidence.selected`, [runId, evidenceJson(records)]);
}

/** Model calls made outside any step. */
export async function insertCalls(runId: string, stepId: string | null, calls: CallRow[]): Promise<void> {
  if (calls.length) await getPool().query(`with m as (${INSERT_CALLS('$3')}) select $2::text`, [runId, stepId, callsJson(calls)]);
}

// $1 is the run id, $2 the step id (null for calls outside steps).
const INSERT_EVIDENCE = (param: string) =>
  `insert into evidence (id, run_id, step_id, ordinal, channel, kind, ref, text, data, scores, selected)
   select x.id, $1, x.step_id, x.ordinal, x.channel::"Channel", x.kind, x.ref, x.text, x.data, x.scores, x.selected
     from jsonb_to_recordset(${param}::jsonb) as x(id text, step_id text, ordinal int, channel text, kind text, ref text, text text, data jsonb, scores jsonb, selected boolean)`;

const INSERT_CALLS = (param: string) =>
  `insert into model_calls (id, run_id, step_id, ordinal, role, backend, model, template, template_version, messages, output, parsed,
                            tokens_in, tokens_out, latency_ms, cached, attempts, error)
   select gen_random_uuid()::text, $1, $2, x.ordinal, x.role, x.backend, x.model, x.template, x."templateVersion", x.messages, x.output, x.parsed,
          x."tokensIn", x."tokensOut", x."latencyMs", x.cached, x.attempts, x.error
     from jsonb_to_recordset(${param}::jsonb) as x(ordinal int, role text, backend text, model text, template text, "templateVersion" int, messages jsonb,
          output text, parsed jsonb, "tokensIn" int, "tokensOut" int, "latencyMs" int, cached boolean, attempts int, error text)`;

/** The pool drops what its step and ordinal imply (step id, record id); each record keeps the selected flag it was retrieved with. */
function poolJson(records: EvidenceRecord[]): string {
  return JSON.stringify(pack(records.map(({ stepId: _s, id: _i, ...r }) => r)));
}

function evidenceJson(records: EvidenceRecord[]): string {
  return JSON.stringify(records.map((r) => ({ id: r.id, step_id: r.stepId, ordinal: r.ordinal, channel: r.channel, kind: r.kind, ref: r.ref, text: r.text, data: r.data ?? null, scores: r.scores ?? null, selected: r.selected })));
}

function callsJson(calls: CallRow[]): string {
  return JSON.stringify(
    calls.map((c) => ({
      ordinal: c.ordinal, role: c.role, backend: c.backend, model: c.model, template: c.template, templateVersion: c.templateVersion,
      messages: c.messages, output: c.output, parsed: c.parsed ?? null, tokensIn: c.tokensIn, tokensOut: c.tokensOut,
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
      key: (s.rawInput as { __key?: string } | null)?.__key ?? null,
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
              started_at "startedAt", duration_ms "durationMs"
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

function byOrdinal(records: Map<string, EvidenceRecord>): (ordinal: number) => EvidenceRecord | undefined {
  const at = new Map([...records.values()].map((r) => [r.ordinal, r]));
  return (n) => at.get(n);
}
