import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, getPool } from '../../lib/db/client';
import { countNeighbors, neighbors, sharedNeighbors } from '../../lib/kg';

afterAll(closeDb);

const MS = 'Disease::DOID:2377';
const CROHN = 'Disease::DOID:8778';
const T2D = 'Disease::DOID:9352';

async function sqlIds(sql: string, params: unknown[]): Promise<string[]> {
  const { rows } = await getPool().query<{ id: string | number }>(sql, params);
  return rows.map((r) => String(r.id)).sort();
}

async function topGene(): Promise<string> {
  const { rows } = await getPool().query<{ id: string }>(`select id from nodes where kind = 'Gene' order by degree desc, id limit 1`);
  return rows[0].id;
}

describe('neighbors', () => {
  it('lists the treatments of a disease (CtD), matching SQL', async () => {
    const expected = await sqlIds(`select id from edges where target_id = $1 and metaedge = 'CtD'`, [T2D]);
    expect(expected.length).toBeGreaterThan(5);
    const result = await neighbors(T2D, { metaedges: ['CtD'], limit: 1000 });
    expect(result.total).toBe(expected.length);
    expect(result.edges.map((e) => String(e.edge.id)).sort()).toEqual(expected);
    for (const { edge, neighbor, direction } of result.edges) {
      expect(direction).toBe('in');
      expect(edge).toMatchObject({ targetId: T2D, metaedge: 'CtD', sourceId: neighbor.id });
      expect(neighbor.kind).toBe('Compound');
    }
  });

  it('gives a hub gene the total from its degrees without listing them all', async () => {
    const gene = await topGene();
    const { rows } = await getPool().query<{ total: number; aeg: number }>(
      `select sum(count)::int as total, coalesce(sum(count) filter (where metaedge = 'AeG'), 0)::int as aeg from node_degrees where node_id = $1`,
      [gene],
    );
    const all = await neighbors(gene, { limit: 10 });
    expect(all.total).toBe(rows[0].total);
    expect(all.total).toBeGreaterThan(1000);
    expect(all.edges).toHaveLength(10);
    const expressed = await neighbors(gene, { metaedges: ['AeG'], direction: 'in', neighborKinds: ['Anatomy'], limit: 5 });
    expect(expressed.total).toBe(rows[0].aeg);
    expect(expressed.edges.every((e) => e.neighbor.kind === 'Anatomy' && e.edge.targetId === gene)).toBe(true);
    expect((await neighbors(gene, { metaedges: ['AeG'], direction: 'out' })).total).toBe(0);
  });

  it('lets relations take turns in the diverse order, so a short page shows every relation of a hub', async () => {
    const gene = await topGene();
    const { rows } = await getPool().query<{ metaedge: string; count: number }>(
      `select metaedge, sum(count)::int as count from node_degrees where node_id = $1 group by metaedge`,
      [gene],
    );
    const relations = rows.map((r) => r.metaedge);
    expect(relations.length).toBeGreaterThan(2);
    const limit = Math.max(relations.length, 12);
    const byDegree = await neighbors(gene, { limit });
    const diverse = await neighbors(gene, { order: 'diverse', limit });
    expect(diverse.total).toBe(byDegree.total);
    // Every relation the node has appears on the first page, each from its best-connected neighbour.
    expect(new Set(diverse.edges.map((e) => e.edge.metaedge))).toEqual(new Set(relations));
    for (const metaedge of relations) {
      const best = (await neighbors(gene, { metaedges: [metaedge], limit: 1 })).edges[0];
      expect(diverse.edges.find((e) => e.edge.metaedge === metaedge)!.edge.id).toBe(best.edge.id);
    }
    // Paging the diverse order covers the same edges as the other orders.
    const all = await neighbors(gene, { order: 'diverse', limit: 100_000 });
    expect(all.edges.map((e) => String(e.edge.id)).sort()).toEqual(
      (await neighbors(gene, { order: 'id', limit: 100_000 })).edges.map((e) => String(e.edge.id)).sort(),
    );
  });

  it('pages consistently in either order', async () => {
    const gene = await topGene();
    for (const order of ['id', 'degree'] as const) {
      const first = await neighbors(gene, { order, limit: 20 });
      const page1 = await neighbors(gene, { order, limit: 10 });
      const page2 = await neighbors(gene, { order, limit: 10, offset: 10 });
      expect([...page1.edges, ...page2.edges]).toEqual(first.edges);
    }
    const byId = (await neighbors(gene, { order: 'id', limit: 50 })).edges.map((e) => e.edge.id);
    expect(byId).toEqual([...byId].sort((a, b) => a - b));
  });

  it('counts edges and distinct neighbours', async () => {
    const gene = await topGene();
    const { rows } = await getPool().query<{ edges: number; nodes: number }>(
      `select count(*)::int as edges, count(distinct case when source_id = $1 then target_id else source_id end)::int as nodes
         from edges where (source_id = $1 or target_id = $1) and metaedge in ('AeG', 'AuG', 'AdG')`,
      [gene],
    );
    expect(await countNeighbors(gene, { metaedges: ['AeG', 'AuG', 'AdG'] })).toEqual(rows[0]);
  });

  it('answers an unknown node with nothing', async () => {
    expect(await neighbors('Gene::no-such-gene')).toEqual({ total: 0, edges: [] });
  });
});

describe('sharedNeighbors', () => {
  it('finds the genes associated with both multiple sclerosis and Crohn’s disease (DaG), matching SQL', async () => {
    const expected = await sqlIds(
      `select target_id as id from edges where source_id = $1 and metaedge = 'DaG'
       intersect
       select target_id from edges where source_id = $2 and metaedge = 'DaG'`,
      [MS, CROHN],
    );
    expect(expected.length).toBeGreaterThan(0);
    const result = await sharedNeighbors([MS, CROHN], { metaedges: ['DaG'], neighborKind: 'Gene', limit: 1000 });
    expect(result.total).toBe(expected.length);
    expect(result.items.map((i) => i.node.id).sort()).toEqual(expected);
    for (const { node, edges } of result.items) {
      expect(edges.map((e) => [e.sourceId, e.metaedge, e.targetId])).toEqual([
        [MS, 'DaG', node.id],
        [CROHN, 'DaG', node.id],
      ]);
    }
  });

  it('intersects three anchors and never returns an anchor', async () => {
    const anchors = [MS, CROHN, 'Disease::DOID:8577'];
    const expected = await sqlIds(
      `select x.id from (select case when source_id = any($1) then target_id else source_id end as id, case when source_id = any($1) then source_id else target_id end as anchor
                           from edges where source_id = any($1) or target_id = any($1)) x
        where x.id <> all($1) group by x.id having count(distinct x.anchor) = 3`,
      [anchors],
    );
    const result = await sharedNeighbors(anchors, { limit: 10_000 });
    expect(result.items.map((i) => i.node.id).sort()).toEqual(expected);
    expect(result.items.every((i) => !anchors.includes(i.node.id))).toBe(true);
  });

  it('is empty when an anchor is unknown', async () => {
    expect(await sharedNeighbors([MS, 'Disease::nope'])).toEqual({ total: 0, items: [] });
  });
});
