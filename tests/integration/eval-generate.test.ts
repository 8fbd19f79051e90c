import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, getPool } from '../../lib/db/client';
import { generateBiomedhop, generateBiomedhopSet, generateK2vSet, runBundles, type GeneratedQuestion, type QuestionPattern } from '../../lib/eval/generate';
import { getQuestionSet } from '../../lib/eval/sets';
import { normaliseAnswer } from '../../lib/eval/normalise';
import { run as generateCli } from '../../scripts/cli/generate';
import { neighbors, type KgPath, type MetapathHop } from '../../lib/kg';
import { fillers } from '../../lib/eval/generate/k2v';

/**
 * The generators are checked against the KG with SQL written here, independent
 * of the KG library they use: every unique answer, every count, every gold edge
 * and every distractor is re-derived from the edges table.
 */

afterAll(closeDb);

async function query<T extends object>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await getPool().query<T>(sql, params)).rows;
}

/** Node ids one hop from `from` over a metaedge, walked as the hop says ('out': `from` is the edge's source). */
function stepSql(from: string, hop: MetapathHop, param: number): string {
  const out = `select e.target_id as id from edges e where e.metaedge = $${param} and e.source_id in (${from})`;
  const inn = `select e.source_id as id from edges e where e.metaedge = $${param} and e.target_id in (${from})`;
  return hop.direction === 'out' ? out : hop.direction === 'in' ? inn : `${out} union ${inn}`;
}

/** Whether `name` appears in `text` as whole words (case and punctuation aside). */
function namesWhole(text: string, name: string): boolean {
  const words = (s: string) =>
    ` ${normaliseAnswer(s)
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim()} `;
  return words(text).includes(words(name));
}

const flip = (h: MetapathHop): MetapathHop => ({ metaedge: h.metaedge, direction: h.direction === 'out' ? 'in' : h.direction === 'in' ? 'out' : 'both' });

/** Every node id the pattern admits, from the whole edges table. */
async function answersFromSql(pattern: QuestionPattern): Promise<string[]> {
  switch (pattern.kind) {
    case 'shared_neighbor': {
      const [a, b] = pattern.anchorIds;
      const side = (p: number) =>
        `select case when e.source_id = $${p} then e.target_id else e.source_id end as id from edges e where e.metaedge = $1 and (e.source_id = $${p} or e.target_id = $${p})`;
      const rows = await query<{ id: string }>(
        `select s.id from ((${side(2)}) intersect (${side(3)})) s join nodes n on n.id = s.id where n.kind = $4 order by s.id`,
        [pattern.metaedge, a, b, pattern.answerKind],
      );
      return rows.map((r) => r.id);
    }
    case 'intersection': {
      const params: unknown[] = [pattern.answerKind];
      const sides = pattern.clues.map((c) => {
        params.push(c.nodeId, c.metaedge);
        const [node, me] = [params.length - 1, params.length];
        return `(select case when e.source_id = $${node} then e.target_id else e.source_id end as id from edges e where e.metaedge = $${me} and (e.source_id = $${node} or e.target_id = $${node}))`;
      });
      const rows = await query<{ id: string }>(
        `select s.id from (${sides.join(' intersect ')}) s join nodes n on n.id = s.id where n.kind = $1 order by s.id`,
        params,
      );
      return rows.map((r) => r.id);
    }
    case 'hidden_middle': {
      const [h0, h1, h2, h3] = pattern.metapath;
      const forward = stepSql(stepSql('select $1::text', h0, 3), h1, 4);
      const backward = stepSql(stepSql('select $2::text', flip(h3), 6), flip(h2), 5);
      const rows = await query<{ id: string }>(
        `select id from (${forward}) f where id <> $1 intersect select id from (${backward}) b where id <> $2 order by id`,
        [pattern.startId, pattern.endId, h0.metaedge, h1.metaedge, h2.metaedge, h3.metaedge],
      );
      return rows.map((r) => r.id);
    }
    default:
      throw new Error(`no SQL for ${pattern.kind}`);
  }
}

