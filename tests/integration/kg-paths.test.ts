import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, getPool } from '../../lib/db/client';
import { chainReach, expandTyped, findPaths, instantiateMetapath, metapathEndpoints, parseMetapath, searchPaths, type KgPath } from '../../lib/kg';

afterAll(closeDb);

const METFORMIN = 'Compound::DB00331';
const T2D = 'Disease::DOID:9352';
const MS = 'Disease::DOID:2377';
const CROHN = 'Disease::DOID:8778';
const TP53 = 'Gene::7157';
const INS = 'Gene::3630';

/** Every edge of the path exists as stored and joins consecutive nodes; the path is simple. */
async function expectRealPath(path: KgPath, from: string, to?: string) {
  expect(path.nodes[0].id).toBe(from);
  if (to) expect(path.nodes.at(-1)!.id).toBe(to);
  expect(path.edges).toHaveLength(path.nodes.length - 1);
  expect(new Set(path.nodes.map((n) => n.id)).size).toBe(path.nodes.length);
  const { rows } = await getPool().query<{ id: number; source_id: string; metaedge: string; target_id: string }>(
    'select id, source_id, metaedge, target_id from edges where id = any($1)',
    [path.edges.map((e) => e.id)],
  );
  const stored = new Map(rows.map((r) => [r.id, r]));
  path.edges.forEach((edge, i) => {
    const row = stored.get(edge.id);
    expect(row, `edge ${edge.id}`).toBeDefined();
    expect(edge).toEqual({ id: row!.id, sourceId: row!.source_id, metaedge: row!.metaedge, targetId: row!.target_id });
    expect([edge.sourceId, edge.targetId].sort()).toEqual([path.nodes[i].id, path.nodes[i + 1].id].sort());
  });
  expect(parseMetapath(path.metapath).map((h) => h.metaedge)).toEqual(path.edges.map((e) => e.metaedge));
}

describe('findPaths', () => {
  it('finds the direct treatment first, then longer real paths up to depth 4', async () => {
    const paths = await findPaths(METFORMIN, T2D, { maxDepth: 4, limit: 50 });
    expect(paths).toHaveLength(50);
    expect(paths[0].edges).toHaveLength(1);
    expect(paths[0].edges[0].metaedge).toBe('CtD');
    const lengths = paths.map((p) => p.edges.length);
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
    expect(Math.max(...lengths)).toBeLessThanOrEqual(4);
    for (const p of paths) await expectRealPath(p, METFORMIN, T2D);
  });

  it('reaches depth 4 between two genes and reports what it did', async () => {
    const search = await searchPaths(TP53, INS, { maxDepth: 4, limit: 200 });
    expect(search.shortest).not.toBeNull();
    expect(search.paths.length).toBeGreaterThan(0);
    expect(search.expansions).toBeGreaterThan(0);
    for (const p of search.paths) await expectRealPath(p, TP53, INS);
  });

  it('keeps to the allowed metaedges', async () => {
    // Two compounds that both treat multiple sclerosis.
    const { rows } = await getPool().query<{ a: string; b: string }>(
      `select c1.source_id as a, c2.source_id as b
         from edges c1 join edges c2 on c2.target_id = c1.target_id and c2.metaedge = 'CtD' and c2.source_id <> c1.source_id
        where c1.metaedge = 'CtD' and c1.target_id = $1 order by c1.id, c2.id limit 1`,
      [MS],
    );
    const { a, b } = rows[0];
    const paths = await findPaths(a, b, { maxDepth: 4, metaedges: ['DaG', 'GiG'], limit: 10 });
    // No DaG/GiG path can start at a compound: restricted to those metaedges, there is none.
    expect(paths).toEqual([]);
    const withTreats = await findPaths(a, b, { maxDepth: 4, metaedges: ['CtD', 'DaG'], limit: 20 });
    expect(withTreats.some((p) => p.nodes.length === 3 && p.nodes[1].id === MS)).toBe(true);
    for (const p of withTreats) {
      // CtD and DaG both join a disease to a non-disease: the graph is bipartite, compound-to-compound paths are even.
      await expectRealPath(p, a, b);
      expect(p.edges.length % 2).toBe(0);
      expect(p.edges.every((e) => e.metaedge === 'CtD' || e.metaedge === 'DaG')).toBe(true);
    }
  });

  it('goes through shared genes between two diseases when restricted to DaG', async () => {
    const paths = await findPaths(MS, CROHN, { maxDepth: 2, metaedges: ['DaG'], limit: 500 });
    const { rows } = await getPool().query<{ n: number }>(
      `select count(*)::int as n from (select target_id from edges where source_id = $1 and metaedge = 'DaG'
                                        intersect select target_id from edges where source_id = $2 and metaedge = 'DaG') x`,
      [MS, CROHN],
    );
    expect(paths).toHaveLength(rows[0].n);
    for (const p of paths) {
      expect(p.metapath).toBe('DaG|DaG');
      expect(p.nodes[1].kind).toBe('Gene');
    }
  });

  it('answers unknown or identical endpoints with no paths', async () => {
    expect(await findPaths(MS, 'Disease::nope')).toEqual([]);
    expect(await findPaths(MS, MS)).toEqual([]);
  });
});

