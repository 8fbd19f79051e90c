import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, getPool } from '../../lib/db/client';
import { explainLinks, linkEntities, normaliseName, type EntityLink, type LinkReport } from '../../lib/kg';
import { wordnetDictionary } from '../../lib/kg/import/wordnet';
import { LAY_TERMS } from '../../lib/kg/linking/lay-terms';
import { DO_NARROWER, WORDNET_DERIVED, WORDNET_NARROWER, WORDNET_SYNONYM } from '../../lib/kg/linking/store';
import { asLinked } from '../../lib/llm/offline/linked';
import { readQuestion } from '../../lib/reading';

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

describe("a condition's name with its adjective read as a noun (WordNet)", () => {
  it('imports the name with the noun its adjective pertains to or comes from, never from an adjective of several nouns', async () => {
    const { rows } = await getPool().query<{ alias: string; name: string; kind: string }>(
      `select a.alias, n.name, n.kind from node_aliases a join nodes n on n.id = a.node_id where a.source = $1`,
      [WORDNET_DERIVED],
    );
    const of = (alias: string) => rows.filter((r) => r.alias === alias).map((r) => `${r.kind}:${r.name}`);
    expect(of('pregnancy diabetes')).toEqual(['Disease:gestational diabetes']);
    expect(of('stomach ulcer')).toContain('Side Effect:Gastric ulcer');
    // A side effect bears the name "Autism": the disease takes it all the same, a node of another kind.
    expect(of('autism')).toEqual(['Disease:autistic disorder']);
    // "cervical" pertains to the neck and to the cervix: no reading of it.
    expect(rows.filter((r) => r.name === 'cervical cancer')).toEqual([]);
    expect(rows.every((r) => ['Disease', 'Symptom', 'Side Effect'].includes(r.kind))).toBe(true);
  });

  it('reads "<condition> in/of the <noun>" as the name, over the shorter pieces inside it', async () => {
    const report = await explainLinks('Can pregnant women with diabetes in pregnancy take metformin?');
    expect(at(report.links, 'diabetes in pregnancy')).toMatchObject({ nodeId: await nodeId('Disease', 'gestational diabetes'), match: 'reordered' });
    expect(report.links.some((l) => l.name === 'Pregnancy')).toBe(false);
    expect(rejectedAt(report, 'pregnancy').some((r) => r.kind === 'Side Effect' && /longer reading/.test(r.reason))).toBe(true);
    const ulcer = await linkEntities('Has anyone had an ulcer of the stomach on ibuprofen?');
    expect(at(ulcer, 'ulcer of the stomach')?.nodeId).toBe(await nodeId('Side Effect', 'Gastric ulcer'));
  });

  it('links the condition noun to the disease and keeps the side effect of that name as a reading the relation picks', async () => {
    const genes = 'What genes have been tied to autism?';
    const link = at(await linkEntities(genes), 'autism')!;
    expect(link).toMatchObject({ nodeId: await nodeId('Disease', 'autistic disorder'), match: 'lay-term' });
    const sideEffect = await nodeId('Side Effect', 'Autism');
    expect(link.readings?.map((r) => r.nodeId)).toContain(sideEffect);
    const drugs = 'Name any medicine reported to cause autism.';
    const reading = readQuestion(drugs, { links: asLinked(await linkEntities(drugs)) });
    expect(reading.anchors.map((a) => a.entity.nodeId)).toEqual([sideEffect]);
  });
});