async function expectGoldEdgesInKg(q: GeneratedQuestion) {
  const ids = q.goldGraph.edges.map((e) => e.id);
  const rows = await query<{ id: number; source_id: string; metaedge: string; target_id: string }>(
    'select id, source_id, metaedge, target_id from edges where id = any($1::int[])',
    [ids],
  );
  expect(rows.map((r) => ({ id: r.id, sourceId: r.source_id, metaedge: r.metaedge, targetId: r.target_id })).sort((a, b) => a.id - b.id)).toEqual(
    [...q.goldGraph.edges].sort((a, b) => a.id - b.id),
  );
}

describe('BioMedHop-style generator', () => {
  const SEED = 'eval-test-1';
  const COUNT = 24;
  let questions: GeneratedQuestion[];

  beforeAll(async () => {
    questions = await generateBiomedhopSet({ seed: SEED, count: COUNT });
  });

  it('is reproducible: the same seed and count give the identical set, another seed another', async () => {
    expect(await generateBiomedhopSet({ seed: SEED, count: COUNT })).toEqual(questions);
    const other = await generateBiomedhopSet({ seed: 'eval-test-2', count: 8 });
    expect(other.map((q) => q.text)).not.toEqual(questions.slice(0, 8).map((q) => q.text));
  });

  it('covers every family and rendering, in several phrasings', () => {
    expect(questions).toHaveLength(COUNT);
    const grid = new Set(questions.map((q) => `${q.family}/${q.answerType}`));
    expect([...grid].sort()).toEqual([
      'count/count',
      'intersection/mcq',
      'intersection/open',
      'path/mcq',
      'path/open',
      'shared_neighbor/mcq',
      'shared_neighbor/open',
    ]);
    for (const family of ['shared_neighbor', 'intersection', 'path', 'count']) {
      const templates = new Set(questions.filter((q) => q.family === family).map((q) => q.meta.template));
      expect(templates.size, `${family} phrasings`).toBeGreaterThan(1);
    }
    expect(new Set(questions.map((q) => q.text)).size).toBe(COUNT);
  });

  it('gives every single-answer question the unique answer the KG admits', async () => {
    for (const q of questions.filter((q) => q.answerType !== 'count')) {
      const fromSql = await answersFromSql(q.meta.pattern);
      expect(fromSql, q.text).toEqual(q.answer.nodeIds);
      const [node] = await query<{ name: string; kind: string }>('select name, kind from nodes where id = $1', [fromSql[0]]);
      expect(q.answer.text).toBe(node.name);
      expect(namesWhole(q.text, node.name), q.text).toBe(false);
    }
  });

  it('gives every count the size of the closed set the KG admits, with the set behind it', async () => {
    const counts = questions.filter((q) => q.answerType === 'count');
    expect(counts.length).toBeGreaterThan(0);
    for (const q of counts) {
      const fromSql = await answersFromSql(q.meta.pattern);
      expect(q.answer.count, q.text).toBe(fromSql.length);
      expect([...q.answer.nodeIds].sort()).toEqual(fromSql);
      expect(q.answer.list).toHaveLength(fromSql.length);
    }
  });

  it('stores gold graphs whose edges are KG edges joining the gold nodes', async () => {
    for (const q of questions) {
      await expectGoldEdgesInKg(q);
      const ids = new Set(q.goldGraph.nodes.map((n) => n.id));
      for (const e of q.goldGraph.edges) expect(ids.has(e.sourceId) && ids.has(e.targetId)).toBe(true);
      const answers = q.goldGraph.nodes.filter((n) => n.role === 'answer').map((n) => n.id);
      expect(answers.sort()).toEqual([...q.answer.nodeIds].sort());
    }
  });

  it('takes open-answer aliases from node_aliases', async () => {
    for (const q of questions.filter((q) => q.answer.aliases.length)) {
      const rows = await query<{ alias: string }>('select alias from node_aliases where node_id = $1', [q.answer.nodeIds[0]]);
      const known = new Set(rows.map((r) => r.alias));
      for (const alias of q.answer.aliases) expect(known.has(alias)).toBe(true);
    }
  });

  it('offers five options whose distractors are of the answer kind and are not answers in the KG', async () => {
    const mcqs = questions.filter((q) => q.answerType === 'mcq');
    expect(mcqs.length).toBeGreaterThan(0);
    for (const q of mcqs) {
      expect(Object.keys(q.options!)).toEqual(['A', 'B', 'C', 'D', 'E']);
      expect(q.options![q.answer.key!]).toBe(q.answer.text);
      const distractorIds = q.meta.distractorIds as string[];
      expect(distractorIds).toHaveLength(4);
      const nodes = await query<{ id: string; kind: string; name: string }>('select id, kind, name from nodes where id = any($1::text[])', [distractorIds]);
      const [answer] = await query<{ kind: string }>('select kind from nodes where id = $1', [q.answer.nodeIds[0]]);
      expect(nodes.map((n) => n.kind)).toEqual(nodes.map(() => answer.kind));
      expect(nodes.map((n) => n.name).sort()).toEqual(
        Object.values(q.options!)
          .filter((o) => o !== q.answer.text)
          .sort(),
      );
      const valid = new Set(await answersFromSql(q.meta.pattern));
      for (const id of distractorIds) expect(valid.has(id), `${id} is a valid answer to: ${q.text}`).toBe(false);
    }
  });

  it('never offers a distractor joined to every anchor or clue by some edge', async () => {
    for (const q of questions.filter((q) => q.answerType === 'mcq' && q.family !== 'path')) {
      const named = q.goldGraph.nodes.filter((n) => n.role === 'anchor' || n.role === 'clue').map((n) => n.id);
      for (const id of q.meta.distractorIds as string[]) {
        const [{ n }] = await query<{ n: number }>(
          `select count(distinct a)::int as n from unnest($2::text[]) a
            where exists (select 1 from edges e where (e.source_id = $1 and e.target_id = a) or (e.source_id = a and e.target_id = $1))`,
          [id, named],
        );
        expect(n).toBeLessThan(named.length);
      }
    }
  });

  it('generates only the families and renderings asked for', async () => {
    const only = await generateBiomedhopSet({ seed: SEED, count: 4, families: ['shared_neighbor', 'count'], renderings: ['open', 'count'] });
    expect(only.map((q) => `${q.family}/${q.answerType}`)).toEqual(['shared_neighbor/open', 'count/count', 'shared_neighbor/open', 'count/count']);
    await expect(generateBiomedhopSet({ seed: SEED, count: 2, families: ['count'], renderings: ['mcq'] })).rejects.toThrow(/count-only/);
  });

  it('gives each question the doc and web bundles of its condition: what each passage or record states is re-checked here', async () => {
    const spellings = async (id: string) => [
      ...(await query<{ name: string }>('select name from nodes where id = $1', [id])).map((r) => r.name),
      ...(await query<{ alias: string }>('select alias from node_aliases where node_id = $1 and length(alias) >= 4', [id])).map((r) => r.alias),
    ];
    const namesOne = (text: string, names: string[]) => names.some((n) => namesWhole(text, n));
    for (const q of questions) {
      const evidence = q.evidence!;
      expect(evidence.condition).toEqual(['kg', 'doc', 'web']);
      const edges = new Map(q.goldGraph.edges.map((e) => [e.id, e]));
      expect(evidence.coverage.hops).toEqual(q.goldGraph.edges.map((e) => e.id));
      for (const p of evidence.doc!.passages) {
        const [row] = await query<{ text: string; source: string }>(
          'select p.text, d.source from passages p join documents d on d.id = p.document_id where p.id = $1',
          [p.passageId],
        );
        expect(['question', 'attached']).not.toContain(row.source);
        for (const id of p.states) {
          const edge = edges.get(id)!;
          expect(namesOne(row.text, await spellings(edge.sourceId)) && namesOne(row.text, await spellings(edge.targetId)), `${p.passageId} states ${id}`).toBe(
            true,
          );
        }
      }
      for (const r of evidence.web!.records) {
        for (const id of r.states) {
          const edge = edges.get(id)!;
          const named = [namesOne(r.snippet, await spellings(edge.sourceId)), namesOne(r.snippet, await spellings(edge.targetId))];
          expect(named.some(Boolean), `${r.id} states ${id}`).toBe(true);
        }
      }
      const stated = (items: { states: number[] }[]) => [...new Set(items.flatMap((i) => i.states))].sort((a, b) => a - b);
      expect(evidence.coverage.doc).toEqual(stated(evidence.doc!.passages));
      expect(evidence.coverage.web).toEqual(stated(evidence.web!.records));
      const uncovered = !evidence.coverage.doc!.length || !evidence.coverage.web!.length;
      expect(evidence.coverage.status === 'uncovered').toBe(uncovered);
    }
    // The corpus (1,000 PubMedQA abstracts) names few of Hetionet's entities, but some questions get passages.
    expect(questions.some((q) => q.evidence!.doc!.passages.length)).toBe(true);
  });

  it('reports coverage, and a KG-only condition carries no text bundle, so its runs are served none', async () => {
    const { questions: kgOnly, report } = await generateBiomedhop({ seed: SEED, count: 4, sources: ['kg'] });
    expect(kgOnly.map((q) => q.text)).toEqual(questions.slice(0, 4).map((q) => q.text));
    for (const q of kgOnly) {
      expect(q.evidence).toMatchObject({ condition: ['kg'], doc: null, web: null, coverage: { status: 'kg-only' } });
      expect(runBundles(q.evidence)).toEqual({ docBundle: [], webBundle: [] });
    }
    expect(report).toMatchObject({ condition: ['kg'], questions: 4, status: { 'kg-only': 4 }, doc: null, web: null, rejected: {} });
    const hybrid = runBundles(questions[0].evidence);
    expect(hybrid.docBundle).toEqual(questions[0].evidence!.doc!.passages.map((p) => p.passageId));
    expect(hybrid.webBundle.map((r) => Object.keys(r).sort())).toEqual(
      hybrid.webBundle.map((r) => (r.url ? ['id', 'snippet', 'title', 'url'] : ['id', 'snippet', 'title'])),
    );
    expect(runBundles(null)).toEqual({ docBundle: null, webBundle: [] });
  });

  it('with coverage required, every text source of the condition states a hop of every question, rejections counted', async () => {
    const opts = { seed: SEED, count: 4, families: ['shared_neighbor', 'intersection'] as const, renderings: ['open'] as const, coverage: 'require' as const };
    const { questions: covered, report } = await generateBiomedhop({ ...opts, sources: ['kg', 'doc'] });
    for (const q of covered) {
      expect(q.evidence!.coverage.doc!.length, q.text).toBeGreaterThan(0);
      expect(q.evidence!.coverage.status).not.toBe('uncovered');
    }
    expect(report).toMatchObject({
      condition: ['kg', 'doc'],
      policy: 'require',
      questions: 4,
      status: { uncovered: 0 },
      doc: { questionsCovered: 4 },
      web: null,
    });
    expect(Object.values(report.rejected).every((n) => n > 0)).toBe(true);
  });
});

