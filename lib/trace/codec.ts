import { hash } from 'node:crypto';
import { promisify } from 'node:util';
import { deflateRaw, inflateRawSync } from 'node:zlib';

/**
 * The stored form of trace JSON (step inputs and outputs, evidence pools), pure:
 * - an evidence record the run already stored is a reference to its ordinal,
 *   `{"$ev": n}`, and an array of them `{"$evs": [[from, to], …]}`; a copy of
 *   a stored record's id or text is `{"$id": n}` / `{"$tx": n}`;
 * - an array of objects with the same fields (a candidate table, a path pool)
 *   is a table, `{"$t": [field paths], "r": [[values], …]}`, so field names are
 *   stored once and not once per row; a column whose every value is a stored
 *   record's id (text) holds its ordinals, listed in `"$id"` (`"$tx"`) by index
 *   (a ranking's rows are mostly references).
 * - a large value (`storedText`) is `{"$z": base64 of its JSON, deflated}`.
 * `unpack` gives back the value `pack` was given (records as retrieved).
 */

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = Record<string, unknown>;

const isPlain = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const MIN_TABLE_ROWS = 3;

/** An evidence record's id, derived from its run and ordinal (so pools need not store it). UUID-shaped. One-shot hash: a run makes thousands. */
export function evidenceId(runId: string, ordinal: number): string {
  const h = hash('sha1', `${runId}:${ordinal}`, 'hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** What the run already stored: records by identity, and their ids and texts. */
export interface Stored {
  ordinalOf(v: object): number | undefined;
  stringRef?(s: string): { $id: number } | { $tx: number } | undefined;
}

const NOTHING_STORED: Stored = { ordinalOf: () => undefined };

/**
 * The JSON text of a value's stored form. One copy at most: an object or array in which nothing is stored otherwise (no
 * reference, no table) is not copied but written as it is (a run's step bodies are hundreds of kilobytes, and copying
 * all of them was most of what the trace allocated). `omit`: fields left out of each element of a top-level array (a
 * pool's step and record ids). Written at once: a method may change its objects after the step that returned them.
 */
export function packText(value: unknown, stored: Stored = NOTHING_STORED, omit?: ReadonlySet<string>): string {
  return JSON.stringify(omit && Array.isArray(value) ? packRows(value, stored, omit) : pack(value, stored)) ?? 'null';
}

/** `value` as stored, which is `value` itself when nothing in it is stored otherwise. */
function pack(value: unknown, stored: Stored): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return stored.stringRef?.(value) ?? value;
  if (typeof value !== 'object') return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return pack((value as { toJSON(): unknown }).toJSON(), stored);
  const ref = stored.ordinalOf(value);
  if (ref !== undefined) return { $ev: ref };
  if (Array.isArray(value)) {
    const refs = value.length >= 2 ? recordRefs(value, stored) : null;
    if (refs) return { $evs: ranges(refs) };
    const table = value.length >= MIN_TABLE_ROWS ? asTable(value, stored) : null;
    return table ?? packItems(value, stored);
  }
  return packFields(value as Obj, stored);
}

/** The ordinals of an array's items when every one is a stored record; otherwise null. */
function recordRefs(items: unknown[], stored: Stored): number[] | null {
  const refs: number[] = [];
  for (const v of items) {
    const ref = v && typeof v === 'object' ? stored.ordinalOf(v) : undefined;
    if (ref === undefined) return null;
    refs.push(ref);
  }
  return refs;
}

/** An array's items as stored: the array itself unless one of them is stored otherwise (undefined is JSON's null either way). */
function packItems(items: unknown[], stored: Stored): unknown[] {
  let copy: unknown[] | null = null;
  for (let i = 0; i < items.length; i++) {
    const v = items[i];
    const p = v === undefined ? v : pack(v, stored);
    if (p !== v && !copy) copy = items.slice(0, i);
    copy?.push(p);
  }
  return copy ?? items;
}

/** An object's fields as stored (undefined ones left out, as JSON does): the object itself unless one is stored otherwise. `omit`: fields left out. */
function packFields(o: Obj, stored: Stored, omit?: ReadonlySet<string>): Obj {
  let copy: Obj | null = null;
  for (const k in o) {
    if (!Object.hasOwn(o, k)) continue;
    const v = o[k];
    const left = v === undefined || !!omit?.has(k);
    const p = left ? undefined : pack(v, stored);
    if (!copy && (p !== v || omit?.has(k))) {
      copy = {};
      // The fields before this one are as they were.
      for (const before in o) {
        if (before === k) break;
        if (Object.hasOwn(o, before) && o[before] !== undefined) copy[before] = o[before];
      }
    }
    if (copy && !left) copy[k] = p;
  }
  return copy ?? o;
}

/** An array of records (a pool) as stored, `omit` left out of each: one table when they share their fields. */
function packRows(rows: unknown[], stored: Stored, omit: ReadonlySet<string>): unknown {
  const table = rows.length >= MIN_TABLE_ROWS ? asTable(rows, stored, omit) : null;
  return (
    table ??
    rows.map((r) => (isPlain(r) && stored.ordinalOf(r) === undefined && typeof r.toJSON !== 'function' ? packFields(r, stored, omit) : pack(r, stored)))
  );
}

export function unpack(value: unknown, recordAt: (ordinal: number) => { id: string; text: string } | undefined = () => undefined): unknown {
  if (Array.isArray(value)) return value.map((v) => unpack(v, recordAt));
  if (!isPlain(value)) return value;
  if (typeof value.$z === 'string' && Object.keys(value).length === 1)
    return unpack(JSON.parse(inflateRawSync(Buffer.from(value.$z, 'base64')).toString('utf8')), recordAt);
  if (typeof value.$ev === 'number' && Object.keys(value).length === 1) return recordAt(value.$ev) ?? value;
  if (typeof value.$id === 'number' && Object.keys(value).length === 1) return recordAt(value.$id)?.id ?? value;
  if (typeof value.$tx === 'number' && Object.keys(value).length === 1) return recordAt(value.$tx)?.text ?? value;
  if (Array.isArray(value.$evs) && Object.keys(value).length === 1) return expandRanges(value.$evs as [number, number][]).map((n) => recordAt(n) ?? { $ev: n });
  if (isTable(value)) {
    const paths = value.$t;
    // A reference column's cells are ordinals: read as the `{"$id": n}` / `{"$tx": n}` they stand for.
    const refs: (string | undefined)[] = [];
    for (const i of value.$id ?? []) refs[i] = '$id';
    for (const i of value.$tx ?? []) refs[i] = '$tx';
    return value.r.map((row) => {
      const o: Obj = {};
      paths.forEach((p, i) => setPath(o, p, unpack(refs[i] ? { [refs[i]]: row[i] } : row[i], recordAt)));
      return o;
    });
  }
  const out: Obj = {};
  for (const [k, v] of Object.entries(value)) out[k] = unpack(v, recordAt);
  return out;
}

type Table = { $t: string[][]; r: unknown[][]; $id?: number[]; $tx?: number[] };

/** A table as stored: its paths and rows, and which columns hold references (none in traces stored before them). */
function isTable(v: Obj): v is Table {
  if (!Array.isArray(v.$t) || !Array.isArray(v.r)) return false;
  let keys = 0;
  for (const k in v) {
    if (k !== '$t' && k !== 'r' && !((k === '$id' || k === '$tx') && Array.isArray(v[k]))) return false;
    keys++;
  }
  return keys >= 2;
}

/** JSON text longer than this is stored compressed (PostgreSQL's own, weaker, compression starts only at 2 KB). */
const COMPRESS_FROM = 1024;

/** Deflated on libuv's threads: a run's trace writes go on beside its steps, not in their way. */
const deflated = promisify(deflateRaw);

/**
 * A packed value's JSON text as stored while its run goes on: large ones deflated (several times smaller than PostgreSQL's
 * pglz makes them). The fastest level: these texts are kept only until the run's pack takes them over (packBodies).
 * A short one is given at once, not as a promise.
 */
export function storedText(json: string): string | Promise<string> {
  return json.length < COMPRESS_FROM ? json : deflated(json, { level: 1 }).then((z) => `{"$z":"${z.toString('base64')}"}`);
}

/** Rows with the same leaf paths (nested objects flattened) become one table; otherwise null. */
function asTable(rows: unknown[], stored: Stored, omit?: ReadonlySet<string>): Json | null {
  if (!rows.every((r) => isPlain(r) && stored.ordinalOf(r) === undefined)) return null;
  const paths = flatten(rows[0] as Obj, stored.ordinalOf, [], omit).map(([p]) => p);
  if (!paths.length) return null;
  const table: Json[][] = [];
  for (const row of rows as Obj[]) {
    // The other rows are only matched against the first one's paths: a table's rows are many, and most are tables.
    const values = leafValues(row, paths, stored.ordinalOf, omit);
    if (!values) return null;
    for (let i = 0; i < values.length; i++) values[i] = pack(values[i], stored);
    table.push(values as Json[]);
  }
  return withRefColumns({ $t: paths, r: table });
}

/** The table with each column of references of one kind (`$id` or `$tx`) held as their ordinals, its index listed under that kind. */
function withRefColumns(table: { $t: string[][]; r: Json[][] }): Json {
  const refs: Record<'$id' | '$tx', number[]> = { $id: [], $tx: [] };
  for (let i = 0; i < table.$t.length; i++) {
    const kind = refKind(table.r[0][i]);
    if (!kind || !table.r.every((row) => refKind(row[i]) === kind)) continue;
    for (const row of table.r) row[i] = (row[i] as Record<string, number>)[kind];
    refs[kind].push(i);
  }
  return { ...table, ...(refs.$id.length ? { $id: refs.$id } : {}), ...(refs.$tx.length ? { $tx: refs.$tx } : {}) };
}

/** Which reference a packed value is (`{"$id": n}` or `{"$tx": n}`), if one. */
function refKind(v: Json): '$id' | '$tx' | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const kind = typeof v.$id === 'number' ? '$id' : typeof v.$tx === 'number' ? '$tx' : undefined;
  return kind && hasOneField(v) ? kind : undefined;
}

