import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, getPool } from '../../lib/db/client';
import { explainLinks, linkEntities, type EntityLink, type LinkReport } from '../../lib/kg';
import { abbreviates } from '../../lib/kg/linking/abbreviations';

afterAll(closeDb);

/** The node of `kind` named `name` (case-insensitive); the test fails unless there is exactly one. */
async function nodeId(kind: string, name: string): Promise<string> {
  const { rows } = await getPool().query<{ id: string }>(`select id from nodes where kind = $1 and lower(name) = lower($2)`, [kind, name]);
  expect(rows).toHaveLength(1);
  return rows[0].id;
}

function expectSpans(text: string, links: EntityLink[]) {
  for (const l of links) expect(text.slice(l.start, l.end)).toBe(l.mention);
}

const ids = (links: EntityLink[]) => links.map((l) => l.nodeId);
const rejectedAt = (report: LinkReport, mention: string) => report.rejected.filter((r) => r.mention === mention);

describe('clinical shorthand and short aliases', () => {
  it('reads shorthand as question words, whatever gene synonym it spells, and says why', async () => {
    const text = 'What SE does metformin have, and what is the tx for asthma? Is the MOA known? y/n';
    const report = await explainLinks(text);
    expect(report.links.map((l) => l.kind)).toEqual(['Compound', 'Disease']);
    expectSpans(text, report.links);
    const se = rejectedAt(report, 'SE');
    expect(se.length).toBeGreaterThan(0);
    expect(se.every((r) => /shorthand/.test(r.reason))).toBe(true);
    expect(rejectedAt(report, 'tx').every((r) => /shorthand/.test(r.reason))).toBe(true);
  });

  it('links a short alias only when it is written as a gene', async () => {
    const asGene = await Promise.all(
      ['Is the SE gene expressed in the liver?', 'Where is SE protein expressed?', 'Does metformin change the expression of SE?'].map((t) => linkEntities(t)),
    );
    for (const links of asGene) expect(links.filter((l) => l.mention === 'SE').map((l) => l.kind)).toEqual(['Gene']);
    const report = await explainLinks('Which drugs bind PT and treat asthma?');
    expect(report.links.filter((l) => l.kind === 'Gene')).toEqual([]);
    expect(rejectedAt(report, 'PT').some((r) => /shorthand|short or common-word alias/.test(r.reason))).toBe(true);
  });

  it('reads a disease written by its initials as the disease, and the same letters next to "gene" as the gene', async () => {
    const ms = await nodeId('Disease', 'multiple sclerosis');
    const report = await explainLinks('Which drugs treat MS?');
    expect(ids(report.links)).toEqual([ms]);
    expect(report.links[0]).toMatchObject({ mention: 'MS', match: 'abbreviation' });
    expect(rejectedAt(report, 'MS').some((r) => r.kind === 'Gene' && /alias/.test(r.reason))).toBe(true);
    const gene = await linkEntities('Is the MS gene expressed in the liver?');
    expect(gene.find((l) => l.mention === 'MS')?.kind).toBe('Gene');
    const pcos = await nodeId('Disease', 'polycystic ovary syndrome');
    expect(ids(await linkEntities('What symptoms does PCOS present?'))).toEqual([pcos]);
  });

  it('reads a short alias written as a symbol ("hERG") or next to a verb of genes ("bind HERG") as the gene', async () => {
    const kcnh2 = await nodeId('Gene', 'KCNH2');
    for (const text of ['Does doxazosin block hERG channels?', 'Does doxazosin bind HERG?']) expect(ids(await linkEntities(text)).includes(kcnh2)).toBe(true);
    expect(ids(await linkEntities('Per the HERG note, which drugs treat asthma?')).includes(kcnh2)).toBe(false);
  });

  it('in a question asking for genes, reads a drug verb next to a short alias as speaking of the asked genes, not of the alias', async () => {
    const kcnh2 = await nodeId('Gene', 'KCNH2');
    // The gene a drug verb names is the asked one: the span is the drug (its everyday name) or nothing, never a gene alias.
    for (const text of ['What proteins is AMP known to bind?', 'List the genes that AMP targets.'])
      expect((await linkEntities(text)).filter((l) => l.mention === 'AMP').map((l) => l.kind)).not.toContain('Gene');
    // A verb that may join two genes still says the alias is a gene, asked genes or not.
    expect(ids(await linkEntities('Name the genes HERG interacts with.')).includes(kcnh2)).toBe(true);
  });

  it('reads a weak disease cue as a strong one over an official symbol when the question asks for genes', async () => {
    const cad = await nodeId('Disease', 'coronary artery disease');
    expect(ids(await linkEntities('Which proteins have been linked to CAD?'))).toEqual([cad]);
    // Not asking for genes, the symbol stays the gene under a weak cue.
    expect((await linkEntities('Is CAD linked to the liver?')).find((l) => l.mention === 'CAD')?.kind).toBe('Gene');
  });

  it('reads a lower-case word right before the preposition that ends a question as its verb, not a name', async () => {
    const fall = await nodeId('Side Effect', 'Fall');
    for (const text of ['What classes do drugs prescribed for gout fall into?', 'Which class does colchicine fall under?'])
      expect(ids(await linkEntities(text)).includes(fall), text).toBe(false);
    // A noun before its own preposition, or a name after "is", stays a name.
    expect(ids(await linkEntities('Does colchicine cause a fall in blood pressure?')).includes(fall)).toBe(true);
    const colchicine = await nodeId('Compound', 'Colchicine');
    expect(ids(await linkEntities('Which pharmacologic class is colchicine in?'))).toContain(colchicine);
  });

  it('reads a word WordNet has as a verb, between its subject and the preposition it takes, as the verb of its clause', async () => {
    const fall = await nodeId('Side Effect', 'Fall');
    const report = await explainLinks('Do any statins fall under the class of HMG-CoA reductase inhibitors as well?');
    expect(ids(report.links).includes(fall)).toBe(false);
    expect(rejectedAt(report, 'fall').some((r) => /verb of its clause/.test(r.reason))).toBe(true);
    // After a verb, the same word is its object, a name ("bring on a fall in the elderly").
    expect(ids(await linkEntities('Can benzodiazepines bring on fall in elderly people?'))).toContain(fall);
  });

  it('reads an abbreviation in brackets after a name whose letters it spells as that name again, not another entity', async () => {
    const report = await explainLinks('Which genes go with polycystic ovary syndrome (PCOS) and with type 2 diabetes mellitus (T2DM)?');
    expect(ids(report.links)).toEqual([await nodeId('Disease', 'polycystic ovary syndrome'), await nodeId('Disease', 'type 2 diabetes mellitus')]);
    expect(rejectedAt(report, 'T2DM').some((r) => /in brackets after 'type 2 diabetes mellitus'/.test(r.reason))).toBe(true);
    // Letters the name before does not spell are an entity of their own.
    const own = await linkEntities('Which drugs treat gout (and bind ADRB2)?');
    expect(own.map((l) => l.name)).toEqual(['gout', 'ADRB2']);
  });

  it('reads a name in quotes whole, a function word at its start included', async () => {
    const aim2 = await nodeId('Pathway', 'The AIM2 inflammasome');
    expect(ids(await linkEntities('genes in the pathway called "The AIM2 inflammasome"?'))).toEqual([aim2]);
    expect(ids(await linkEntities("genes in 'The AIM2 inflammasome', please"))).toEqual([aim2]);
  });

  it('reads three lower-case letters as a symbol when the writer writes another symbol in lower case with its digits', async () => {
    const tkt = await nodeId('Gene', 'TKT');
    expect(ids(await linkEntities('is tkt coexpressed with brca1')).includes(tkt)).toBe(true);
    // Without such a symbol, three lower-case letters are not read as one.
    expect(ids(await linkEntities('is tkt coexpressed with the liver')).includes(tkt)).toBe(false);
  });

  it('spells out a clinical abbreviation inside a name ("pancreatic CA")', async () => {
    const text = 'Which genes are upregulated in pancreatic CA?';
    const links = await linkEntities(text);
    expect(ids(links)).toEqual([await nodeId('Disease', 'pancreatic cancer')]);
    expect(links[0]).toMatchObject({ mention: 'pancreatic CA', match: 'abbreviation' });
  });

  it('spells out initials inside a name as the words of a graph name they are the initials of, and nothing where none is', async () => {
    const pns = await linkEntities('Which genes are tied to PNS neoplasm in the graph?');
    expect(ids(pns)).toEqual([await nodeId('Disease', 'peripheral nervous system neoplasm')]);
    expect(pns[0]).toMatchObject({ mention: 'PNS neoplasm', match: 'abbreviation' });
    expect(ids(await linkEntities('Does lithium cause CNS disorder?'))).toContain(await nodeId('Side Effect', 'Central nervous system disorder'));
    // No name ends in "rota" with those initials before it: the capitals stay unread.
    expect(await linkEntities('Who drew up the PNS rota?')).toEqual([]);
  });

  it('reads initials as the disease where a relation phrase takes a disease as its object, and not after other words', async () => {
    const ms = await nodeId('Disease', 'multiple sclerosis');
    for (const text of ['Which medicine is used for MS?', 'Is any drug indicated in MS in adults?', 'Anything that relieves MS?'])
      expect(ids(await linkEntities(text))).toEqual([ms]);
    // The initials begin a longer noun phrase ("MS analysis"), or no phrase opens a slot: not the disease.
    expect(ids(await linkEntities('Which instrument is used for MS analysis?'))).not.toContain(ms);
    expect(ids(await linkEntities('Was the MS reading checked before the scan?'))).not.toContain(ms);
  });

  it('reads initials as a disease only where the words around them speak of one; over a gene symbol only a strong cue does', async () => {
    const gallbladder = await nodeId('Disease', 'gallbladder cancer');
    const gc = await nodeId('Gene', 'GC');
    const report = await explainLinks('Which symptoms does GC present?');
    expect(ids(report.links)).toEqual([gallbladder]);
    expect(rejectedAt(report, 'GC').some((r) => r.nodeId === gc && /words of a disease/.test(r.reason))).toBe(true);
    expect(ids(await linkEntities('Which drugs bind GC?'))).toEqual([gc]);
    expect(ids(await linkEntities('Per the MS note, which drugs treat asthma?')).includes(await nodeId('Disease', 'multiple sclerosis'))).toBe(false);
  });

  it('spells initials word by word, letters inside a word allowed after its first', () => {
    expect(abbreviates('pcos', 'polycystic ovary syndrome')).toBe('letters');
    expect(abbreviates('t2dm', 'type 2 diabetes mellitus')).toBe('initials');
    expect(abbreviates('ad', 'alzheimer s disease')).toBe('initials');
    expect(abbreviates('ms', 'multiple sclerosis')).toBe('initials');
    expect(abbreviates('sm', 'multiple sclerosis')).toBeNull();
    expect(abbreviates('m', 'multiple sclerosis')).toBeNull();
    expect(abbreviates('as', 'asthma')).toBeNull();
  });
});

