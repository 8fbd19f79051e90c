import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../support/test-db';
import { importDiseaseOntology, importGeneInfo, loadDemoGraph } from '../../lib/kg/import';

const fixture = (name: string) => path.resolve('tests/fixtures/import', name);

let db: Awaited<ReturnType<typeof createScratchDatabase>>;
let pool: pg.Pool;

// The demo graph holds BRCA1 (Gene::672), PPARG (Gene::5468), multiple sclerosis and Alzheimer's disease.
beforeAll(async () => {
  db = await createScratchDatabase('import_profiles');
  pool = new pg.Pool({ connectionString: db.url });
  await loadDemoGraph({ pool });
});

afterAll(async () => {
  await pool.end();
  await db.drop();
});

/** Node ids a name resolves to, through node names or aliases. */
async function resolve(name: string): Promise<string[]> {
  const { rows } = await pool.query(`select id from nodes where normalised = $1 union select node_id from node_aliases where normalised = $1 order by 1`, [
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim(),
  ]);
  return rows.map((r) => r.id);
}

describe('NCBI gene_info', () => {
  it('adds symbol, synonym, full-name and designation aliases and a profile for genes in the graph', async () => {
    const summary = await importGeneInfo(fixture('gene_info.tsv'), { pool });
    expect(summary).toMatchObject({ source: 'profiles:ncbi-gene', kind: 'profiles', profiles: 2, nodeCount: 2 });
    expect(await resolve('BRCA1')).toEqual(['Gene::672']);
    expect(await resolve('RNF53')).toEqual(['Gene::672']);
    expect(await resolve('breast cancer 1, early onset')).toEqual(['Gene::672']);
    expect(await resolve('NR1C3')).toEqual(['Gene::5468']);
    expect(await resolve('NOTINGRAPH')).toEqual([]);

    const { rows: sources } = await pool.query(`select distinct source from node_aliases where node_id = 'Gene::672' order by 1`);
    // The symbol equals the node's own name, so it is no extra alias.
    expect(sources.map((r) => r.source)).toEqual(['ncbi-full-name', 'ncbi-other-designation', 'ncbi-synonym']);
    const { rows } = await pool.query(`select text from entity_profiles where node_id = 'Gene::672'`);
    expect(rows[0].text).toBe(
      'BRCA1 (breast cancer 1, early onset): protein-coding; chromosome 17q21; also known as BRCAI, BRCC1, BROVCA1, FANCS, IRIS, PNCA4, PPP1R53, PSCP, RNF53; ' +
        // the shortest designations first (a common name such as 'cytochrome P450 3A4' before the long descriptions)
        'other designations: RING finger protein 53, Fanconi anemia, complementation group S, BRCA1/BRCA2-containing complex, subunit 1, ' +
        'breast cancer type 1 susceptibility protein, protein phosphatase 1, regulatory subunit 53',
    );
  });

  it('replaces its own rows on re-import', async () => {
    const count = async () => (await pool.query(`select count(*)::int as n from node_aliases`)).rows[0].n;
    const before = await count();
    await importGeneInfo(fixture('gene_info.tsv'), { pool });
    expect(await count()).toBe(before);
    expect((await pool.query(`select count(*)::int as n from entity_profiles where source = 'ncbi-gene'`)).rows[0].n).toBe(2);
  });
});

describe('Disease Ontology descriptions', () => {
  it('profiles the diseases in the graph and adds the DO name where it differs, and everyday short forms', async () => {
    const summary = await importDiseaseOntology(fixture('disease-ontology.tsv'), { pool });
    expect(summary).toMatchObject({ source: 'profiles:disease-ontology', profiles: 3 });
    const { rows } = await pool.query(`select text from entity_profiles where node_id = 'Disease::DOID:2377' and source = 'disease-ontology'`);
    expect(rows[0].text).toMatch(/^A demyelinating disease that involves damage to the fatty myelin sheaths/);
    expect(await resolve('Alzheimer disease')).toEqual(['Disease::DOID:10652']);
    const { rows: aliases } = await pool.query(`select node_id, alias from node_aliases where source = 'do-name' order by alias`);
    // The DO name where it differs, and the everyday short form of a formal name.
    expect(aliases).toEqual([
      { node_id: 'Disease::DOID:10652', alias: 'Alzheimer disease' },
      { node_id: 'Disease::DOID:9352', alias: 'type 2 diabetes' },
    ]);
    expect(await resolve('type 2 diabetes')).toEqual(['Disease::DOID:9352']);
  });

  it('leaves the other sources alone', async () => {
    await importDiseaseOntology(fixture('disease-ontology.tsv'), { pool });
    expect((await pool.query(`select count(*)::int as n from entity_profiles where source = 'ncbi-gene'`)).rows[0].n).toBe(2);
  });
});
