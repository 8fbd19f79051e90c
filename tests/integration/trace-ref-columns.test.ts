import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, getPool } from '@/lib/db/client';
import { executeRun } from '@/lib/runs/executor';
import { exportRun } from '@/lib/runs/export';
import { createRun } from '@/lib/runs/service';
import { packBodies, unpackBodies, type Json } from '@/lib/trace/codec';

afterAll(closeDb);

type Table = { $t: Json[]; r: Json[][]; $id?: number[]; $tx?: number[] };
const isRefTable = (v: Json): v is Table & Json =>
  !!v && typeof v === 'object' && !Array.isArray(v) && Array.isArray(v.$t) && Array.isArray(v.r) && (Array.isArray(v.$id) || Array.isArray(v.$tx));

/** A stored body as traces were stored before reference columns: each reference its own `{"$id": n}` / `{"$tx": n}` cell. */
function withoutRefColumns(v: Json): Json {
  if (Array.isArray(v)) return v.map(withoutRefColumns);
  if (!v || typeof v !== 'object') return v;
  if (isRefTable(v)) {
    const kinds: string[] = [];
    for (const i of v.$id ?? []) kinds[i] = '$id';
    for (const i of v.$tx ?? []) kinds[i] = '$tx';
    return { $t: v.$t, r: v.r.map((row) => row.map((cell, i) => (kinds[i] ? { [kinds[i]]: cell } : withoutRefColumns(cell)))) };
  }
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withoutRefColumns(x)]));
}

const text = (v: Json) => (v === null ? null : JSON.stringify(v));

describe('reference columns in stored tables', () => {
  it("give an EIGEN-1 run's export exactly as the same trace stored with a reference per cell does", async () => {
    const { id } = await createRun(
      { method: 'eigen1', question: 'Which disease is treated by metformin and is associated with the gene PPARG?', backend: 'offline' },
      { enqueue: false },
    );
    await executeRun(id);
    const pool = getPool();
    const packs = (await pool.query<{ seq: number; body: Buffer }>('select seq, body from trace_packs where run_id = $1 order by seq', [id])).rows;
    expect(packs.length).toBeGreaterThan(0);
    // The rankings' id columns are stored as ordinals.
    const stored = packs.map((p) => unpackBodies(p.body));
    expect(stored.some((p) => [...p.steps.values()].some((s) => JSON.stringify(s.output).includes('"$id":[')))).toBe(true);

    const before = await exportRun({ id });
    for (const [i, p] of stored.entries()) {
      const body = await packBodies(
        [...p.steps].map(([o, s]) => [
          o,
          { input: text(withoutRefColumns(s.input)), output: text(withoutRefColumns(s.output)), pool: text(withoutRefColumns(s.pool)) },
        ]),
        [...p.calls].map(([o, c]) => [o, { messages: JSON.stringify(c.messages), output: c.output, parsed: text(c.parsed) }]),
      );
      await pool.query('update trace_packs set body = $3 where run_id = $1 and seq = $2', [id, packs[i].seq, body]);
    }
    const rewritten = (await pool.query<{ body: Buffer }>('select body from trace_packs where run_id = $1', [id])).rows;
    expect(rewritten.every((p) => !JSON.stringify([...unpackBodies(p.body).steps.values()]).includes('"$id":['))).toBe(true);
    const after = await exportRun({ id });
    expect({ ...after, exportedAt: null }).toEqual({ ...before, exportedAt: null });
  });
});
