import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, getPool } from '@/lib/db/client';
import type { RunRecord } from '@/lib/runs/read';
import { runToSuccess } from '../support/runs';

afterAll(closeDb);

const promptOf = (run: RunRecord, template: string) => (run.modelCalls.find((c) => c.template === template)!.messages as { content: string }[])[1].content;

async function kgCount(anchorKind: string, anchorName: string, metaedge: string, otherKind: string): Promise<number> {
  const { rows } = await getPool().query<{ n: string }>(
    `select count(distinct o.id) as n from edges e
       join nodes a on a.id in (e.source_id, e.target_id) and a.kind = $1 and a.name = $2
       join nodes o on o.id in (e.source_id, e.target_id) and o.id <> a.id and o.kind = $4
      where e.metaedge = $3`,
    [anchorKind, anchorName, metaedge, otherKind],
  );
  return Number(rows[0].n);
}

// The complete answer set is an aid (docs/aids.md): the run has the aids on.
describe('a count question gets its complete answer set as one cited unit', () => {
  let run: RunRecord;
  let count: number;
  beforeAll(async () => {
    run = await runToSuccess({ method: 'kg-rag', question: 'How many compounds treat prostate cancer?', params: { topK: 5 }, switches: { aids: true } });
    count = await kgCount('Disease', 'prostate cancer', 'CtD', 'Compound');
  });

  it('records one set unit whose size equals the KG count, shown once under one citation id', () => {
    expect(count).toBeGreaterThan(5);
    const sets = run.evidence.filter((e) => e.kind === 'set');
    expect(sets).toHaveLength(1);
    const [set] = sets;
    expect((set.data as { count: number }).count).toBe(count);
    expect(set.text).toContain(`${count} Compounds with Compound –treats→ prostate cancer`);
    expect(set.selected).toBe(true);
    expect(set.channel).toBe('aids');
    const prompt = promptOf(run, 'kg-rag.answer');
    expect(prompt.split(`[${set.cite}]`)).toHaveLength(2);
  });

  it('carries the edges joining each member to the anchor, so the offline answer counts the whole set, not the top K', () => {
    const [set] = run.evidence.filter((e) => e.kind === 'set');
    const triples = (set.data as { triples: { metaedge: string; targetName: string; sourceId: string }[] }).triples;
    expect(new Set(triples.map((t) => t.sourceId)).size).toBe(count);
    expect(triples.every((t) => t.metaedge === 'CtD' && t.targetName === 'prostate cancer')).toBe(true);
    expect((run.answer as { text: string }).text).toBe(String(count));
  });
});

// The paper's KG-RAG (aids off): the top K triples as retrieved, each under its channel's short id.
describe("a count question's top K facts, as KG-RAG renders them", () => {
  let run: RunRecord;
  beforeAll(async () => {
    run = await runToSuccess({ method: 'kg-rag', question: 'How many compounds treat prostate cancer?', params: { topK: 5 } });
  });

  it('says how much of the neighbourhood the top K shows', () => {
    expect(promptOf(run, 'kg-rag.answer')).toMatch(/Knowledge graph facts \(showing 5 of \d+ retrieved/);
  });

  it('writes every triple in the metaedge direction and cites each fact by one short id', () => {
    const prompt = promptOf(run, 'kg-rag.answer');
    expect(prompt).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    for (const e of run.evidence.filter((x) => x.kind === 'triple' && x.selected)) {
      expect(e.text).toMatch(/\(Compound\) –[a-z ]+→ prostate cancer \(Disease\)|^prostate cancer \(Disease\) –[a-z ]+→/);
      expect(prompt).toContain(`[${e.cite}] ${e.text}`);
    }
    const cites = run.evidence.map((e) => e.cite);
    expect(cites.every((c) => /^[KDEWP][1-9]\d*$/.test(c))).toBe(true);
  });
});