describe('K2V question synthesis', () => {
  let questions: GeneratedQuestion[];

  beforeAll(async () => {
    questions = await generateK2vSet({ seed: 'k2v-test', count: 15 });
  });

  it('is reproducible per seed', async () => {
    expect(await generateK2vSet({ seed: 'k2v-test', count: 15 })).toEqual(questions);
  });

  it('masks one entity of a 2-hop KG path and never names it in the question', async () => {
    for (const q of questions) {
      expect(q.text).toContain('____');
      expect(q.answerType).toBe('open');
      const pattern = q.meta.pattern as Extract<QuestionPattern, { kind: 'k2v' }>;
      const masked = q.goldGraph.nodes[pattern.maskedIndex];
      expect(q.family).toBe(`mask_e${pattern.maskedIndex + 1}`);
      expect(masked.role).toBe('answer');
      expect(q.answer.nodeIds).toEqual([masked.id]);
      expect(q.answer.text).toBe(masked.name);
      for (const spelling of [masked.name, ...q.answer.aliases].filter((s) => s.length >= 3)) expect(namesWhole(q.text, spelling), q.text).toBe(false);
    }
  });

  it('keeps the gold path: its edges exist and chain the three entities', async () => {
    for (const q of questions) {
      await expectGoldEdgesInKg(q);
      const [e1, e2, e3] = q.goldGraph.nodes.map((n) => n.id);
      const [r1, r2] = q.goldGraph.edges;
      expect([r1.sourceId, r1.targetId].sort()).toEqual([e1, e2].sort());
      expect([r2.sourceId, r2.targetId].sort()).toEqual([e2, e3].sort());
      expect(q.goldGraph.edges.map((e) => e.metaedge)).toEqual((q.meta.pattern as { metapath: MetapathHop[] }).metapath.map((h) => h.metaedge));
    }
  });
});