describe('a disease named in general words', () => {
  it('keeps the side effect so named as the link and the one disease whose name ends with the words as a narrower reading', async () => {
    const amd = await nodeId('Disease', 'age related macular degeneration');
    const sideEffect = await nodeId('Side Effect', 'Macular degeneration');
    const genes = 'Which genes are implicated in macular degeneration?';
    const link = at(await linkEntities(genes), 'macular degeneration')!;
    expect(link.nodeId).toBe(sideEffect);
    expect(link.readings?.map((r) => r.nodeId)).toContain(amd);
    // The relation picks the kind: genes are associated with diseases, side effects are caused by drugs.
    expect(readQuestion(genes, { links: asLinked(await linkEntities(genes)) }).anchors.map((a) => a.entity.nodeId)).toEqual([amd]);
    const drugs = 'Which drugs cause macular degeneration?';
    expect(readQuestion(drugs, { links: asLinked(await linkEntities(drugs)) }).anchors.map((a) => a.entity.nodeId)).toEqual([sideEffect]);
    // One word ends many names ("cancer", "diabetes"): no narrower reading from it.
    const diabetes = at(await linkEntities('Which genes are associated with diabetes?'), 'diabetes');
    expect(diabetes?.readings?.some((r) => r.name === 'gestational diabetes') ?? false).toBe(false);
  });
});

describe('a condition whose last words name a disease', () => {
  it('keeps the side effect as the link and the disease its last words name as a broader reading, read where a relation wants a disease', async () => {
    const psoriasis = await nodeId('Disease', 'psoriasis');
    const sideEffect = await nodeId('Side Effect', 'Pustular psoriasis');
    const treat = 'Which drugs treat pustular psoriasis?';
    const link = at(await linkEntities(treat), 'pustular psoriasis')!;
    expect(link.nodeId).toBe(sideEffect);
    expect(link.readings?.map((r) => r.nodeId)).toContain(psoriasis);
    expect(readQuestion(treat, { links: asLinked(await linkEntities(treat)) }).anchors.map((a) => a.entity.nodeId)).toEqual([psoriasis]);
    const cause = 'Which drugs cause pustular psoriasis?';
    expect(readQuestion(cause, { links: asLinked(await linkEntities(cause)) }).anchors.map((a) => a.entity.nodeId)).toEqual([sideEffect]);
  });
});

