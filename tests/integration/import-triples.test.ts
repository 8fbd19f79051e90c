import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../support/test-db';
import { ImportError, importTriples } from '../../lib/kg/import';

const fixture = (name: string) => path.resolve('tests/fixtures/import', name);

let db: Awaited<ReturnType<typeof createScratchDatabase>>;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createScratchDatabase('import_triples');
  pool = new pg.Pool({ connectionString: db.url });
});

afterAll(async () => {
  await pool.end();
  await db.drop();
});

const rows = async (sql: string) => (await pool.query(sql)).rows;

describe('generic triples import', () => {
  it('loads a TSV with kinds: nodes from heads and tails, relations as metaedges', async () => {
    const summary = await importTriples(fixture('triples.tsv'), { pool });
    expect(summary).toMatchObject({ source: 'triples', version: 'triples.tsv', nodeCount: 5, edgeCount: 4 });
    expect(summary.metaedgeCounts).toEqual({ activates: 1, inhibits: 1, treats: 2 });
    expect(await rows(`select id, kind, name, degree from nodes order by id`)).toEqual([
      { id: 'Disease::type 2 diabetes', kind: 'Disease', name: 'type 2 diabetes', degree: 2 },
      { id: 'Drug::insulin', kind: 'Drug', name: 'insulin', degree: 1 },
      { id: 'Drug::metformin', kind: 'Drug', name: 'metformin', degree: 2 },
      { id: 'Protein::AMPK', kind: 'Protein', name: 'AMPK', degree: 2 },
      { id: 'Protein::mTOR', kind: 'Protein', name: 'mTOR', degree: 1 },
    ]);
    expect(await rows(`select abbr, source_kind, verb, target_kind, directed, description, category, edge_count from metaedges where abbr = 'treats'`)).toEqual(
      [
        {
          abbr: 'treats',
          source_kind: 'Drug',
          verb: 'treats',
          target_kind: 'Disease',
          directed: true,
          description: 'Drug → treats → Disease',
          category: 'Treats',
          edge_count: 2,
        },
      ],
    );
    expect(await rows(`select kind, abbr from metanodes order by kind`)).toEqual([
      { kind: 'Disease', abbr: 'D' },
      { kind: 'Drug', abbr: 'D' },
      { kind: 'Protein', abbr: 'P' },
    ]);
  });

  it('loads a CSV without kinds (default Entity) and with quoted names, replacing the previous graph', async () => {
    const summary = await importTriples(fixture('triples.csv'), { pool });
    expect(summary).toMatchObject({ nodeCount: 6, edgeCount: 4 });
    expect((await rows(`select id from nodes order by id`)).map((r) => r.id)).toEqual([
      'Entity::COX-1',
      'Entity::COX-2',
      'Entity::aspirin',
      'Entity::atorvastatin',
      'Entity::ibuprofen, racemic',
      'Entity::the "statin" class',
    ]);
    expect(await rows(`select count(*)::int as n from edges`)).toEqual([{ n: 4 }]);
  });

  it('does not duplicate on re-import', async () => {
    await importTriples(fixture('triples.csv'), { pool });
    expect(await rows(`select (select count(*)::int from nodes) as nodes, (select count(*)::int from edges) as edges`)).toEqual([{ nodes: 6, edges: 4 }]);
  });

  it('rejects a row with a missing column, naming file and line, and keeps the graph', async () => {
    const error = await importTriples(fixture('triples-bad-row.csv'), { pool }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect(error).toMatchObject({ file: fixture('triples-bad-row.csv'), line: 3, reason: 'expected 3 columns like the header, found 2' });
    expect((error as Error).message).toBe('triples-bad-row.csv:3: expected 3 columns like the header, found 2');
    expect(await rows(`select count(*)::int as n from edges`)).toEqual([{ n: 4 }]);
  });

  it('rejects a relation used between different kinds', async () => {
    const error = await importTriples(fixture('triples-inconsistent.tsv'), { pool }).catch((e: unknown) => e);
    expect(error).toMatchObject({ line: 3, reason: "relation 'treats' joins Drug to Protein here but Drug to Disease on line 2" });
  });
});
