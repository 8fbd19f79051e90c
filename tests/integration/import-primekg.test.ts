import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../support/test-db';
import { ImportError, importPrimeKg } from '../../lib/kg/import';

const FIXTURE = path.resolve('tests/fixtures/import/primekg-kg.csv');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'primekg-'));

let db: Awaited<ReturnType<typeof createScratchDatabase>>;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createScratchDatabase('import_primekg');
  pool = new pg.Pool({ connectionString: db.url });
});

afterAll(async () => {
  await pool.end();
  await db.drop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const rows = async (sql: string) => (await pool.query(sql)).rows;

describe('PrimeKG import', () => {
  it('maps node types to metanodes and relations to readable metaedges, folding each edge listed in both directions', async () => {
    const summary = await importPrimeKg(FIXTURE, { pool });
    // 12 rows: 6 undirected edges, each listed twice.
    expect(summary).toMatchObject({ source: 'primekg', nodeCount: 6, edgeCount: 6 });
    expect(await rows(`select kind, abbr from metanodes order by kind`)).toEqual([
      { kind: 'Anatomy', abbr: 'A' },
      { kind: 'Disease', abbr: 'D' },
      { kind: 'Drug', abbr: 'Dr' },
      { kind: 'Effect/Phenotype', abbr: 'EP' },
      { kind: 'Gene/Protein', abbr: 'G' },
    ]);
    expect(
      await rows(`select abbr, source_kind, verb, target_kind, directed, description, edge_count from metaedges where abbr = 'drug_protein:target'`),
    ).toEqual([
      {
        abbr: 'drug_protein:target',
        source_kind: 'Drug',
        verb: 'target',
        target_kind: 'Gene/Protein',
        directed: false,
        description: 'Drug – target – Gene/Protein',
        edge_count: 1,
      },
    ]);
    expect((await rows(`select abbr from metaedges order by abbr`)).map((r) => r.abbr)).toEqual([
      'anatomy_protein_present:expression_present',
      'disease_phenotype_positive:phenotype_present',
      'disease_protein:associated_with',
      'drug_protein:target',
      'indication:indication',
      'protein_protein:ppi',
    ]);
    expect(await rows(`select id, name, kind from nodes where kind = 'Disease'`)).toEqual([
      { id: 'Disease::MONDO_grouped:5082_13922', name: 'rheumatoid arthritis, juvenile', kind: 'Disease' },
    ]);
    expect(await rows(`select degree from nodes where id = 'Gene/Protein::NCBI:7124'`)).toEqual([{ degree: 4 }]);
  });

  it('reads the gzipped file the same way, and a re-import replaces rather than adds', async () => {
    const gz = path.join(tmp, 'kg.csv.gz');
    fs.writeFileSync(gz, zlib.gzipSync(fs.readFileSync(FIXTURE)));
    const summary = await importPrimeKg(gz, { pool });
    expect(summary).toMatchObject({ nodeCount: 6, edgeCount: 6, version: 'kg.csv.gz' });
    expect(await rows(`select count(*)::int n from edges`)).toEqual([{ n: 6 }]);
  });

  it('is all or nothing: a bad line names itself and leaves the loaded graph as it was', async () => {
    const bad = path.join(tmp, 'bad.csv');
    const lines = fs.readFileSync(FIXTURE, 'utf8').trim().split('\n');
    fs.writeFileSync(bad, [...lines, 'protein_protein,ppi,0,7097,gene/protein,TLR2,NCBI,1'].join('\n'));
    const error = await importPrimeKg(bad, { pool }).catch((e) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect(String(error.message)).toMatch(/bad\.csv:14.*expected 12 columns/);
    expect(await rows(`select count(*)::int n from edges`)).toEqual([{ n: 6 }]);
    const notPrimeKg = path.join(tmp, 'triples.csv');
    fs.writeFileSync(notPrimeKg, 'head,relation,tail\na,b,c\n');
    await expect(importPrimeKg(notPrimeKg, { pool })).rejects.toThrow(/expected 12 columns|lacks/);
  });

  it('recognises a node by all of its cells, not by its index alone, and a known row with an extra cell is still a bad line', async () => {
    const lines = fs.readFileSync(FIXTURE, 'utf8').trim().split('\n');
    const reused = path.join(tmp, 'reused-index.csv');
    // Right after rows of the same relation with both nodes known. Index 0 again, with another gene id: another node, and its edge to TNF another edge.
    const after = (row: string) => [...lines.slice(0, 3), row, ...lines.slice(3)].join('\n');
    fs.writeFileSync(reused, after('protein_protein,ppi,0,7098,gene/protein,TLR2,NCBI,1,7124,gene/protein,TNF,NCBI'));
    expect(await importPrimeKg(reused, { pool })).toMatchObject({ nodeCount: 7, edgeCount: 7 });
    expect(await rows(`select target_id from edges where source_id = 'Gene/Protein::NCBI:7098'`)).toEqual([{ target_id: 'Gene/Protein::NCBI:7124' }]);
    const extra = path.join(tmp, 'extra-cell.csv');
    fs.writeFileSync(extra, after('protein_protein,ppi,0,7097,gene/protein,TLR2,NCBI,1,7124,gene/protein,TNF,NCBI,x'));
    const error = await importPrimeKg(extra, { pool }).catch((e) => e);
    expect(String(error.message)).toMatch(/extra-cell\.csv:4.*expected 12 columns, found 13/);
  });
});
