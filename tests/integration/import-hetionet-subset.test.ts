import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../support/test-db';
import { resolveDataDir } from '../../lib/config';
import { ImportError, defaultDataFiles, importDiseaseOntology, importGeneInfo, importHetionet, type GraphImportSummary } from '../../lib/kg/import';

/** The per-metaedge counts of the subset, from ../shared/data/README.md. */
const SUBSET_COUNTS: Record<string, number> = {
  AdG: 102_240,
  AeG: 370_827,
  AuG: 97_848,
  CbG: 11_571,
  CcSE: 138_944,
  CdG: 21_102,
  CpD: 390,
  CrC: 6_486,
  CtD: 755,
  CuG: 18_756,
  DaG: 12_623,
  DdG: 7_623,
  DlA: 3_602,
  DpS: 3_357,
  DrD: 543,
  DuG: 7_731,
  GcG: 61_690,
  GiG: 147_164,
  GpPW: 84_372,
  'Gr>G': 265_672,
  PCiC: 1_029,
};

const dataDir = resolveDataDir();
const files = dataDir ? defaultDataFiles(dataDir) : null;
const hetionet = files?.hetionet?.edgesFile.endsWith('-subset.sif.gz') ? files.hetionet : undefined;

// The real data is not part of the repository; without it the demo-graph tests cover the importer.
describe.skipIf(!hetionet)('the Hetionet subset, imported once into a scratch database', () => {
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  let pool: pg.Pool;
  let summary: GraphImportSummary;

  beforeAll(async () => {
    db = await createScratchDatabase('import_subset');
    pool = new pg.Pool({ connectionString: db.url });
    summary = await importHetionet(hetionet!, { pool });
    console.log(
      `[import] Hetionet subset: ${summary.edgeCount} edges, ${summary.nodeCount} nodes in ${(summary.durationMs / 1000).toFixed(1)} s (${summary.edgesPerSecond} edges/s)`,
    );
  }, 300_000);

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('reproduces the published counts per metaedge and the node count', async () => {
    expect(summary.metaedgeCounts).toEqual(SUBSET_COUNTS);
    expect(summary.nodeCount).toBe(47_031);
    expect(summary.edgeCount).toBe(1_364_325);
    const { rows } = await pool.query(`select metaedge, count(*)::int as n from edges group by 1`);
    expect(Object.fromEntries(rows.map((r) => [r.metaedge, r.n]))).toEqual(SUBSET_COUNTS);
    const { rows: recorded } = await pool.query(`select abbr, edge_count from metaedges where edge_count > 0`);
    expect(Object.fromEntries(recorded.map((r) => [r.abbr, r.edge_count]))).toEqual(SUBSET_COUNTS);
    const { rows: nodes } = await pool.query(`select count(*)::int as n from nodes`);
    expect(nodes[0].n).toBe(47_031);
  });

  it('stays within the one-minute budget', () => {
    expect(summary.durationMs).toBeLessThan(60_000);
  });

  it('records degrees that add up to twice the edge count', async () => {
    const { rows } = await pool.query(`select (select sum(count)::int from node_degrees) as degrees, (select sum(degree)::int from nodes) as node_degrees`);
    expect(rows[0]).toEqual({ degrees: 2 * 1_364_325, node_degrees: 2 * 1_364_325 });
  });

  it('rejects a bad line deep inside the real edge file and keeps the imported graph', async () => {
    const lines = zlib.gunzipSync(fs.readFileSync(hetionet!.edgesFile)).toString('utf8').split('\n');
    lines[899_999] = 'Gene::1\tGiG'; // line 900,000
    const edgesFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hopscope-subset-')), 'corrupt-edges.sif.gz');
    fs.writeFileSync(edgesFile, zlib.gzipSync(lines.join('\n'), { level: 1 }));
    const error = await importHetionet({ ...hetionet!, edgesFile }, { pool }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).line).toBe(900_000);
    expect((error as ImportError).reason).toBe('expected 3 tab-separated columns (source, metaedge, target), found 2');
    const { rows } = await pool.query(`select count(*)::int as n from edges`);
    expect(rows[0].n).toBe(1_364_325);
    fs.rmSync(path.dirname(edgesFile), { recursive: true });
  }, 120_000);

  it.skipIf(!files?.geneInfo)('links gene symbols and synonyms from NCBI gene_info to the Hetionet genes', async () => {
    const result = await importGeneInfo(files!.geneInfo!, { pool });
    expect(result.profiles).toBe(20_945);
    const resolve = async (name: string) =>
      (
        await pool.query(`select id from nodes where normalised = $1 union select node_id from node_aliases where normalised = $1`, [name.toLowerCase()])
      ).rows.map((r) => r.id);
    expect(await resolve('BRCA1')).toEqual(['Gene::672']);
    expect(await resolve('RNF53')).toEqual(['Gene::672']);
    const { rows } = await pool.query(`select text from entity_profiles where node_id = 'Gene::672'`);
    expect(rows[0].text).toMatch(/^BRCA1 \(breast cancer 1, early onset\): protein-coding; chromosome 17q21; also known as BRCAI/);
  });

  it.skipIf(!files?.diseaseOntology)('gives 109 diseases a Disease Ontology profile, multiple sclerosis among them', async () => {
    const result = await importDiseaseOntology(files!.diseaseOntology!, { pool });
    expect(result.profiles).toBe(109);
    const { rows } = await pool.query(`select text from entity_profiles where node_id = 'Disease::DOID:2377' and source = 'disease-ontology'`);
    expect(rows[0].text).toMatch(/^A demyelinating disease/);
  });
});