function hasOneField(o: Obj): boolean {
  let n = 0;
  for (const k in o) if (Object.hasOwn(o, k) && ++n > 1) return false;
  return n === 1;
}

/** A nested object whose leaves are flattened into the row (a stored record, an array, a reference or an empty object is a leaf). */
function nests(v: unknown, ordinalOf: (v: object) => number | undefined): v is Obj {
  return isPlain(v) && hasOwnField(v) && ordinalOf(v) === undefined && !('$ev' in v) && !('$t' in v) && !('$id' in v) && !('$tx' in v);
}

function hasOwnField(o: Obj): boolean {
  for (const k in o) if (Object.hasOwn(o, k)) return true;
  return false;
}

/** Leaf paths of a plain object in key order, with their values (`omit`: fields of the object itself left out). */
function flatten(o: Obj, ordinalOf: (v: object) => number | undefined, prefix: string[] = [], omit?: ReadonlySet<string>): [string[], unknown][] {
  const out: [string[], unknown][] = [];
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined || omit?.has(k)) continue;
    if (nests(v, ordinalOf)) out.push(...flatten(v, ordinalOf, [...prefix, k]));
    else out.push([[...prefix, k], v]);
  }
  return out;
}

/** The row's leaf values when its leaf paths (flatten's) are exactly `paths`, in this order; otherwise null. */
function leafValues(row: Obj, paths: string[][], ordinalOf: (v: object) => number | undefined, omit?: ReadonlySet<string>): unknown[] | null {
  const values: unknown[] = [];
  return walkLeaves(row, paths, ordinalOf, values, [], omit) && values.length === paths.length ? values : null;
}

