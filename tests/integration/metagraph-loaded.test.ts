import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, getPool } from '@/lib/db/client';
import { loadMetagraph } from '@/lib/kg/loaded-metagraph';

afterAll(closeDb);

describe('the metagraph a run reads', () => {
  it('holds the relations the graph has edges of, not those only declared', async () => {
    const { rows } = await getPool().query<{ abbr: string; n: string }>(
      `select m.abbr, (select count(*) from (select 1 from edges e where e.metaedge = m.abbr limit 1) x) as n from metaedges m`,
    );
    const declaredOnly = rows.filter((r) => r.n === '0').map((r) => r.abbr);
    const loaded = rows.filter((r) => r.n !== '0').map((r) => r.abbr);
    // The Hetionet subset declares the Gene Ontology relations but holds none of their edges.
    expect(declaredOnly.length).toBeGreaterThan(0);
    const graph = await loadMetagraph();
    expect(graph.metaedges.map((m) => m.abbr).sort()).toEqual(loaded.sort());
    for (const abbr of declaredOnly) expect(graph.byAbbr.has(abbr)).toBe(false);
  });
});