describe('misspellings', () => {
  it('reads a longer span within a few edits of a name instead of its split into shorter exact pieces', async () => {
    const text = 'Which drugs treat nicotine dependance?';
    const report = await explainLinks(text);
    const disease = await nodeId('Disease', 'nicotine dependence');
    expect(ids(report.links)).toEqual([disease]);
    expect(report.links[0]).toMatchObject({ mention: 'nicotine dependance', match: 'fuzzy', edits: 1 });
    expect(report.links[0].confidence).toBeGreaterThan(0.8);
    expect(report.links[0].confidence).toBeLessThan(1);
    expect(rejectedAt(report, 'nicotine').some((r) => r.kind === 'Compound' && /piece of the longer reading/.test(r.reason))).toBe(true);
    expectSpans(text, report.links);
  });

  it('reads a swapped or dropped letter in a name of five or more characters, and none in a shorter one', async () => {
    const asthma = await nodeId('Disease', 'asthma');
    expect(ids(await linkEntities('Which drugs treat astmha?'))).toEqual([asthma]);
    expect(ids(await linkEntities('Which drugs treat asthm?'))).toEqual([asthma]);
    // "gout" has four letters: "gotu" is too short to be read as it.
    expect(await linkEntities('Which drugs treat gotu?')).toEqual([]);
  });

  it('reads a long name misspelt at both ends (by its middle letters), and a short one only within its one edit', async () => {
    // A slip in the first three and in the last three letters: neither end's bucket holds the name.
    expect(ids(await linkEntities('Is hipertensoin treated by any beta blocker?'))).toEqual([await nodeId('Disease', 'hypertension')]);
    expect(ids(await linkEntities('Does Dezmopressim treat anything?'))).toEqual([await nodeId('Compound', 'Desmopressin')]);
    expect(ids(await linkEntities('Do any drugs list Fixde drug eruptoin as an adverse event?'))).toEqual([await nodeId('Side Effect', 'Fixed drug eruption')]);
    // Eight letters allow one edit: two slips, one at each end, stay unread.
    expect(await linkEntities('Which drugs treat gluacomq?')).toEqual([]);
  });

  it('links a gene by its full name, misspelt, and not a compound inside it', async () => {
    const text = 'Which drugs upregulate glutathoine S-transferase theta 1?';
    const report = await explainLinks(text);
    const gstt1 = await nodeId('Gene', 'GSTT1');
    expect(ids(report.links)).toEqual([gstt1]);
    expect(report.links[0]).toMatchObject({ match: 'fuzzy-gene-full-name', mention: 'glutathoine S-transferase theta 1' });
    expect(rejectedAt(report, 'glutathoine').some((r) => r.kind === 'Compound')).toBe(true);
  });

  it('reads an English word as itself, not as a look-alike name, but as the plural of a name', async () => {
    expect(await linkEntities('Which tests does the physician order?')).toEqual([]);
    const links = await linkEntities('Which prostaglandin-class drugs treat glaucoma?');
    expect(links.map((l) => [l.mention, l.kind])).toContainEqual(['prostaglandin', 'Pharmacologic Class']);
  });

  it('reads two readings side by side as one misspelt name, and never reads a number as misspelt', async () => {
    const pleural = await nodeId('Side Effect', 'Pleural fibrosis');
    expect(ids(await linkEntities('Is Pleura fibrosis a side effect of amiodarone?'))).toEqual([pleural, await nodeId('Compound', 'Amiodarone')]);
    const text = 'In which tissues is zinc fingerr protein 624 expressed?';
    const links = await linkEntities(text);
    expect(links.map((l) => [l.name, l.mention])).toEqual([['ZNF624', 'zinc fingerr protein 624']]);
    expect((await linkEntities('Which drugs treat type 3 diabetes mellitus?')).map((l) => l.name)).not.toContain('type 2 diabetes mellitus');
  });

  it('reads a misspelt name word by word: a short word may be one edit off, never two', async () => {
    expect(ids(await linkEntities('Which genes are associated with penial cancer?'))).toEqual([await nodeId('Disease', 'penile cancer')]);
    expect((await linkEntities('Are there odd mast-cell findings in celiac disease?')).map((l) => l.name)).not.toContain('host cell');
  });

  it('never reads an English verb as a misspelt name', async () => {
    const links = await linkEntities('Which compounds targeted and shaped the asthma treatments?');
    expect(links.map((l) => l.mention)).toEqual(['asthma']);
  });
});