/** leafValues' walk of one (nested) object at `prefix`, adding its leaves to `values`; false at the first path that differs. A function of its own: a closure made per row costs more than the walk (one is made per row of every table). */
function walkLeaves(
  o: Obj,
  paths: string[][],
  ordinalOf: (v: object) => number | undefined,
  values: unknown[],
  prefix: string[],
  omit?: ReadonlySet<string>,
): boolean {
  for (const k in o) {
    if (!Object.hasOwn(o, k)) continue;
    const v = o[k];
    if (v === undefined || omit?.has(k)) continue;
    const path = paths[values.length];
    const depth = prefix.length;
    if (!path || path.length <= depth || path[depth] !== k) return false;
    for (let i = 0; i < depth; i++) if (path[i] !== prefix[i]) return false;
    if (nests(v, ordinalOf)) {
      prefix.push(k);
      if (!walkLeaves(v, paths, ordinalOf, values, prefix)) return false;
      prefix.pop();
    } else {
      if (path.length !== depth + 1) return false;
      values.push(v);
    }
  }
  return true;
}

function setPath(o: Obj, path: string[], v: unknown) {
  let at = o;
  for (const k of path.slice(0, -1)) at = (at[k] ??= {}) as Obj;
  at[path.at(-1)!] = v;
}