describe('metapaths and typed expansion', () => {
  it('instantiates a metapath along its metaedges', async () => {
    const { paths } = await instantiateMetapath(METFORMIN, ['CtD', 'DaG'], { limit: 20 });
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) {
      await expectRealPath(p, METFORMIN);
      expect(p.nodes.map((n) => n.kind)).toEqual(['Compound', 'Disease', 'Gene']);
      expect(p.metapath).toBe('CtD|DaG');
    }
  });

  it('instantiates a metapath towards a given target only', async () => {
    const { paths } = await instantiateMetapath(METFORMIN, 'CtD|DaG|DaG', { targetId: MS, limit: 10 });
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) await expectRealPath(p, METFORMIN, MS);
  });

  it('walks directed hops in the direction asked', async () => {
    const { paths } = await instantiateMetapath(TP53, 'Gr>G:out', { limit: 1000 });
    expect(paths.every((p) => p.edges[0].sourceId === TP53 && p.metapath === 'Gr>G:out')).toBe(true);
    const { rows } = await getPool().query<{ n: number }>(`select count(*)::int as n from edges where source_id = $1 and metaedge = 'Gr>G'`, [TP53]);
    expect(paths).toHaveLength(rows[0].n);
  });

  it('counts the distinct end nodes of a metapath like SQL does', async () => {
    const { rows } = await getPool().query<{ n: number }>(
      `select count(distinct g.target_id)::int as n from edges c join edges g on g.source_id = c.target_id
        where c.source_id = $1 and c.metaedge = 'CtD' and g.metaedge = 'DaG'`,
      [METFORMIN],
    );
    const ends = await metapathEndpoints(METFORMIN, 'CtD|DaG', { limit: 5 });
    expect(ends.total).toBe(rows[0].n);
    expect(ends.nodes).toHaveLength(Math.min(5, rows[0].n));
  });

  it('reaches a whole chain as SQL does, and walks back the edges of every path to the ends kept', async () => {
    // Genes bound by the drugs that treat type 2 diabetes: Disease ←CtD– Compound –CbG→ Gene.
    const hops = [
      { metaedges: ['CtD'], direction: 'in' as const, kind: 'Compound' },
      { metaedges: ['CbG'], direction: 'out' as const, kind: 'Gene' },
    ];
    const { rows } = await getPool().query<{ id: string }>(
      `select distinct g.target_id id from edges c join edges g on g.source_id = c.source_id
        where c.target_id = $1 and c.metaedge = 'CtD' and g.metaedge = 'CbG'`,
      [T2D],
    );
    const all = await chainReach(T2D, hops);
    expect(all.ends.map((n) => n.id).sort()).toEqual(rows.map((r) => r.id).sort());
    expect(all.ends.length).toBeGreaterThan(3);
    expect(all.triples).toBeNull();

    const keep = new Set([INS, all.ends.find((n) => n.id !== INS)!.id]);
    const walked = await chainReach(T2D, hops, { keep, maxTriples: 1000 });
    expect(walked.ends.map((n) => n.id).sort()).toEqual([...keep].filter((id) => all.ends.some((n) => n.id === id)).sort());
    const triples = walked.triples!;
    // Every CbG edge ends at a kept gene and starts at a drug some CtD edge joins to the disease; every such drug is there.
    const drugs = new Set(triples.filter((t) => t.edge.metaedge === 'CtD').map((t) => t.source.id));
    expect(triples.every((t) => t.edge.metaedge !== 'CtD' || t.target.id === T2D)).toBe(true);
    const binds = triples.filter((t) => t.edge.metaedge === 'CbG');
    expect(binds.length).toBeGreaterThan(0);
    expect(binds.every((t) => keep.has(t.target.id) && drugs.has(t.source.id))).toBe(true);
    expect([...drugs].every((d) => binds.some((t) => t.source.id === d))).toBe(true);
    expect((await chainReach(T2D, hops, { keep, maxTriples: 0 })).triples).toBeNull();
  });

  it('expands typed paths from several starts within the cap', async () => {
    const { paths, capped } = await expandTyped([MS, CROHN], { maxDepth: 2, allowedMetaedges: ['DaG', 'GiG'], cap: 60, fanout: 10 });
    expect(paths).toHaveLength(60);
    expect(capped).toBe(true);
    expect(new Set(paths.map((p) => p.nodes.at(-1)!.id)).size).toBe(60);
    expect(new Set(paths.map((p) => p.nodes[0].id))).toEqual(new Set([MS, CROHN]));
    for (const p of paths.slice(0, 10)) {
      await expectRealPath(p, p.nodes[0].id);
      expect(p.edges.every((e) => e.metaedge === 'DaG' || e.metaedge === 'GiG')).toBe(true);
    }
  });
});
