import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../support/test-db';
import { ImportError, importHetionet, loadDemoGraph } from '../../lib/kg/import';
import { DEMO_FILES } from '../../lib/kg/demo/files';

let db: Awaited<ReturnType<typeof createScratchDatabase>>;
let pool: pg.Pool;
let tmp: string;

beforeAll(async () => {
  db = await createScratchDatabase('import_hetionet');
  pool = new pg.Pool({ connectionString: db.url });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hopscope-import-'));
});

afterAll(async () => {
  await pool.end();
  await db.drop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function graphCounts() {
  const { rows } = await pool.query(`select
    (select count(*)::int from nodes) as nodes, (select count(*)::int from edges) as edges,
    (select count(*)::int from node_degrees) as degrees, (select count(*)::int from metaedges) as metaedges,
    (select count(*)::int from kg_imports where kind = 'graph') as imports,
    (select count(*)::int from pg_indexes where tablename in ('nodes', 'edges', 'node_degrees')) as indexes`);
  return rows[0];
}

/** The demo edges with line `lineNumber` (1-based, header = 1) replaced. */
function demoEdgesWithLine(lineNumber: number, replacement: string, gzip = false): string {
  const lines = fs.readFileSync(DEMO_FILES.edgesFile, 'utf8').split('\n');
  lines[lineNumber - 1] = replacement;
  const file = path.join(tmp, `edges-${lineNumber}-${Math.random().toString(36).slice(2)}.sif${gzip ? '.gz' : ''}`);
  const text = lines.join('\n');
  fs.writeFileSync(file, gzip ? zlib.gzipSync(text) : text);
  return file;
}

async function rejection(p: Promise<unknown>): Promise<ImportError> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImportError);
  return error as ImportError;
}