function ranges(ns: number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const n of ns) {
    const last = out.at(-1);
    if (last && n === last[1] + 1) last[1] = n;
    else out.push([n, n]);
  }
  return out;
}

function expandRanges(rs: [number, number][]): number[] {
  return rs.flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => a + i));
}

// ---------------------------------------------------------------- prompts

/**
 * Model-call prompts, stored once per run: a run's prompts repeat the same
 * instructions, question, evidence and reasoning so far from call to call, so a
 * prompt line already stored in full by an earlier call of the run is stored
 * as where it is, `[call ordinal, message, line, count]` for `count`
 * consecutive lines. A message with such references keeps its lines as
 * `$c`, the JSON text of its strings and references (as text, PostgreSQL
 * stores and compresses it compactly), and its length as `n`; one without
 * stays as it was. `unpackMessages` gives back every call's messages as sent.
 */
export type LineAt = [call: number, message: number, line: number];
type Piece = string | [number, number, number, number];
type StoredMessage = { role: string; content: string } | { role: string; $c: string; n: number };

/** Lines shorter than this are stored as they are (a reference would not be much smaller). */
const MIN_LINE = 24;

/**
 * One call's messages in stored form. `stored` tells where lines are already
 * stored in full; the lines this call stores in full are added to `added`.
 */
export function packMessages(
  messages: { role: string; content: string }[],
  call: number,
  stored: ReadonlyMap<string, LineAt>,
  added: Map<string, LineAt>,
): Json {
  return messages.map((message, m) => {
    if (typeof message.content !== 'string') return message as unknown as Json;
    const pieces: Piece[] = [];
    let refs = 0;
    message.content.split('\n').forEach((line, l) => {
      const at = line.length >= MIN_LINE ? (stored.get(line) ?? added.get(line)) : undefined;
      if (!at) {
        pieces.push(line);
        if (line.length >= MIN_LINE) added.set(line, [call, m, l]);
        return;
      }
      refs++;
      const last = pieces.at(-1);
      if (Array.isArray(last) && last[0] === at[0] && last[1] === at[1] && last[2] + last[3] === at[2]) last[3]++;
      else pieces.push([at[0], at[1], at[2], 1]);
    });
    const { content, ...rest } = message;
    return (refs ? { ...rest, $c: JSON.stringify(pieces), n: content.length } : message) as unknown as Json;
  });
}

