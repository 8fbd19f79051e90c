import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, getPool } from '../../lib/db/client';
import { explainLinks, linkEntities, normaliseName, type EntityLink, type LinkReport } from '../../lib/kg';
import { wordnetDictionary } from '../../lib/kg/import/wordnet';
import { LAY_TERMS } from '../../lib/kg/linking/lay-terms';
import { WORDNET_NARROWER, WORDNET_SYNONYM } from '../../lib/kg/linking/store';

afterAll(closeDb);

async function nodeId(kind: string, name: string): Promise<string> {
  const { rows } = await getPool().query<{ id: string }>(`select id from nodes where kind = $1 and lower(name) = lower($2)`, [kind, name]);
  expect(rows).toHaveLength(1);
  return rows[0].id;
}

const ids = (links: EntityLink[]) => links.map((l) => l.nodeId);
const at = (links: EntityLink[], mention: string) => links.find((l) => l.mention === mention);
const rejectedAt = (report: LinkReport, mention: string) => report.rejected.filter((r) => r.mention === mention);

describe('everyday names from WordNet', () => {
  it("imports the synonyms of the graph's names, and only in the lexicon files of their kind", async () => {
    expect(wordnetDictionary()).not.toBeNull();
    const { rows } = await getPool().query<{ alias: string; name: string; kind: string; source: string }>(
      `select a.alias, n.name, n.kind, a.source from node_aliases a join nodes n on n.id = a.node_id where a.source = any($1::text[])`,
      [[WORDNET_SYNONYM, WORDNET_NARROWER]],
    );
    const of = (alias: string) => rows.filter((r) => r.alias.toLowerCase() === alias).map((r) => `${r.kind}:${r.name}`);
    expect(of('womb')).toEqual(['Anatomy:uterus']);
    expect(of('tylenol')).toEqual(['Compound:Acetaminophen']);
    expect(of('hay fever')).toEqual(['Disease:allergic rhinitis']);
    // An everyday word keeps its everyday sense: "speed" is not amphetamine, "battery" no side effect's name.
    expect(of('speed')).toEqual([]);
    // Nor is a verb or adjective ("come", "cold"), nor a word of another node's name ("cervix" is not the neck: "uterine cervix" holds it).
    for (const word of ['come', 'cold', 'hurting', 'cervix']) expect(of(word)).toEqual([]);
    expect(rows.some((r) => /battery/i.test(r.alias))).toBe(false);
    expect(rows.every((r) => r.kind !== 'Gene')).toBe(true);
  });

  it('links a trade name and an everyday name, saying they are lay terms', async () => {
    const text = 'Can Tylenol raise high blood pressure in a pregnant woman with a bad womb?';
    const links = await linkEntities(text);
    expect(at(links, 'Tylenol')).toMatchObject({ nodeId: await nodeId('Compound', 'Acetaminophen'), match: 'lay-term' });
    expect(at(links, 'high blood pressure')).toMatchObject({ nodeId: await nodeId('Disease', 'hypertension'), match: 'lay-term' });
    expect(at(links, 'womb')?.nodeId).toBe(await nodeId('Anatomy', 'uterus'));
    for (const l of links) expect(text.slice(l.start, l.end)).toBe(l.mention);
    expect(at(links, 'high blood pressure')!.confidence).toBeLessThan(1);
  });

  it('reads a narrower lay name as the one disease it is a kind of, less surely than a synonym', async () => {
    const links = await linkEntities('what genes go down in seasonal hay fever');
    const link = at(links, 'hay fever');
    expect(link?.nodeId).toBe(await nodeId('Disease', 'allergic rhinitis'));
    expect(link!.confidence).toBeLessThan(0.85);
    expect(links.some((l) => l.name === 'Fever')).toBe(false);
  });

  it('reads roman numerals as the digits of a type ("type II diabetes")', async () => {
    const t2 = await nodeId('Disease', 'type 2 diabetes mellitus');
    expect(ids(await linkEntities('genes upregulated in adult-onset diabetes mellitus'))).toEqual([t2]);
  });
});

