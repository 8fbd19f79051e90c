import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, getPool } from '../../lib/db/client';
import { findPaths, neighbors, normaliseName } from '../../lib/kg';
import { createScratchDatabase } from '../support/test-db';

// A database of its own: this file writes edges, the others read the shared KG.
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;

beforeAll(async () => {
  scratch = await createScratchDatabase('kgsnapshot');
  await closeDb();
  process.env.DATABASE_URL = scratch.url;
  const nodes = [
    ['Compound::C1', 'Compound', 'Examplamide'],
    ['Disease::D1', 'Disease', 'example disease'],
    ['Gene::1', 'Gene', 'GENEA'],
    ['Gene::2', 'Gene', 'GENEB'],
    // Ids that COPY escapes: the snapshot reads most ids as bytes, these as text.
    ['Gene::back\\slash', 'Gene', 'GENEC'],
    ['Gene::tab\there', 'Gene', 'GENED'],
  ];
  for (const [id, kind, name] of nodes) {
    await getPool().query('insert into nodes (id, kind, name, normalised) values ($1, $2, $3, $4)', [id, kind, name, normaliseName(name)]);
  }
  await addEdges([
    ['Compound::C1', 'CtD', 'Disease::D1'],
    ['Disease::D1', 'DaG', 'Gene::1'],
    ['Disease::D1', 'DaG', 'Gene::2'],
    ['Gene::1', 'GiG', 'Gene::2'],
    ['Gene::1', 'Gr>G', 'Gene::2'],
    ['Gene::1', 'GiG', 'Gene::back\\slash'],
    ['Gene::tab\there', 'GiG', 'Gene::1'],
  ]);
});

afterAll(async () => {
  await closeDb();
  await scratch?.drop();
});

async function addEdges(edges: string[][]) {
  for (const [source, metaedge, target] of edges) {
    await getPool().query('insert into edges (source_id, metaedge, target_id) values ($1, $2, $3)', [source, metaedge, target]);
  }
}

describe('graph snapshot', () => {
  it('traverses a small graph loaded from Postgres', async () => {
    expect((await neighbors('Disease::D1')).total).toBe(3);
    const paths = await findPaths('Compound::C1', 'Gene::2', { maxDepth: 3 });
    expect(paths).toHaveLength(3);
    expect(paths[0].metapath).toBe('CtD|DaG');
    expect(new Set(paths.slice(1).map((p) => p.metapath))).toEqual(new Set(['CtD|DaG|GiG', 'CtD|DaG|Gr>G:out']));
  });

  it('reads edges whose ids hold a backslash or a tab', async () => {
    const genes = await neighbors('Gene::1', { metaedges: ['GiG'] });
    expect(genes.edges.map((e) => e.neighbor.name).sort()).toEqual(['GENEB', 'GENEC', 'GENED']);
    expect((await neighbors('Gene::tab\there')).edges[0].neighbor.id).toBe('Gene::1');
  });

  it('picks up new edges once its freshness window has passed', async () => {
    expect((await neighbors('Compound::C1')).total).toBe(1);
    await addEdges([['Compound::C1', 'CbG', 'Gene::2']]);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const after = await neighbors('Compound::C1', { metaedges: ['CbG'] });
    expect(after.total).toBe(1);
    expect(after.edges[0].neighbor).toEqual({ id: 'Gene::2', kind: 'Gene', name: 'GENEB' });
  });
});
