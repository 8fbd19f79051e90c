import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, getPool } from '../../lib/db/client';
import { getNodes, kgStats, nodeProfile, sampleEdges, samplePaths, searchNodes } from '../../lib/kg';

afterAll(closeDb);

describe('sampling', () => {
  it('samples distinct edges of one metaedge, the same for the same seed', async () => {
    const a = await sampleEdges('CtD', 10, 42);
    const b = await sampleEdges('CtD', 10, 42);
    const c = await sampleEdges('CtD', 10, 43);
    expect(a).toEqual(b);
    expect(c).not.toEqual(a);
    expect(new Set(a.map((t) => t.edge.id)).size).toBe(10);
    const { rows } = await getPool().query<{ n: number }>(`select count(*)::int as n from edges where metaedge = 'CtD' and id = any($1)`, [
      a.map((t) => t.edge.id),
    ]);
    expect(rows[0].n).toBe(10);
    for (const t of a) expect([t.source.id, t.target.id]).toEqual([t.edge.sourceId, t.edge.targetId]);
    expect(await sampleEdges('NoSuchMetaedge', 5, 1)).toEqual([]);
  });

  it('samples metapath instances deterministically per seed', async () => {
    const a = await samplePaths('CtD|DaG', 8, 'seed-1');
    expect(a).toHaveLength(8);
    expect(await samplePaths('CtD|DaG', 8, 'seed-1')).toEqual(a);
    expect(await samplePaths('CtD|DaG', 8, 'seed-2')).not.toEqual(a);
    for (const p of a) {
      expect(p.nodes.map((n) => n.kind)).toEqual(['Compound', 'Disease', 'Gene']);
      expect(p.edges.map((e) => e.metaedge)).toEqual(['CtD', 'DaG']);
    }
  });
});

describe('lookups and statistics', () => {
  it('gets nodes in the order asked, skipping unknown ids', async () => {
    const nodes = await getNodes(['Disease::DOID:8778', 'Gene::nope', 'Disease::DOID:2377']);
    expect(nodes.map((n) => n.id)).toEqual(['Disease::DOID:8778', 'Disease::DOID:2377']);
    expect(nodes[0]).toEqual({ id: 'Disease::DOID:8778', kind: 'Disease', name: "Crohn's disease" });
  });

  it('ranks exact and prefix matches first in the typeahead', async () => {
    expect((await searchNodes('multiple sclerosis'))[0].id).toBe('Disease::DOID:2377');
    expect((await searchNodes('Multiple scl', { kinds: ['Disease'] }))[0].id).toBe('Disease::DOID:2377');
    expect((await searchNodes('crohn', { limit: 3 })).map((n) => n.name)).toContain("Crohn's disease");
    expect(await searchNodes('   ')).toEqual([]);
  });

  it('says why each suggestion matched: name, symbol, alias or id', async () => {
    const [ms] = await searchNodes('multiple sclerosis');
    expect(ms.match).toEqual({ field: 'name', how: 'exact', text: 'multiple sclerosis', source: null });
    const [byId] = await searchNodes('DOID:2377');
    expect(byId).toMatchObject({ id: 'Disease::DOID:2377', match: { field: 'id', how: 'exact' } });
    expect((await searchNodes('7157'))[0]).toMatchObject({ id: 'Gene::7157', match: { field: 'id' } });
    // A gene found through one of its NCBI synonyms names that synonym.
    const { rows } = await getPool().query<{ alias: string }>(
      `select alias from node_aliases a where node_id = 'Gene::7157' and source = 'ncbi-synonym'
          and not exists (select 1 from nodes n where n.normalised = a.normalised)
          and (select count(*) from node_aliases b where b.normalised = a.normalised) = 1 limit 1`,
    );
    const viaAlias = (await searchNodes(rows[0].alias)).find((n) => n.id === 'Gene::7157');
    expect(viaAlias?.match).toMatchObject({ field: 'alias', how: 'exact', text: rows[0].alias, source: 'ncbi-synonym' });
  });

  it('profiles a node with its degree per metaedge', async () => {
    const profile = await nodeProfile('Gene::7157');
    expect(profile?.node).toMatchObject({ id: 'Gene::7157', kind: 'Gene', name: 'TP53' });
    const sum = profile!.degreeByMetaedge.reduce((s, r) => s + r.count, 0);
    expect(sum).toBe(profile!.node.degree);
    expect(profile!.degreeByMetaedge.find((r) => r.metaedge === 'DaG')).toMatchObject({ direction: 'in' });
    expect(await nodeProfile('Gene::nope')).toBeNull();
  });

  it('counts nodes and edges per kind and metaedge', async () => {
    const stats = await kgStats();
    const { rows } = await getPool().query<{ nodes: number; edges: number }>(
      'select (select count(*) from nodes)::int as nodes, (select count(*) from edges)::int as edges',
    );
    expect({ nodes: stats.nodes, edges: stats.edges }).toEqual(rows[0]);
    expect(stats.metaedges.find((m) => m.abbr === 'CtD')?.count).toBeGreaterThan(0);
    expect(stats.kinds.map((k) => k.kind)).toContain('Gene');
  });
});
