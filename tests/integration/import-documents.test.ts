import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../support/test-db';
import { ImportError, importPubmedqa } from '../../lib/kg/import';
import { storeCalibration } from '../../lib/channels/doc-relevance';

const FIXTURE = path.resolve('tests/fixtures/import/pubmedqa.json');
const dataset = JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) as Record<string, { QUESTION: string; CONTEXTS: string[]; LABELS: string[] }>;

let db: Awaited<ReturnType<typeof createScratchDatabase>>;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createScratchDatabase('import_documents');
  pool = new pg.Pool({ connectionString: db.url });
});

afterAll(async () => {
  await pool.end();
  await db.drop();
});

describe('PubMedQA documents', () => {
  it('stores each abstract as a document and each context section as a passage', async () => {
    const summary = await importPubmedqa(FIXTURE, { pool });
    const sections = Object.values(dataset).reduce((n, e) => n + e.CONTEXTS.length, 0);
    expect(summary).toMatchObject({ source: 'pubmedqa', kind: 'documents', documents: 3, passages: sections });

    const { rows } = await pool.query(`select id, external_id, title, meta from documents where external_id = '21645374'`);
    expect(rows[0]).toMatchObject({ id: 'pubmedqa:21645374', title: dataset['21645374'].QUESTION });
    expect(rows[0].meta).toMatchObject({ labels: ['BACKGROUND', 'RESULTS'], finalDecision: 'yes', year: '2011' });
  });

  it('gives passages offsets whose slice of the document text is the passage', async () => {
    const { rows } = await pool.query(
      `select d.text as doc, p.ordinal, p.start, p."end", p.label, p.text, d.external_id
         from passages p join documents d on d.id = p.document_id order by d.external_id, p.ordinal`,
    );
    expect(rows.length).toBeGreaterThan(3);
    for (const r of rows) {
      expect(r.doc.slice(r.start, r.end)).toBe(r.text);
      expect(r.text).toBe(dataset[r.external_id].CONTEXTS[r.ordinal]);
      expect(r.label).toBe(dataset[r.external_id].LABELS[r.ordinal]);
    }
  });

  it('finds passages by full-text search', async () => {
    const { rows } = await pool.query(`select p.id from passages p where p.tsv @@ plainto_tsquery('english', $1)`, [
      'mitochondrial permeability transition pore',
    ]);
    expect(rows.map((r) => r.id)).toEqual(['pubmedqa:21645374:1']);
  });

  it('replaces the source on re-import, keeping ids stable', async () => {
    await importPubmedqa(FIXTURE, { pool });
    const { rows } = await pool.query(
      `select (select count(*)::int from documents) as documents, (select count(*)::int from passages where tsv is null) as unindexed`,
    );
    expect(rows[0]).toEqual({ documents: 3, unindexed: 0 });
  });

  it("stores the corpus's relevance calibration in its database, once per corpus: a re-import replaces it", async () => {
    const stored = () =>
      pool.query<{ signature: string; value: { threshold: number | null; documents: number; method: string } }>(
        `select signature, value from corpus_calibrations`,
      );
    const first = await storeCalibration(pool);
    const before = (await stored()).rows;
    expect(before).toHaveLength(1);
    // Three documents are too few to calibrate on: no threshold (Infinity, stored as null).
    expect(first.threshold).toBe(Infinity);
    expect(before[0].value).toMatchObject({ threshold: null, documents: 3, method: expect.stringMatching(/too small to calibrate/) });
    expect(await storeCalibration(pool)).toEqual(first);
    expect((await stored()).rows).toEqual(before);

    await importPubmedqa(FIXTURE, { pool });
    await storeCalibration(pool);
    const after = (await stored()).rows;
    expect(after).toHaveLength(1);
    expect(after[0].signature).not.toBe(before[0].signature);
  });

  it('rejects a file that is not PubMedQA and keeps the documents', async () => {
    const bad = path.join(path.dirname(FIXTURE), 'triples.tsv');
    const error = await importPubmedqa(bad, { pool }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).reason).toMatch(/^not JSON/);
    expect((await pool.query(`select count(*)::int as n from documents`)).rows[0].n).toBe(3);
  });
});