describe('Hetionet importer (demo graph files)', () => {
  it('loads nodes, edges, metagraph, degrees and an import record', async () => {
    const summary = await loadDemoGraph({ pool });
    expect(summary).toMatchObject({ source: 'demo', kind: 'graph', nodeCount: 66, edgeCount: 136 });
    expect(summary.metaedgeCounts.CtD).toBe(14);
    expect(summary.checksum).toMatch(/^[0-9a-f]{64}$/);

    const counts = await graphCounts();
    expect(counts).toMatchObject({ nodes: 66, edges: 136, metaedges: 24, imports: 1 });

    const { rows: metformin } = await pool.query(`select kind, name, source, normalised, degree from nodes where id = 'Compound::DB00331'`);
    expect(metformin[0]).toEqual({ kind: 'Compound', name: 'Metformin', source: 'demo', normalised: 'metformin', degree: 4 });
    const { rows: treats } = await pool.query(`select source_id, target_id from edges where metaedge = 'CtD' and source_id = 'Compound::DB00331'`);
    expect(treats).toEqual([{ source_id: 'Compound::DB00331', target_id: 'Disease::DOID:9352' }]);

    const { rows: ctd } = await pool.query(`select * from metaedges where abbr = 'CtD'`);
    expect(ctd[0]).toMatchObject({ description: 'Compound – treats – Disease', category: 'Treats', directed: false, edge_count: 14 });

    // Degrees agree with the edges they summarise, on both sides.
    const { rows: mismatch } = await pool.query(`
      select d.* from node_degrees d
        full join (select source_id as node_id, metaedge, 'out' as direction, count(*)::int as count from edges group by 1, 2
                   union all select target_id, metaedge, 'in', count(*)::int from edges group by 1, 2) e
          using (node_id, metaedge, direction)
       where d.count is distinct from e.count`);
    expect(mismatch).toEqual([]);
    const { rows: degreeSum } = await pool.query(
      `select count(*)::int as bad from nodes n where n.degree <> coalesce((select sum(count) from node_degrees d where d.node_id = n.id), 0)`,
    );
    expect(degreeSum[0].bad).toBe(0);
  });

  it('replaces on re-import instead of duplicating, keeping the indexes', async () => {
    const indexes = async () =>
      (await pool.query(`select indexname, indexdef from pg_indexes where tablename in ('edges', 'nodes', 'node_degrees') order by indexname`)).rows;
    const before = await graphCounts();
    const indexesBefore = await indexes();
    await loadDemoGraph({ pool });
    const after = await graphCounts();
    expect(after).toEqual({ ...before, imports: before.imports + 1 });
    const { rows } = await pool.query('select min(id)::int as first from edges');
    expect(rows[0].first).toBe(1);
    // The edges' primary key and secondary indexes are dropped for the load and built again, under their names.
    expect(await indexes()).toEqual(indexesBefore);
    expect((await pool.query(`select conname from pg_constraint where conrelid = 'edges'::regclass and contype = 'p'`)).rows).toEqual([
      { conname: 'edges_pkey' },
    ]);
  });

  it('keeps the aliases and profiles of nodes that survive a re-import', async () => {
    await pool.query(`insert into node_aliases (node_id, alias, normalised, source) values ('Compound::DB00331', 'Glucophage', 'glucophage', 'test')`);
    await pool.query(`insert into entity_profiles (node_id, source, text) values ('Compound::DB00331', 'test', 'A biguanide.')`);
    await loadDemoGraph({ pool });
    const { rows } = await pool.query(`select (select count(*)::int from node_aliases where source = 'test') as aliases,
                                              (select count(*)::int from entity_profiles where source = 'test') as profiles`);
    expect(rows[0]).toEqual({ aliases: 1, profiles: 1 });
  });

  describe('rejects a malformed edges file at its first bad line and leaves the graph as it was', () => {
    const cases = [
      { line: 70, text: 'Compound::DB00331\tCtD\tDisease::DOID:0000000', reason: "target node 'Disease::DOID:0000000' is not in the nodes file" },
      { line: 40, text: 'Compound::DB99999\tCtD\tDisease::DOID:9352', reason: "source node 'Compound::DB99999' is not in the nodes file" },
      { line: 100, text: 'Compound::DB00331\tCtD', reason: 'expected 3 tab-separated columns (source, metaedge, target), found 2' },
      { line: 50, text: 'Compound::DB00331\tCxD\tDisease::DOID:9352', reason: "unknown metaedge 'CxD' (not in the metagraph)" },
      { line: 60, text: 'Disease::DOID:9352\tCtD\tCompound::DB00331', reason: 'CtD joins Compound to Disease, not Disease to Compound' },
    ];
    for (const c of cases) {
      it(`line ${c.line}: ${c.reason}`, async () => {
        const before = await graphCounts();
        const edgesFile = demoEdgesWithLine(c.line, c.text, c.line === 100);
        const error = await rejection(importHetionet({ ...DEMO_FILES, edgesFile }, { pool }));
        expect({ file: error.file, line: error.line, reason: error.reason }).toEqual({ file: edgesFile, line: c.line, reason: c.reason });
        expect(error.message).toBe(`${path.basename(edgesFile)}:${c.line}: ${c.reason}`);
        expect(await graphCounts()).toEqual(before);
      });
    }
  });

  it('rejects a bad line deep in a long edge file and leaves the graph as it was', async () => {
    const before = await graphCounts();
    const [header, ...edges] = fs.readFileSync(DEMO_FILES.edgesFile, 'utf8').trimEnd().split('\n');
    const many = Array.from({ length: 500 }, () => edges).flat();
    many.splice(50_000, 0, 'Gene::672\tGiG\tGene::0');
    const edgesFile = path.join(tmp, 'many-edges.sif');
    fs.writeFileSync(edgesFile, [header, ...many].join('\n'));
    const error = await rejection(importHetionet({ ...DEMO_FILES, edgesFile }, { pool }));
    expect([error.line, error.reason]).toEqual([50_002, "target node 'Gene::0' is not in the nodes file"]);
    expect(await graphCounts()).toEqual(before);
  });

  it('rejects a nodes file with an unknown kind before touching the database', async () => {
    const nodesFile = path.join(tmp, 'nodes.tsv');
    const lines = fs.readFileSync(DEMO_FILES.nodesFile, 'utf8').split('\n');
    lines[3] = 'Drug::DB1\taspirin\tDrug';
    fs.writeFileSync(nodesFile, lines.join('\n'));
    const error = await rejection(importHetionet({ ...DEMO_FILES, nodesFile }, { pool }));
    expect([error.line, error.reason]).toEqual([4, "unknown kind 'Drug' (not in the metagraph)"]);
  });

  it('asks for a metagraph when none lies beside the nodes file', async () => {
    const nodesFile = path.join(tmp, 'lonely-nodes.tsv');
    fs.copyFileSync(DEMO_FILES.nodesFile, nodesFile);
    const error = await rejection(importHetionet({ nodesFile, edgesFile: DEMO_FILES.edgesFile }, { pool }));
    expect(error.reason).toMatch(/no metagraph/);
  });
});