describe('K2V answer uniqueness', () => {
  it('keeps only questions whose blank no other KG entity fills: the masked node is the one filler', async () => {
    const questions = await generateK2vSet({ seed: 'k2v-unique', count: 8 });
    for (const q of questions) {
      const pattern = q.meta.pattern as Extract<QuestionPattern, { kind: 'k2v' }>;
      const path = { nodes: q.goldGraph.nodes, edges: q.goldGraph.edges } as unknown as KgPath;
      expect(await fillers(path, pattern.metapath, pattern.maskedIndex), q.text).toEqual([q.answer.nodeIds[0]]);
    }
  });

  it("finds the other fillers of an ambiguous blank (a hub's neighbours)", async () => {
    // Hop 0 from the masked end: every compound the middle disease is treated by fills "____ treats <disease>".
    const { rows } = await getPool().query<{ id: string }>(
      `select target_id id from edges where metaedge = 'CtD' group by target_id having count(*) > 3 limit 1`,
    );
    const disease = (await getPool().query<{ id: string; name: string; kind: string }>('select id, name, kind from nodes where id = $1', [rows[0].id])).rows[0];
    const { edges } = await neighbors(disease.id, { metaedges: ['CtD'], direction: 'both', neighborKinds: ['Compound'], limit: 2 });
    const compound = edges[0].neighbor;
    const path = { nodes: [compound, disease, disease], edges: [] } as unknown as KgPath;
    const found = await fillers(
      path,
      [
        { metaedge: 'CtD', direction: 'out' },
        { metaedge: 'CtD', direction: 'in' },
      ],
      0,
    );
    expect(found.length).toBeGreaterThan(3);
    expect(found).toContain(compound.id);
  });
});