describe('the lay-term table', () => {
  it('holds each term once per name, each with its source, every name one the graph bears', async () => {
    const { rows } = await getPool().query<{ normalised: string }>('select distinct normalised from nodes where normalised = any($1::text[])', [
      LAY_TERMS.map((t) => normaliseName(t.name)),
    ]);
    expect(new Set(rows.map((r) => r.normalised))).toEqual(new Set(LAY_TERMS.map((t) => normaliseName(t.name))));
    expect(new Set(LAY_TERMS.map((t) => `${t.term}|${t.name}`)).size).toBe(LAY_TERMS.length);
  });

  it('links a lay term to the name it means, and keeps the exact name of another kind as a reading', async () => {
    const mi = await nodeId('Side Effect', 'Myocardial infarction');
    expect(at(await linkEntities('Which pills can bring on a heart attack?'), 'heart attack')).toMatchObject({ nodeId: mi, match: 'lay-term' });
    // "alcoholism" is, as a lay term, the disease alcohol dependence, and a side effect's name: the disease first, the side effect a reading.
    const alcoholism = at(await linkEntities('Is disulfiram given for alcoholism?'), 'alcoholism')!;
    expect(alcoholism).toMatchObject({ nodeId: await nodeId('Disease', 'alcohol dependence'), match: 'lay-term' });
    expect(alcoholism.readings?.map((r) => r.nodeId)).toContain(await nodeId('Side Effect', 'Alcoholism'));
  });
});

describe('disease and symptom abbreviations', () => {
  it('carries a disease cue across a conjunction ("COPD and RA")', async () => {
    const links = await linkEntities('Any drugs that treat both COPD and RA?');
    expect(ids(links)).toEqual([await nodeId('Disease', 'chronic obstructive pulmonary disease'), await nodeId('Disease', 'rheumatoid arthritis')]);
  });

  it('reads a spelt-out abbreviation that is also a gene alias as the disease where a disease is spoken of, and as the gene next to "gene"', async () => {
    const report = await explainLinks('genes linked to HTN or DM2');
    const t2 = await nodeId('Disease', 'type 2 diabetes mellitus');
    expect(ids(report.links)).toContain(t2);
    expect(rejectedAt(report, 'DM2').some((r) => r.kind === 'Gene' && /words of a disease/.test(r.reason))).toBe(true);
    expect((await linkEntities('Is the DM2 gene expressed in the heart?')).find((l) => l.mention === 'DM2')?.kind).toBe('Gene');
  });

  it('reads initials no disease has as a symptom only where symptoms are spoken of', async () => {
    const acs = await nodeId('Symptom', 'Acute Coronary Syndrome');
    expect(ids(await linkEntities('Is ACS a presenting sign of anything?'))).toEqual([acs]);
    expect(ids(await linkEntities('Which drugs treat asthma in ACS cases?'))).not.toContain(acs);
  });

  it('spells out clipped words of a name ("hep B")', async () => {
    expect(ids(await linkEntities('meds for hep B?'))).toEqual([await nodeId('Disease', 'hepatitis B')]);
  });
});

describe('names written with their modifier after "of"', () => {
  it('reads "<head> of the <modifier>" as the name "<modifier> <head>", and a lay term so written', async () => {
    const text = 'Any genes tied to cancer of the ureter, or drugs for cancer of the womb?';
    const links = await linkEntities(text);
    expect(at(links, 'cancer of the ureter')).toMatchObject({ nodeId: await nodeId('Disease', 'ureter cancer'), match: 'reordered' });
    expect(at(links, 'cancer of the womb')?.nodeId).toBe(await nodeId('Disease', 'uterine cancer'));
    expect(links.some((l) => l.name === 'ureter')).toBe(false);
  });
});
