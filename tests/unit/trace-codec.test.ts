import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { evidenceId, packBodies, packMessages, packText, storedText, unpack, unpackBodies, unpackMessages, type LineAt, type Stored } from '@/lib/trace/codec';

type Rec = { id: string; ordinal: number; text: string };
const roundTrip = (v: unknown, stored?: Stored, recordAt?: (n: number) => Rec | undefined) => unpack(JSON.parse(packText(v, stored)), recordAt);

describe('trace codec', () => {
  it('gives back any JSON value it packs', () => {
    const values = [
      null,
      3,
      'x',
      [],
      {},
      [1, 2, 3],
      { a: [{ b: 1 }, { b: 2 }] },
      // A candidate table: uniform rows with nested objects, nulls, arrays and empty objects.
      Array.from({ length: 6 }, (_, i) => ({ id: `c${i}`, rank: i < 2 ? i + 1 : null, triple: { source: `g${i}`, ends: [i, i + 1] }, extra: {} })),
      // Rows that differ in shape stay rows.
      [{ a: 1 }, { a: 1, b: 2 }, { b: 3 }],
      [
        { a: 1, n: { x: 1 } },
        { a: 2, n: { y: 1 } },
        { a: 3, n: { x: 2 } },
      ],
    ];
    for (const v of values) expect(roundTrip(v)).toEqual(v);
    expect(roundTrip({ a: undefined, b: [undefined, 1] })).toEqual({ b: [null, 1] });
  });

  it('writes a value in which nothing is stored otherwise as JSON writes it, and a pool without its ids', () => {
    const plain = { a: [1, 'two', null, { b: undefined, c: true }], d: { e: 'x'.repeat(40), n: Number.NaN }, f: undefined };
    expect(packText(plain)).toBe(JSON.stringify(plain));
    const pool = Array.from({ length: 4 }, (_, i) => ({ id: `e${i}`, stepId: 's', ordinal: i, text: `t${i}`, data: { hop: i } }));
    const back = unpack(JSON.parse(packText(pool, undefined, new Set(['id', 'stepId']))));
    expect(back).toEqual(pool.map(({ id: _i, stepId: _s, ...r }) => r));
    expect(unpack(JSON.parse(packText(pool.slice(0, 2), undefined, new Set(['id', 'stepId']))))).toEqual(
      pool.slice(0, 2).map(({ id: _i, stepId: _s, ...r }) => r),
    );
  });

  it('stores a table with its field names once', () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({ relation: 'associates', similarity: i / 50, nested: { sourceName: `gene ${i}` } }));
    const stored = packText(rows);
    expect(stored.split('sourceName')).toHaveLength(2);
    expect(stored.length).toBeLessThan(JSON.stringify(rows).length * 0.6);
  });

  it('stores records the run already holds as references and gives them back', () => {
    const records = Array.from({ length: 5 }, (_, i) => ({ id: `e${i}`, ordinal: 10 + i, text: `record ${i}` }));
    const stored: Stored = {
      ordinalOf: (o) => (records.includes(o as Rec) ? (o as Rec).ordinal : undefined),
      stringRef: (s) => {
        const r = records.find((x) => x.id === s || x.text === s);
        return r && (r.id === s ? { $id: r.ordinal } : { $tx: r.ordinal });
      },
    };
    const recordAt = (n: number) => records.find((r) => r.ordinal === n);
    // Copies of a record's id and text (a ranking table that repeats them) are references too.
    const value = {
      all: records,
      some: [records[3], records[1]],
      one: records[2],
      mixed: [records[0], { text: 'new' }],
      copies: records.map((r) => ({ id: r.id, text: r.text, score: 1 })),
    };
    const packed = packText(value, stored);
    expect(packed).not.toContain('record 1');
    expect(packed).not.toContain('"e1"');
    expect(roundTrip(value, stored, recordAt)).toEqual(value);
  });

  it('stores a table column of record ids (texts) as their ordinals, and reads tables stored before such columns', () => {
    const records = Array.from({ length: 6 }, (_, i) => ({ id: `evidence-${i}-0000000000`, ordinal: 20 + i, text: `the text of record ${i}` }));
    const stored: Stored = {
      ordinalOf: () => undefined,
      stringRef: (s) => {
        const r = records.find((x) => x.id === s || x.text === s);
        return r && (r.id === s ? { $id: r.ordinal } : { $tx: r.ordinal });
      },
    };
    const recordAt = (n: number) => records.find((r) => r.ordinal === n);
    const ranking = records.map((r, i) => ({ id: r.id, text: r.text, sim: 1 / (i + 1), note: i === 2 ? records[0].id : 'not a record' }));
    const packed = JSON.parse(packText(ranking, stored)) as { r: unknown[][]; $id: number[]; $tx: number[] };
    expect(packed.$id).toEqual([0]);
    expect(packed.$tx).toEqual([1]);
    expect(packed.r[0].slice(0, 2)).toEqual([20, 20]);
    // A column with one reference among other values keeps it as a reference.
    expect(packed.r[2][3]).toEqual({ $id: 20 });
    expect(unpack(packed, recordAt)).toEqual(ranking);
    const before = {
      $t: [['id'], ['sim']],
      r: [
        [{ $id: 21 }, 0.5],
        [{ $id: 22 }, 0.25],
      ],
    };
    expect(unpack(before, recordAt)).toEqual([
      { id: records[1].id, sim: 0.5 },
      { id: records[2].id, sim: 0.25 },
    ]);
  });

  it('derives a stable UUID-shaped evidence id from the run and ordinal', () => {
    expect(evidenceId('run1', 0)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(evidenceId('run1', 0)).toBe(evidenceId('run1', 0));
    expect(new Set([evidenceId('run1', 0), evidenceId('run1', 1), evidenceId('run2', 0)]).size).toBe(3);
  });

  it("stores a run's prompt lines once: later calls refer to them, and every call's messages come back as sent", () => {
    const system = 'You answer biomedical questions from the evidence given.\nCite every fact you use by its id.';
    const evidence = Array.from({ length: 30 }, (_, i) => `[K${i}] gene ${i} – associates – multiple sclerosis`).join('\n');
    const calls = [
      [
        { role: 'system', content: system },
        { role: 'user', content: `Question: which genes?\n${evidence}` },
      ],
      [
        { role: 'system', content: system },
        { role: 'user', content: `Question: which genes?\n${evidence}\nshort\n` },
        { role: 'assistant', content: 'Reasoning so far, long enough to count.' },
      ],
      // Proposers in parallel: written in one batch, the second refers to the first; a line repeated within one message, and one shorter than a reference.
      [{ role: 'user', content: `${evidence}\nReasoning so far, long enough to count.\nReasoning so far, long enough to count.\nok` }],
      [{ role: 'user', content: 'nothing in common with the others at all' }],
    ];
    const stored = new Map<string, LineAt>();
    const packed = calls.map((messages, ordinal) => {
      const added = new Map<string, LineAt>();
      const out = JSON.parse(JSON.stringify(packMessages(messages, ordinal, stored, added)));
      for (const [line, at] of added) stored.set(line, at);
      return { ordinal, messages: out };
    });
    // Written in any order, read back the same.
    const back = unpackMessages([...packed].reverse());
    calls.forEach((messages, ordinal) => expect(back.get(ordinal)).toEqual(messages));
    // The evidence block is stored once; the calls after refer to it (one reference for the 30 lines).
    const text = JSON.stringify(packed);
    expect(text.split('gene 7 – associates')).toHaveLength(2);
    expect(JSON.stringify(packed[1].messages).length).toBeLessThan(JSON.stringify(calls[1]).length / 5);
    // A message with no line stored before stays as it was.
    expect(packed[3].messages).toEqual(calls[3]);
  });

  it('stores large values compressed and small ones as they are, and unpacks both', async () => {
    const small = { found: 1, note: 'short' };
    const large = {
      reasoning: Array.from({ length: 200 }, (_, i) => `Step ${i}: gene ${i % 7} is associated with multiple sclerosis.`).join(' '),
      rows: [1, 2, 3],
    };
    expect(JSON.parse(await storedText(JSON.stringify(small)))).toEqual(small);
    const stored = JSON.parse(await storedText(JSON.stringify(large)));
    expect(Object.keys(stored)).toEqual(['$z']);
    expect(JSON.stringify(stored).length).toBeLessThan(JSON.stringify(large).length / 4);
    expect(unpack(stored)).toEqual(large);
  });

  it("packs a run's bodies together: each step's and call's bodies come back as they were, repeats across rows cost little", async () => {
    const query = 'pharmacologic classes that include Emtricitabine';
    const retrieval = (i: number) => ({
      query,
      records: { $evs: [[i, i + 1]] },
      similarity: { kind: 'lexical', measure: 'BM25 of the text over the BM25 of a text holding every query term, capped at 1' },
    });
    const steps = Array.from({ length: 40 }, (_, i): [number, { input: string | null; output: string | null; pool: string | null }] => [
      i,
      {
        input: JSON.stringify({ query, __key: `/eigen1.proposer:Proposer ${i % 5}#0/eigen1.retrieval:Retrieve#${i}` }),
        output: i === 39 ? null : JSON.stringify(retrieval(i)),
        pool: i % 10 ? null : JSON.stringify([{ ref: `edge:${i}`, text: 'Nucleoside Analog includes Emtricitabine' }]),
      },
    ]);
    const calls = Array.from({ length: 10 }, (_, i): [number, { messages: string; output: string | null; parsed: string | null }] => [
      i,
      {
        messages: JSON.stringify([{ role: 'user', content: `Query: ${query}\nRound ${i}` }]),
        output: i === 9 ? null : `Wait a minute, by searching ${query} I found ${i}`,
        parsed: i % 2 ? JSON.stringify({ $parsedIsOutput: true }) : null,
      },
    ]);
    const body = await packBodies(steps, calls);
    const back = unpackBodies(body);
    for (const [o, t] of steps)
      expect(back.steps.get(o)).toEqual({
        input: JSON.parse(t.input!),
        output: t.output === null ? null : JSON.parse(t.output),
        pool: t.pool === null ? null : JSON.parse(t.pool),
      });
    for (const [o, c] of calls)
      expect(back.calls.get(o)).toEqual({ messages: JSON.parse(c.messages), output: c.output, parsed: c.parsed === null ? null : JSON.parse(c.parsed) });
    const raw = [...steps.flatMap(([, t]) => [t.input, t.output, t.pool]), ...calls.flatMap(([, c]) => [c.messages, c.output, c.parsed])].join('').length;
    expect(body.length).toBeLessThan(raw / 10);
  });

  it("stores a pack as its document's UTF-8, whatever the bodies' characters (two-byte, astral, a lone surrogate)", async () => {
    const texts = ['{"a":"plain"}', '{"b":"≈ 0.4–0.7 µg"}', '{"c":"🧬 DNA"}', JSON.stringify({ d: 'x\ud800y' }), 'null'];
    const steps = texts.map((t, i): [number, { input: string | null; output: string | null; pool: string | null }] => [
      i,
      { input: t, output: i % 2 ? null : t, pool: null },
    ]);
    const calls: [number, { messages: string; output: string | null; parsed: string | null }][] = [
      [0, { messages: JSON.stringify([{ role: 'user', content: 'Δ 🧬' }]), output: 'answer — “quoted” \udc00', parsed: null }],
    ];
    const doc = `{"steps":[${steps.map(([o, b]) => `[${o},${b.input ?? 'null'},${b.output ?? 'null'},${b.pool ?? 'null'}]`).join(',')}],"calls":[${calls
      .map(([o, c]) => `[${o},${c.messages},${JSON.stringify(c.output)},${c.parsed ?? 'null'}]`)
      .join(',')}]}`;
    expect(inflateRawSync(await packBodies(steps, calls)).equals(Buffer.from(doc, 'utf8'))).toBe(true);
    expect(inflateRawSync(await packBodies([], [])).toString('utf8')).toBe('{"steps":[],"calls":[]}');
  });
});
