import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, getPool, getPrisma } from '@/lib/db/client';
import { generateQuestionSet } from '@/lib/eval/generate';
import { invalidateGraphSnapshot } from '@/lib/kg';
import { importPrimeKg } from '@/lib/kg/import';
import { writeSyntheticPrimeKg } from '@/lib/kg/import/primekg-synth';
import { loadMetagraph } from '@/lib/kg/loaded-metagraph';
import { listMethods } from '@/lib/methods/registry';
import { GET as neighborsRoute } from '@/app/api/kg/nodes/[id]/neighbors/route';
import { GET as searchRoute } from '@/app/api/kg/search/route';
import { createScratchDatabase } from '../support/test-db';
import { runToSuccess } from '../support/runs';

/**
 * Every method on a graph whose kinds and relations are PrimeKG's, not
 * Hetionet's: a small synthetic PrimeKG (PrimeKG's node types, its 30
 * relations, heavy-tailed degrees) imported into a database of its own, a
 * BioMedHop set generated from it, and offline runs of each method on it.
 */

const ROWS = 30_000;
const KG_METHODS = ['kg-rag', 'xr2', 'regram', 'bioweave', 'eigen1'];

let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let original: string | undefined;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'primekg-methods-'));

beforeAll(async () => {
  const file = path.join(tmp, 'kg.csv');
  await writeSyntheticPrimeKg(file, { rows: ROWS, seed: 7 });
  scratch = await createScratchDatabase('primekg_methods');
  original = process.env.DATABASE_URL;
  await closeDb();
  process.env.DATABASE_URL = scratch.url;
  invalidateGraphSnapshot();
  await importPrimeKg(file);
}, 300_000);

afterAll(async () => {
  await closeDb();
  process.env.DATABASE_URL = original;
  invalidateGraphSnapshot();
  await scratch?.drop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('a PrimeKG-shaped graph', () => {
  it("reads the metagraph's own relations: PrimeKG's kinds and display relations, not Hetionet's codes", async () => {
    const graph = await loadMetagraph();
    expect(graph.kinds).toContain('Gene/Protein');
    expect(graph.kinds).not.toContain('Compound');
    const indication = graph.byAbbr.get('indication:indication')!;
    expect(indication).toMatchObject({ source: 'Disease', target: 'Drug', sense: 'treat', category: 'Treats' });
    expect(graph.byAbbr.get('contraindication:contraindication')).toMatchObject({ sense: 'contraindicate', category: null });
  });

  it('serves the KG browser: search and neighbours of a PrimeKG node', async () => {
    const { rows } = await getPool().query<{ id: string; name: string }>(`select id, name from nodes where kind = 'Gene/Protein' order by degree desc limit 1`);
    const hub = rows[0];
    const found = await searchRoute(new Request(`http://x/api/kg/search?q=${encodeURIComponent(hub.name)}&kinds=Gene/Protein`), {
      params: Promise.resolve({}),
    });
    expect(found.status).toBe(200);
    expect(((await found.json()) as { items: { id: string }[] }).items.map((i) => i.id)).toContain(hub.id);
    const around = await neighborsRoute(new Request(`http://x/api/kg/nodes/x/neighbors?metaedges=protein_protein:ppi,drug_protein:target&limit=5`), {
      params: Promise.resolve({ id: encodeURIComponent(hub.id) }),
    });
    expect(around.status).toBe(200);
    const body = (await around.json()) as { total: number; edges: { edge: { metaedge: string }; neighbor: { kind: string } }[] };
    expect(body.total).toBeGreaterThan(0);
    expect(body.edges.every((e) => ['protein_protein:ppi', 'drug_protein:target'].includes(e.edge.metaedge))).toBe(true);
    expect(body.edges.every((e) => ['Gene/Protein', 'Drug'].includes(e.neighbor.kind))).toBe(true);
  });

  it('generates a BioMedHop set and answers it offline with every method, the KG methods from PrimeKG evidence', async () => {
    await generateQuestionSet({ generator: 'biomedhop', name: 'primekg-synthetic', seed: 'primekg', count: 4 });
    const questions = await (await getPrisma()).question.findMany({ where: { set: { name: 'primekg-synthetic' } }, orderBy: { ordinal: 'asc' } });
    expect(questions).toHaveLength(4);
    const set = await (await getPrisma()).questionSet.findFirstOrThrow({ where: { name: 'primekg-synthetic' } });
    expect(set.license).toMatch(/^derived from primekg /);
    const { rows: ids } = await getPool().query<{ id: string }>('select id from nodes');
    const nodeIds = new Set(ids.map((r) => r.id));
    const { rows: abbrs } = await getPool().query<{ abbr: string }>('select abbr from metaedges');
    const metaedges = new Set(abbrs.map((r) => r.abbr));
    // A KG record is PrimeKG's when it names one of its nodes or carries one of its relations.
    const fromPrimeKg = (e: { ref: string; data: unknown }) =>
      nodeIds.has(e.ref.replace(/^node:/, '')) ||
      JSON.stringify(e.data ?? null)
        .match(/"metaedge":"([^"]+)"/g)
        ?.some((m) => metaedges.has(m.slice(12, -1)));
    let linked = 0;
    for (const question of questions.slice(0, 2)) {
      for (const method of listMethods()) {
        const run = await runToSuccess({ method: method.id, questionId: question.id });
        if (!KG_METHODS.includes(method.id)) continue;
        const kg = run.evidence.filter((e) => e.channel === 'kg');
        expect(kg.length, `${method.id} on "${question.text}"`).toBeGreaterThan(0);
        expect(kg.some(fromPrimeKg), `${method.id}: KG evidence from PrimeKG`).toBe(true);
        const answer = run.answer as { nodeIds?: string[] };
        for (const id of answer.nodeIds ?? []) expect(nodeIds.has(id), `${method.id} answered ${id}`).toBe(true);
        if (answer.nodeIds?.length) linked++;
      }
    }
    // The KG methods' answers name PrimeKG's entities (an abstention names none).
    expect(linked).toBeGreaterThan(KG_METHODS.length);
  });
});