describe('names built from genes and genes by full name', () => {
  it('reads "<symbol> deficiency" as the condition named by the gene\'s full name', async () => {
    const text = 'Which drugs cause G6PD deficiency?';
    const report = await explainLinks(text);
    const condition = await nodeId('Side Effect', 'Glucose-6-phosphate dehydrogenase deficiency');
    expect(ids(report.links)).toEqual([condition]);
    expect(report.links[0]).toMatchObject({ mention: 'G6PD deficiency', match: 'gene-derived' });
    expect(rejectedAt(report, 'G6PD').some((r) => r.kind === 'Gene' && /longer reading/.test(r.reason))).toBe(true);
    expectSpans(text, report.links);
  });

  it('links genes by their NCBI full names, with the match type', async () => {
    const text = 'Does BCL2-associated X protein bind myeloid cell leukemia 1?';
    const links = await linkEntities(text);
    expect(ids(links)).toEqual([await nodeId('Gene', 'BAX'), await nodeId('Gene', 'MCL1')]);
    expect(links.map((l) => l.match)).toEqual(['gene-full-name', 'gene-full-name']);
    expectSpans(text, links);
  });
});

describe('the output contract', () => {
  it('gives every link a span, a match type, a confidence, and the other nodes the span matched', async () => {
    const text = 'Does metformin cause nausea in type 2 diabetes mellitus?';
    const links = await linkEntities(text);
    expectSpans(text, links);
    for (const l of links) {
      expect(l.match).toBeDefined();
      expect(l.confidence).toBeGreaterThan(0);
      expect(l.confidence).toBeLessThanOrEqual(1);
    }
    const nausea = links.find((l) => l.mention === 'nausea')!;
    expect(nausea.alternatives?.map((a) => a.kind)).toContain('Side Effect');
  });
});

describe('words that are no name here, and a misspelt name after "is"', () => {
  it('never links an everyday word naming a node with no edge, nor a prefix joined by a hyphen', async () => {
    const report = await explainLinks('A programmer learning biology asks which genes are co-expressed with PRDX5.');
    expect(report.links.map((l) => l.mention)).toEqual(['PRDX5']);
    expect(report.rejected.some((r) => r.mention === 'learning' && /no edge/.test(r.reason))).toBe(true);
  });

  it('reads a word after "is" or an article as part of a misspelt name, where no verb stands', async () => {
    const links = await linkEntities('Is prostrate cancer among the diseases tied to AR?');
    expect(links.find((l) => l.mention === 'prostrate cancer')?.name).toBe('prostate cancer');
    // A verb after its subject stays the clause's verb: "drugs that treat cancer" names no cancer.
    expect((await linkEntities('Do drugs that treat cancer bind the same genes?')).some((l) => l.match === 'fuzzy')).toBe(false);
  });
});