/** Every call's messages as sent, from the stored messages of all the run's calls (references point into earlier calls). */
export function unpackMessages(calls: { ordinal: number; messages: unknown }[]): Map<number, unknown> {
  const byOrdinal = new Map(calls.map((c) => [c.ordinal, c.messages]));
  const lines = new Map<string, (string | LineAt)[]>();
  const linesOf = (call: number, m: number): (string | LineAt)[] => {
    const key = `${call}:${m}`;
    let out = lines.get(key);
    if (!out) {
      const message = (byOrdinal.get(call) as StoredMessage[] | undefined)?.[m];
      out = !message
        ? []
        : '$c' in message
          ? (JSON.parse(message.$c) as Piece[]).flatMap((p): (string | LineAt)[] =>
              typeof p === 'string' ? [p] : Array.from({ length: p[3] }, (_, i): LineAt => [p[0], p[1], p[2] + i]),
            )
          : message.content.split('\n');
      lines.set(key, out);
    }
    return out;
  };
  const text = (call: number, m: number) =>
    linesOf(call, m)
      .map((line) => (typeof line === 'string' ? line : ((linesOf(line[0], line[1])[line[2]] as string | undefined) ?? '')))
      .join('\n');
  return new Map(
    calls.map((c) => [
      c.ordinal,
      Array.isArray(c.messages)
        ? (c.messages as StoredMessage[]).map((message, m) => {
            if (!isPlain(message) || !('$c' in message)) return message;
            const { $c: _c, n: _n, ...rest } = message;
            return { ...rest, content: text(c.ordinal, m) };
          })
        : c.messages,
    ]),
  );
}

// ---------------------------------------------------------------- packs

/**
 * A finished run's trace bodies, stored together: the input, output and pool
 * of its steps and the messages, output and parsed output of its model calls,
 * each in the stored JSON above (before any per-value deflate), in one document
 * deflated as a whole. Steps and calls of a run repeat one another (the same
 * instructions, queries, retrieved records, asides and reasoning so far, in
 * rows each under a kilobyte), which a value deflated on its own cannot see:
 * an EIGEN-1 run's ≈ 740 KB of bodies deflate to ≈ 55 KB.
 */
export interface StepBody {
  input: Json;
  output: Json;
  pool: Json;
}
export interface CallBody {
  messages: Json;
  output: string | null;
  parsed: Json;
}
export interface Pack {
  steps: Map<number, StepBody>;
  calls: Map<number, CallBody>;
}

/** Step bodies by ordinal as JSON texts (null: none). */
export type StepTexts = { input: string | null; output: string | null; pool: string | null };
/** A call's bodies: messages and parsed output as JSON texts, the output as it is. */
export type CallTexts = { messages: string; output: string | null; parsed: string | null };

/** The pack of these bodies (by step and call ordinal), as stored. */
export function packBodies(steps: [number, StepTexts][], calls: [number, CallTexts][]): Promise<Buffer> {
  const json = (t: string | null) => t ?? 'null';
  const pieces: string[] = ['{"steps":['];
  steps.forEach(([o, b], i) => pieces.push(`${i ? ',' : ''}[${o},`, json(b.input), ',', json(b.output), ',', json(b.pool), ']'));
  pieces.push('],"calls":[');
  calls.forEach(([o, c], i) => pieces.push(`${i ? ',' : ''}[${o},`, c.messages, ',', JSON.stringify(c.output), ',', json(c.parsed), ']'));
  pieces.push(']}');
  return deflated(utf8(pieces), { level: 3 });
}

/**
 * The UTF-8 of the pieces one after another, written into one buffer: the same bytes as their joined text's, without
 * the joined text (a run's bodies are hundreds of kilobytes, copied once more into a string only to be encoded, and
 * that copy was a tenth of what a run's trace allocated).
 */
function utf8(pieces: string[]): Buffer {
  let size = 0;
  for (const p of pieces) size += Buffer.byteLength(p);
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const p of pieces) at += out.write(p, at);
  return out;
}

/** The bodies a stored pack holds. */
export function unpackBodies(body: Buffer): Pack {
  const doc = JSON.parse(inflateRawSync(body).toString('utf8')) as { steps: [number, Json, Json, Json][]; calls: [number, Json, string | null, Json][] };
  return {
    steps: new Map(doc.steps.map(([o, input, output, pool]) => [o, { input, output, pool }])),
    calls: new Map(doc.calls.map(([o, messages, output, parsed]) => [o, { messages, output, parsed }])),
  };
}
