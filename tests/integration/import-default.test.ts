import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../support/test-db';
import { describeKnowledge, importTriples, loadDefaultKnowledge } from '../../lib/kg/import';
import { unchangedSinceImport } from '../../lib/kg/import/default-knowledge';
import { latestImport } from '../../lib/kg/import/records';
import { DEMO_FILES } from '../../lib/kg/demo/files';

const fixture = (name: string) => path.resolve('tests/fixtures/import', name);

let db: Awaited<ReturnType<typeof createScratchDatabase>>;
let pool: pg.Pool;
let dataDir: string;

/** A data directory in the shared layout, small: the demo graph's files under Hetionet's names plus the fixtures. */
function makeDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hopscope-data-'));
  for (const sub of ['hetionet', 'entities', 'documents']) fs.mkdirSync(path.join(dir, sub));
  fs.copyFileSync(DEMO_FILES.nodesFile, path.join(dir, 'hetionet', 'hetionet-v1.0-nodes.tsv'));
  fs.copyFileSync(DEMO_FILES.metagraphFile, path.join(dir, 'hetionet', 'hetionet-v1.0-metagraph.json'));
  const edges = fs.readFileSync(DEMO_FILES.edgesFile, 'utf8').trimEnd().split('\n').slice(0, 101).join('\n');
  fs.writeFileSync(path.join(dir, 'hetionet', 'hetionet-v1.0-edges-subset.sif.gz'), zlib.gzipSync(edges));
  fs.copyFileSync(fixture('disease-ontology.tsv'), path.join(dir, 'entities', 'disease-ontology-descriptions.tsv'));
  fs.writeFileSync(path.join(dir, 'entities', 'Homo_sapiens.gene_info.gz'), zlib.gzipSync(fs.readFileSync(fixture('gene_info.tsv'))));
  fs.writeFileSync(path.join(dir, 'documents', 'pubmedqa-ori_pqal.json.gz'), zlib.gzipSync(fs.readFileSync(fixture('pubmedqa.json'))));
  return dir;
}

beforeAll(async () => {
  db = await createScratchDatabase('import_default');
  pool = new pg.Pool({ connectionString: db.url });
  dataDir = makeDataDir();
});

afterAll(async () => {
  await pool.end();
  await db.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('loadDefaultKnowledge', () => {
  it('loads the demo graph into an empty database without a data directory, and says how to get Hetionet', async () => {
    const log: string[] = [];
    const summary = await loadDefaultKnowledge({ dataDir: null, pool, log: (l) => log.push(l) });
    expect(summary.imported).toEqual(['demo graph']);
    expect(summary.graph).toMatchObject({ source: 'demo', nodeCount: 66, edgeCount: 136 });
    expect(await describeKnowledge(pool)).toMatch(/^demo graph \(not Hetionet\): 66 nodes, 136 edges/);
    expect(log.join('\n')).toContain('npm run import -- hetionet --dir');
  });

  it('does nothing the second time', async () => {
    const summary = await loadDefaultKnowledge({ dataDir: null, pool });
    expect(summary.imported).toEqual([]);
  });

  it('replaces the demo graph once a data directory exists, then adds profiles and documents', async () => {
    const summary = await loadDefaultKnowledge({ dataDir, pool });
    expect(summary.imported).toEqual(['graph', 'profiles:disease-ontology', 'profiles:ncbi-gene', 'profiles:wordnet', 'pubmedqa']);
    expect(summary.graph).toMatchObject({ source: 'hetionet', version: 'v1.0', edgeCount: 100 });
    expect(await describeKnowledge(pool)).toMatch(
      /^Hetionet v1\.0: 66 nodes, 100 edges, \d+ metaedges; 5 entity profiles, \d+ aliases; 3 documents, \d+ passages$/,
    );
  });

  it('returns quickly when everything is loaded, and re-imports only a changed file', async () => {
    const started = Date.now();
    expect((await loadDefaultKnowledge({ dataDir, pool })).imported).toEqual([]);
    expect(Date.now() - started).toBeLessThan(2000);

    fs.appendFileSync(path.join(dataDir, 'entities', 'disease-ontology-descriptions.tsv'), 'DOID:9970\tobesity\tAn overnutrition with excess body fat.\n');
    expect((await loadDefaultKnowledge({ dataDir, pool })).imported).toEqual(['profiles:disease-ontology']);
  });

  it('hashes a file touched since its import once, then reads it as unchanged by its size and modification time', async () => {
    const file = path.join(dataDir, 'entities', 'disease-ontology-descriptions.tsv');
    const touched = new Date(Date.now() + 60_000);
    fs.utimesSync(file, touched, touched);
    const before = await latestImport(pool, 'profiles', 'profiles:disease-ontology');
    expect(unchangedSinceImport(before!, file)).toBe(false);

    expect((await loadDefaultKnowledge({ dataDir, pool })).imported).toEqual([]);
    const after = await latestImport(pool, 'profiles', 'profiles:disease-ontology');
    expect(after).toMatchObject({ checksum: before!.checksum, importedAt: before!.importedAt });
    expect(after!.files[0]).toMatchObject({ path: before!.files[0].path, seen: { path: path.resolve(file), mtimeMs: fs.statSync(file).mtimeMs } });
    expect(unchangedSinceImport(after!, file)).toBe(true);

    // Same size, new content: hashed, found changed, imported again.
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('excess body fat', 'excess body FAT'));
    expect(unchangedSinceImport(after!, file)).toBe(false);
    expect((await loadDefaultKnowledge({ dataDir, pool })).imported).toEqual(['profiles:disease-ontology']);
  });

  it('never replaces a graph someone imported', async () => {
    await importTriples(fixture('triples.tsv'), { pool });
    const summary = await loadDefaultKnowledge({ dataDir, pool });
    expect(summary.graph).toMatchObject({ source: 'triples' });
    expect(summary.imported).not.toContain('graph');
    expect(await describeKnowledge(pool)).toMatch(/^triples triples\.tsv: 5 nodes, 4 edges/);
  });
});