describe('a pharmacologic class named by its target gene', () => {
  it('reads "<symbol> inhibitor(s)" as the class the gene\'s designation names, in either number, and the symbol alone as the gene', async () => {
    const cls = await nodeId('Pharmacologic Class', 'Cytochrome P450 2C9 Inhibitors');
    for (const text of ['Which diseases does a CYP2C9 inhibitor treat?', 'list CYP2C9 inhibitors used for epilepsy'])
      expect(ids(await linkEntities(text))).toContain(cls);
    expect((await linkEntities('Which drugs bind CYP2C9?')).map((l) => l.kind)).toEqual(['Gene']);
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

describe("Disease Ontology's narrower terms, cancer head nouns, organ adjectives and unmarked eponyms", () => {
  it('imports a term the graph lacks as an alias of the disease its genus leads to, never one the graph names', async () => {
    const { rows } = await getPool().query<{ alias: string; name: string }>(
      `select a.alias, n.name from node_aliases a join nodes n on n.id = a.node_id where a.source = $1`,
      [DO_NARROWER],
    );
    const of = (alias: string) => rows.filter((r) => r.alias.toLowerCase() === alias).map((r) => r.name);
    expect(of('lymphoma')).toEqual(['lymphatic system cancer']);
    expect(of('prostate carcinoma')).toEqual(['prostate cancer']);
    expect(rows.some((r) => r.alias.toLowerCase() === r.name.toLowerCase())).toBe(false);
  });

  it('links the narrower term to the disease, keeping the side effect of that name as a reading the relation picks', async () => {
    const cancer = await nodeId('Disease', 'lymphatic system cancer');
    const sideEffect = await nodeId('Side Effect', 'Lymphoma');
    const genes = 'Name genes with a known tie to lymphoma.';
    const link = at(await linkEntities(genes), 'lymphoma')!;
    expect(link).toMatchObject({ nodeId: cancer, match: 'lay-term' });
    expect(link.confidence).toBeLessThan(0.85);
    expect(link.readings?.map((r) => r.nodeId)).toContain(sideEffect);
    expect(readQuestion(genes, { links: asLinked(await linkEntities(genes)) }).anchors.map((a) => a.entity.nodeId)).toEqual([cancer]);
    const drugs = 'Which medicines can bring on lymphoma as an adverse effect?';
    expect(readQuestion(drugs, { links: asLinked(await linkEntities(drugs)) }).anchors.map((a) => a.entity.nodeId)).toEqual([sideEffect]);
  });

  it("reads a carcinoma, neoplasm, tumour or malignancy of an organ as that organ's cancer, before or after the organ", async () => {
    const links = await linkEntities('Do any compounds help malignant tumours of the pancreas or hepatic carcinoma?');
    expect(at(links, 'malignant tumours of the pancreas')).toMatchObject({ nodeId: await nodeId('Disease', 'pancreatic cancer'), match: 'head-noun' });
    expect(at(links, 'hepatic carcinoma')?.nodeId).toBe(await nodeId('Disease', 'liver cancer'));
    // Only a disease: the pathway "Bladder Cancer" or a side effect is no organ's cancer by another head.
    expect((await linkEntities('genes of the kidney neoplasm')).find((l) => l.match === 'head-noun')?.kind).toBe('Disease');
  });

  it('reads a disease named with its organ noun written as the adjective ("renal cancer"), the side effect of that name a reading', async () => {
    const link = at(await linkEntities('What is prescribed against renal cancer?'), 'renal cancer')!;
    expect(link.nodeId).toBe(await nodeId('Disease', 'kidney cancer'));
    expect(link.readings?.map((r) => r.nodeId)).toContain(await nodeId('Side Effect', 'Renal cancer'));
  });

  it('reads an eponym written without its apostrophe, alone or in its name', async () => {
    const parkinson = await nodeId('Disease', "Parkinson's disease");
    expect(ids(await linkEntities('any genes behind parkinsons?'))).toEqual([parkinson]);
    expect(ids(await linkEntities('Which genes are behind Parkinsons disease?'))).toEqual([parkinson]);
  });

  it('reads initials taken from inside words as the name whose words give the most of them ("AIDS")', async () => {
    const report = await explainLinks('Which drugs are used to treat AIDS?');
    expect(ids(report.links)).toEqual([await nodeId('Disease', 'acquired immunodeficiency syndrome')]);
  });

  it('never links the everyday words for kinds', async () => {
    expect(await linkEntities('Which medication treats the illness, and which body part or protein does it touch?')).toEqual([]);
  });
});

describe('general words for the one disease below them (WordNet)', () => {
  it('keeps the side effect a synonym names as the link and the one disease among its hyponyms as a narrower reading', async () => {
    const endogenous = await nodeId('Disease', 'endogenous depression');
    const text = 'What medicines treat clinical depression?';
    const link = at(await linkEntities(text), 'clinical depression')!;
    expect(link.kind).toBe('Side Effect');
    expect(link.readings?.map((r) => r.nodeId)).toContain(endogenous);
    expect(readQuestion(text, { links: asLinked(await linkEntities(text)) }).anchors.map((a) => a.entity.nodeId)).toEqual([endogenous]);
  });

  it('reads one word ending exactly one disease name as that disease, never a word ending several', async () => {
    expect(at(await linkEntities('genes tied to fibroids'), 'fibroids')).toMatchObject({
      nodeId: await nodeId('Disease', 'uterine fibroid'),
      match: 'narrower',
    });
    expect((await linkEntities('genes tied to diabetes')).some((l) => l.kind === 'Disease' && /gestational/.test(l.name))).toBe(false);
  });

  it("lends a synonym that is a side effect's name to the disease the synset names, the side effect a reading", async () => {
    const link = at(await linkEntities('Which genes are tied to attention deficit disorder?'), 'attention deficit disorder')!;
    expect(link.nodeId).toBe(await nodeId('Disease', 'attention deficit hyperactivity disorder'));
    expect(link.readings?.map((r) => r.nodeId)).toContain(await nodeId('Side Effect', 'Attention deficit disorder'));
  });
});