describe('generate command', () => {
  it('creates a named set; the same name again is refused (exit 2), and with --replace the same seed gives the same questions', async () => {
    const name = `gen-${randomUUID().slice(0, 8)}`;
    expect(await generateCli(['biomedhop', '--seed', '9', '--count', '5', '--name', name])).toBe(0);
    const first = await getQuestionSet(name);
    expect(first?.counts.total).toBe(5);
    expect(first?.license).toBe('derived from Hetionet (CC0)');
    expect(first?.meta).toMatchObject({ seed: '9', count: 5 });
    expect(await generateCli(['biomedhop', '--seed', '9', '--count', '5', '--name', name])).toBe(2);
    expect((await getQuestionSet(name))!.id).toBe(first!.id);
    expect(await generateCli(['biomedhop', '--seed', '9', '--count', '5', '--name', name, '--replace'])).toBe(0);
    const second = await getQuestionSet(name);
    expect(second!.id).not.toBe(first!.id);
    expect(second!.questions.map((q) => q.text)).toEqual(first!.questions.map((q) => q.text));
  });

  it('exits 2 on usage errors', async () => {
    expect(await generateCli(['nonsense', '--name', 'x'])).toBe(2);
    expect(await generateCli(['biomedhop', '--name', 'x', '--count', 'many'])).toBe(2);
    expect(await generateCli(['biomedhop', '--name', 'x', '--families', 'riddles'])).toBe(2);
    expect(await generateCli(['k2v', '--seed', '1'])).toBe(2);
  });
});
