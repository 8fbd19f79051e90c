import { linksIn as linkMentions, type Mention } from '../support/linked-reading';
import { describe, expect, it } from 'vitest';
import { splitInlineOptions } from '@/lib/reading/options';
import { QuestionReadingSchema, type LinkedEntity, type QuestionReading } from '@/lib/llm/offline/types';
import { candidateEntities, readingOf, seedEntities, readQuestion } from '@/lib/reading';

/**
 * The one question reading, over many wordings per family. Links are given
 * as the entity linker would give them (offsets found in the text; `also`
 * names the mention's readings of other kinds), so these tests exercise the
 * reading alone.
 */

type Entity = { mention: string; kind: string; id: string; also?: { kind: string; id: string }[] };

const E = {
  asthma: { mention: 'asthma', kind: 'Disease', id: 'Disease::DOID:2841' },
  psoriasis: { mention: 'psoriasis', kind: 'Disease', id: 'Disease::DOID:8893' },
  ms: { mention: 'multiple sclerosis', kind: 'Disease', id: 'Disease::DOID:2377' },
  crohn: { mention: "Crohn's disease", kind: 'Disease', id: 'Disease::DOID:8778' },
  t2d: { mention: 'type 2 diabetes mellitus', kind: 'Disease', id: 'Disease::DOID:9352' },
  hypertension: { mention: 'hypertension', kind: 'Disease', id: 'Disease::DOID:10763' },
  parkinson: { mention: "Parkinson's disease", kind: 'Disease', id: 'Disease::DOID:14330' },
  metformin: { mention: 'metformin', kind: 'Compound', id: 'Compound::DB00331' },
  ibuprofen: { mention: 'ibuprofen', kind: 'Compound', id: 'Compound::DB01050' },
  amlodipine: { mention: 'amlodipine', kind: 'Compound', id: 'Compound::DB00381' },
  warfarin: { mention: 'warfarin', kind: 'Compound', id: 'Compound::DB00682' },
  aspirin: { mention: 'aspirin', kind: 'Compound', id: 'Compound::DB00945' },
  tnf: { mention: 'TNF', kind: 'Gene', id: 'Gene::7124' },
  ins: { mention: 'INS', kind: 'Gene', id: 'Gene::3630' },
  il6: { mention: 'IL6', kind: 'Gene', id: 'Gene::3569' },
  prkab1: { mention: 'PRKAB1', kind: 'Gene', id: 'Gene::5564' },
  brca1: { mention: 'BRCA1', kind: 'Gene', id: 'Gene::672' },
  il13: { mention: 'IL13', kind: 'Gene', id: 'Gene::3596' },
  nod2: { mention: 'NOD2', kind: 'Gene', id: 'Gene::64127' },
  apoe: { mention: 'APOE', kind: 'Gene', id: 'Gene::348' },
  nausea: { mention: 'nausea', kind: 'Symptom', id: 'Symptom::D009325', also: [{ kind: 'Side Effect', id: 'Side Effect::C0027497' }] },
  headache: { mention: 'headache', kind: 'Symptom', id: 'Symptom::D006261', also: [{ kind: 'Side Effect', id: 'Side Effect::C0018681' }] },
  diarrhoea: { mention: 'diarrhoea', kind: 'Symptom', id: 'Symptom::D003967', also: [{ kind: 'Side Effect', id: 'Side Effect::C0011991' }] },
} satisfies Record<string, Entity>;

const linksIn = (text: string, entities: Entity[]): LinkedEntity[] =>
  linkMentions(
    text,
    entities.map((e): Mention => [e.mention, e.kind, e.id, e.also?.map((r): [string, string] => [r.kind, r.id])]),
  );

function read(text: string, ...entities: Entity[]): QuestionReading {
  return QuestionReadingSchema.parse(readQuestion(text, { links: linksIn(text, entities) }));
}

/** "name[kind]:DaG>CbG" per anchor, the preferred metaedge of each hop. */
const chains = (r: QuestionReading) =>
  r.anchors.map((a) => `${a.negated ? '!' : ''}${a.entity.name}[${a.entity.kind}]:${a.chain.map((h) => h.edges[0].metaedge).join('>')}`);
const claims = (r: QuestionReading) => r.propositions.map((p) => `${p.subject.kind}-${p.hop.edges[0].metaedge}-${p.object.kind}`);

describe('lookup, in varied wordings', () => {
  it.each([
    ['genes linked to asthma?'],
    ['which genes are implicated in asthma'],
    ['Which genes carry susceptibility to asthma?'],
    ['Asthma is a common chronic airway disease. Which genes are associated with asthma?'],
    ['name the risk genes for asthma'],
  ])('%s', (text) => {
    const r = read(text, E.asthma);
    expect(r.answerKind).toBe('Gene');
    expect(r.operator).toBe('lookup');
    expect(chains(r)).toEqual(['asthma[Disease]:DaG']);
  });

  it.each([
    ['Which drugs are utilised in the treatment of hypertension?'],
    ['what medicines are prescribed for hypertension'],
    ['Which compounds are indicated for hypertension?'],
    ['I have hypertension - what drugs could my doctor give me for it?'],
  ])('treatment: %s', (text) => {
    const r = read(text, E.hypertension);
    expect(r.answerKind).toBe('Compound');
    expect(chains(r)).toEqual(['hypertension[Disease]:CtD']);
  });

  it('pathway: participation wordings', () => {
    for (const text of ['Which pathways does BRCA1 participate in?', 'What pathways is BRCA1 involved in?', 'BRCA1 is part of which pathways?']) {
      expect(chains(read(text, E.brca1)), text).toEqual(['BRCA1[Gene]:GpPW']);
    }
  });

  it('symptom: presentation wordings', () => {
    for (const text of [
      "What symptoms does Parkinson's disease present with?",
      "Which symptoms are seen in Parkinson's disease?",
      "What are the clinical signs of Parkinson's disease?",
    ]) {
      const r = read(text, E.parkinson);
      expect(r.answerKind, text).toBe('Symptom');
      expect(chains(r), text).toEqual(["Parkinson's disease[Disease]:DpS"]);
    }
  });

  it('pharmacologic class: membership wordings', () => {
    for (const text of [
      'Which pharmacologic class does metformin belong to?',
      'To which drug class does metformin belong?',
      'What is the pharmacological class of metformin?',
    ]) {
      const r = read(text, E.metformin);
      expect(r.answerKind, text).toBe('Pharmacologic Class');
      expect(chains(r), text).toEqual(['metformin[Compound]:PCiC']);
    }
  });
});

describe('shared neighbour, intersection and two hops', () => {
  it.each([
    ["What genes do multiple sclerosis and Crohn's disease have in common?"],
    ["multiple sclerosis and Crohn's disease share which genes?"],
    ["Which genes are associated with multiple sclerosis as well as Crohn's disease?"],
  ])('%s', (text) => {
    const r = read(text, E.ms, E.crohn);
    expect(r.operator).toBe('shared_neighbor');
    expect(r.answerKind).toBe('Gene');
    expect(chains(r)).toEqual(['multiple sclerosis[Disease]:DaG', "Crohn's disease[Disease]:DaG"]);
  });

  it('intersection of different relations', () => {
    const r = read('Which genes are associated with asthma and bound by metformin?', E.asthma, E.metformin);
    expect(r.operator).toBe('intersection');
    expect(chains(r)).toEqual(['asthma[Disease]:DaG', 'metformin[Compound]:CbG']);
  });

  it.each([['Which compounds bind genes associated with asthma?'], ['What drugs target proteins linked to asthma?']])('two hops: %s', (text) => {
    const r = read(text, E.asthma);
    expect(r.operator).toBe('path');
    expect(chains(r)).toEqual(['asthma[Disease]:DaG>CbG']);
  });
});

describe('count', () => {
  it.each([
    ['How many genes are associated with multiple sclerosis?', 'Gene', 'DaG'],
    ['What is the number of genes linked to multiple sclerosis?', 'Gene', 'DaG'],
    ['how many drugs treat multiple sclerosis', 'Compound', 'CtD'],
    ['Count the compounds indicated for multiple sclerosis.', 'Compound', 'CtD'],
  ])('%s', (text, kind, metaedge) => {
    const r = read(text, E.ms);
    expect(r.operator).toBe('count');
    expect(r.outputFormat).toBe('count');
    expect(r.answerKind).toBe(kind);
    expect(chains(r)).toEqual([`multiple sclerosis[Disease]:${metaedge}`]);
  });
});

describe('yes/no', () => {
  it.each([
    ['Does metformin treat type 2 diabetes mellitus?'],
    ['Do you know if metformin treats type 2 diabetes mellitus?'],
    ['Is metformin prescribed for type 2 diabetes mellitus?'],
    ['Can type 2 diabetes mellitus be treated with metformin?'],
    ['I wonder whether metformin is used against type 2 diabetes mellitus.'],
  ])('treats: %s', (text) => {
    const r = read(text, E.metformin, E.t2d);
    expect(r.operator).toBe('yesno');
    expect(r.outputFormat).toBe('yesno');
    expect(r.propositions).toHaveLength(1);
    expect(r.propositions[0].hop.edges[0].metaedge).toBe('CtD');
  });

  it.each([
    ['Can ibuprofen cause headache?', E.headache],
    ['Do you know if ibuprofen can cause headache?', E.headache],
    ['Is nausea a side effect of ibuprofen?', E.nausea],
    ['My doctor put me on ibuprofen. Could it give me diarrhoea?', E.diarrhoea],
    ['Is diarrhoea one of the adverse effects of ibuprofen?', E.diarrhoea],
  ])("side effect, read through the mention's Side Effect reading: %s", (text, effect) => {
    const r = read(text, E.ibuprofen, effect);
    expect(r.operator).toBe('yesno');
    expect(claims(r)).toHaveLength(1);
    expect(claims(r)[0]).toMatch(/CcSE/);
    expect([r.propositions[0].subject.kind, r.propositions[0].object.kind]).toContain('Side Effect');
  });

  it.each([['Does metformin bind PRKAB1?'], ['Is PRKAB1 a target of metformin?'], ['is there evidence that metformin acts on PRKAB1']])('binds: %s', (text) => {
    const r = read(text, E.metformin, E.prkab1);
    expect(r.operator).toBe('yesno');
    expect(claims(r)[0]).toMatch(/CbG/);
  });

  it('"is there a drug that treats both …" asks whether the intersection is empty', () => {
    const r = read('Is there a drug that treats both asthma and psoriasis?', E.asthma, E.psoriasis);
    expect(r.operator).toBe('yesno');
    expect(chains(r)).toEqual(['asthma[Disease]:CtD', 'psoriasis[Disease]:CtD']);
  });

  it('"do you know which …" asks for entities, not for yes or no', () => {
    const r = read('Do you know which drugs treat asthma?', E.asthma);
    expect(r.operator).toBe('lookup');
    expect(r.outputFormat).toBe('list');
  });
});

describe('exclusion', () => {
  it.each([
    ['Which drugs besides metformin treat type 2 diabetes mellitus?'],
    ['Other than metformin, which medication is prescribed for type 2 diabetes mellitus?'],
  ])('%s', (text) => {
    const r = read(text, E.metformin, E.t2d);
    expect(chains(r)).toEqual(['type 2 diabetes mellitus[Disease]:CtD']);
    expect(r.excluded.map((e) => e.nodeId)).toEqual([E.metformin.id]);
  });

  it('an exclusion before a constraint of another kind negates it', () => {
    const r = read('Which genes are associated with asthma but not with psoriasis?', E.asthma, E.psoriasis);
    expect(chains(r)).toEqual(['asthma[Disease]:DaG', '!psoriasis[Disease]:DaG']);
    expect(r.excluded).toEqual([]);
  });
});

describe('multiple choice: options are candidates, never anchors', () => {
  const options = ['IL13', 'NOD2', 'BRCA1', 'APOE'];

  it.each([
    ['Which of these genes is associated with asthma and psoriasis: IL13, NOD2, BRCA1 or APOE?'],
    ['Out of the given list, which Gene is associated with asthma and psoriasis. Given list is: IL13, NOD2, BRCA1, APOE'],
    ['Which gene is associated with both asthma and psoriasis? A) IL13 B) NOD2 C) BRCA1 D) APOE'],
    ['Which gene is associated with both asthma and psoriasis? (a) IL13 (b) NOD2 (c) BRCA1 (d) APOE'],
    ['Which gene is associated with both asthma and psoriasis?\nA. IL13\nB. NOD2\nC. BRCA1\nD. APOE'],
    ['Which gene is associated with both asthma and psoriasis? 1) IL13 2) NOD2 3) BRCA1 4) APOE'],
    ['Choose the gene associated with asthma and psoriasis from the following: IL13; NOD2; BRCA1; APOE'],
  ])('%s', (text) => {
    const r = read(text, E.asthma, E.psoriasis, E.il13, E.nod2, E.brca1, E.apoe);
    expect(r.outputFormat).toBe('option');
    expect(r.options.map((o) => o.text)).toEqual(options);
    expect(r.options.map((o) => o.links[0]?.name)).toEqual(options);
    expect(chains(r)).toEqual(['asthma[Disease]:DaG', 'psoriasis[Disease]:DaG']);
    expect(r.answerKind).toBe('Gene');
    const links = linksIn(text, [E.asthma, E.psoriasis, E.il13, E.nod2, E.brca1, E.apoe]);
    expect(seedEntities(r, links).map((e) => e.name)).toEqual(['asthma', 'psoriasis']);
    expect(candidateEntities(r).map((e) => e.name)).toEqual(options);
  });

  it.each([
    ['Gallbladder cancer: which ONE of the following genes is associated with asthma — IL13, NOD2, BRCA1, or APOE?'],
    ['Which of the following genes — IL13, NOD2, BRCA1 or APOE — is genetically linked to asthma?'],
    ['Given list is: IL13, NOD2, BRCA1, APOE. Which one has a genetic link with asthma?'],
    ['Pick the one gene related to asthma: IL13 / NOD2 / BRCA1 / APOE'],
    ['Which gene is linked to asthma? Options: (1) IL13 (2) NOD2 (3) BRCA1 (4) APOE'],
    ['Which single gene here is linked to asthma? A: IL13 B: NOD2 C: BRCA1 D: APOE'],
  ])('a list set off by a colon or dashes, anywhere: %s', (text) => {
    const r = read(text, E.asthma, E.il13, E.nod2, E.brca1, E.apoe);
    expect(r.options.map((o) => o.text)).toEqual(options);
    expect(chains(r)).toEqual(['asthma[Disease]:DaG']);
    expect(r.stem).not.toMatch(/NOD2/);
  });

  it('two choices joined by "or" after a colon', () => {
    const r = read('Which compound treats hypertension: amlodipine or metformin?', E.hypertension, E.amlodipine, E.metformin);
    expect(r.options.map((o) => o.text)).toEqual(['amlodipine', 'metformin']);
    expect(chains(r)).toEqual(['hypertension[Disease]:CtD']);
  });

  it.each([
    ['Which of metformin, warfarin or aspirin treats type 2 diabetes mellitus?', [E.metformin, E.warfarin, E.aspirin], E.t2d, 'CtD'],
    ['Which of metformin or aspirin treats type 2 diabetes mellitus?', [E.metformin, E.aspirin], E.t2d, 'CtD'],
    ["Which of the genes BRCA1, TNF, INS and APOE is associated with Crohn's disease?", [E.brca1, E.tnf, E.ins, E.apoe], E.crohn, 'DaG'],
    ['Is it IL6, TNF or INS that is associated with asthma?', [E.il6, E.tnf, E.ins], E.asthma, 'DaG'],
    ['Among metformin, warfarin and aspirin, which one treats type 2 diabetes mellitus?', [E.metformin, E.warfarin, E.aspirin], E.t2d, 'CtD'],
  ])('a list inside the sentence, governed by a singular selection: %s', (text, items, anchor, metaedge) => {
    const r = read(text, anchor, ...items);
    expect(r.outputFormat).toBe('option');
    expect(r.options.map((o) => o.text)).toEqual(items.map((e) => e.mention));
    expect(chains(r)).toEqual([`${anchor.mention}[Disease]:${metaedge}`]);
    expect(candidateEntities(r).map((e) => e.name)).toEqual(items.map((e) => e.mention));
  });

  it.each([
    ["Which genes are associated with both multiple sclerosis and Crohn's disease?", [E.ms, E.crohn]],
    ["Which genes are shared by asthma, psoriasis and Crohn's disease?", [E.asthma, E.psoriasis, E.crohn]],
    ["Among asthma, psoriasis and Crohn's disease, which genes are shared?", [E.asthma, E.psoriasis, E.crohn]],
    ["Which of these genes are associated with asthma, psoriasis and Crohn's disease?", [E.asthma, E.psoriasis, E.crohn]],
  ])('a list with no singular selection over it names the anchors: %s', (text, anchors) => {
    const r = read(text, ...anchors);
    expect(r.options).toEqual([]);
    expect(chains(r)).toEqual(anchors.map((a) => `${a.mention}[Disease]:DaG`));
  });

  it('compounds that treat one thing and bind another are two anchors', () => {
    const r = read('Which compounds treat hypertension and bind BRCA1?', E.hypertension, E.brca1);
    expect(r.options).toEqual([]);
    expect(r.anchors.map((a) => a.entity.name)).toEqual(['hypertension', 'BRCA1']);
  });

  it('options given apart are candidates too, with their own links', () => {
    const text = 'Which gene is associated with both asthma and psoriasis?';
    const r = readingOf({
      question: text,
      options: { A: 'IL13', B: 'APOE' },
      entities: linksIn(text, [E.asthma, E.psoriasis]),
      optionLinks: { A: linksIn('IL13', [E.il13]), B: linksIn('APOE', [E.apoe]) },
    });
    expect(r.outputFormat).toBe('option');
    expect(seedEntities(r, []).map((e) => e.name)).toEqual(['asthma', 'psoriasis']);
    expect(candidateEntities(r).map((e) => e.name)).toEqual(['IL13', 'APOE']);
  });
});

describe('inline option forms', () => {
  it('is not fooled by a colon before a clause, a list of the anchors, or "true or false"', () => {
    expect(splitInlineOptions('Consider asthma: which genes are associated with it?').options).toEqual([]);
    expect(splitInlineOptions('Which genes are shared by: asthma and psoriasis?').options).toEqual([]);
    expect(splitInlineOptions('Metformin treats type 2 diabetes: true or false?').options).toEqual([]);
    expect(splitInlineOptions('Is vitamin A a treatment? a. b.').options).toEqual([]);
  });

  it('keeps a bracketed part of an option and drops the closing question mark', () => {
    const { stem, options } = splitInlineOptions('Which is a gene: IL-6 (interleukin 6), TNF or aspirin?');
    expect(stem).toBe('Which is a gene?');
    expect(options.map((o) => o.text)).toEqual(['IL-6 (interleukin 6)', 'TNF', 'aspirin']);
  });
});

describe('a kind word giving an entity its role', () => {
  it.each([['Medicines with nausea recorded as a side effect — name them.'], ['Compounds reporting nausea as an adverse effect: which ones?']])(
    'describes the entity ("nausea as a side effect"), not the answer: %s',
    (text) => {
      const r = read(text, E.nausea);
      expect(r.answerKind).toBe('Compound');
      expect(chains(r)).toEqual(['nausea[Side Effect]:CcSE']);
    },
  );
});

describe('a question wrapped in context', () => {
  it.each([
    ['A 60-year-old with asthma is referred for blood pressure control. Which drugs treat hypertension?'],
    ['Writing a grant on asthma: which drugs treat hypertension?'],
    ['Background for an asthma review — which medications are used for hypertension?'],
  ])('entities named only outside the asking clause are context: %s', (text) => {
    const r = read(text, E.asthma, E.hypertension);
    expect(chains(r)).toEqual(['hypertension[Disease]:CtD']);
    expect(r.notes.some((n) => /asthma is named outside the clause that asks/.test(n))).toBe(true);
  });

  it('a narrative clause is context though it holds a relative "who" or "which", when another clause asks with a question mark', () => {
    const r = read(
      'My neighbour, a retired nurse who takes warfarin for her heart and which she says upsets her stomach, keeps reading about asthma at night. Does aspirin bind PTGS1?',
      E.warfarin,
      E.asthma,
      E.aspirin,
      { mention: 'PTGS1', kind: 'Gene', id: 'Gene::5742' },
    );
    expect(claims(r)).toEqual(['Compound-CbG-Gene']);
    expect(r.notes.some((n) => /asthma is named outside the clause that asks/.test(n))).toBe(true);
    // Opening with its asking word, a clause without a question mark still asks.
    const listed = read('List the drugs that treat asthma. Does any of them also treat hypertension?', E.asthma, E.hypertension);
    expect(listed.anchors.map((a) => a.entity.name).sort()).toEqual(['asthma', 'hypertension']);
  });

  it('an entity named in both the context and the ask is kept', () => {
    const r = read('A child with asthma is seen in clinic. How many drugs treat asthma?', E.asthma);
    expect(r.operator).toBe('count');
    expect(chains(r)).toEqual(['asthma[Disease]:CtD']);
  });

  it.each([['We study psoriasis. Which genes are associated with it and with asthma?'], ['Consider asthma. Which genes are associated with it?']])(
    'an ask that takes up the context by a pronoun, or names nothing, keeps it: %s',
    (text) => {
      const entities = text.includes('psoriasis') ? [E.psoriasis, E.asthma] : [E.asthma];
      const r = read(text, ...entities);
      expect(r.anchors.map((a) => a.entity.name)).toEqual(entities.map((e) => e.mention));
    },
  );

  it.each([
    ['Quick check for a grant: does metformin treat type 2 diabetes mellitus?'],
    ['Not my field, sorry — is metformin used to treat type 2 diabetes mellitus?'],
    ['Metformin, does it treat type 2 diabetes mellitus?'],
  ])('a yes/no clause after a colon, a dash or a fronted topic: %s', (text) => {
    const metformin = text.startsWith('Metformin') ? { ...E.metformin, mention: 'Metformin' } : E.metformin;
    const r = read(text, metformin, E.t2d);
    expect(r.operator).toBe('yesno');
    expect(claims(r)).toEqual(['Compound-CtD-Disease']);
    expect(r.propositions[0].negated).toBe(false);
  });
});

describe('statements asking to be confirmed', () => {
  it.each([
    ['metformin treats type 2 diabetes mellitus, right?', E.t2d, 'Compound-CtD-Disease'],
    ['metformin binds PRKAB1 — correct?', E.prkab1, 'Compound-CbG-Gene'],
    ['metformin binds PRKAB1, is that right?', E.prkab1, 'Compound-CbG-Gene'],
    ['metformin headache side effect y/n', E.headache, 'Compound-CcSE-Side Effect'],
    ['metformin and headache — a known side effect or not?', E.headache, 'Compound-CcSE-Side Effect'],
  ])('%s', (text, other, claim) => {
    const r = read(text, E.metformin, other);
    expect(r.outputFormat).toBe('yesno');
    expect(r.options).toEqual([]);
    expect(claims(r)).toEqual([claim]);
  });

  it('"as a side effect", "constitutes a treatment" name the relation, not an entity asked about', () => {
    const effect = read('Does ibuprofen cause nausea as a side effect?', E.ibuprofen, E.nausea);
    expect(effect.answerKind).toBeNull();
    expect(claims(effect)).toEqual(['Compound-CcSE-Side Effect']);
    const treatment = read('Find out whether metformin constitutes a treatment for hypertension.', E.metformin, E.hypertension);
    expect(treatment.operator).toBe('yesno');
    expect(claims(treatment)).toEqual(['Compound-CtD-Disease']);
  });
});

describe('clinical shorthand and loose counting', () => {
  it.each([
    ['asthma sx?', 'Symptom', 'asthma[Disease]:DpS', 'list'],
    ['tx for hypertension?', 'Compound', 'hypertension[Disease]:CtD', 'list'],
    ['genes assoc with asthma', 'Gene', 'asthma[Disease]:DaG', 'list'],
    ['How much drugs are there for hypertension?', 'Compound', 'hypertension[Disease]:CtD', 'count'],
  ])('%s', (text, kind, chain, format) => {
    const entity = text.includes('asthma') ? E.asthma : E.hypertension;
    const r = read(text, entity);
    expect(r.answerKind).toBe(kind);
    expect(chains(r)).toEqual([chain]);
    expect(r.outputFormat).toBe(format);
  });

  it('"AEs" and "ADRs" are side effects', () => {
    const r = read('known AEs of metformin?', E.metformin);
    expect(r.answerKind).toBe('Side Effect');
    expect(chains(r)).toEqual(['metformin[Compound]:CcSE']);
  });
});

describe('requests, agreement and predicates', () => {
  it.each([['Could you tell me the genes associated with asthma?'], ['Can you show me which genes are associated with asthma?']])(
    'a polite request asks for entities, not yes or no: %s',
    (text) => {
      const r = read(text, E.asthma);
      expect(r.outputFormat).toBe('list');
      expect(chains(r)).toEqual(['asthma[Disease]:DaG']);
    },
  );

  it('"could you tell me whether …" stays a yes/no question', () => {
    const r = read('Could you tell me whether metformin treats type 2 diabetes mellitus?', E.metformin, E.t2d);
    expect(r.outputFormat).toBe('yesno');
  });

  it.each([['hey, does metformin help with type 2 diabetes mellitus?'], ['For adults, is metformin a treatment for type 2 diabetes mellitus?']])(
    'a yes/no question after an opening word and a comma: %s',
    (text) => {
      const r = read(text, E.metformin, E.t2d);
      expect(r.outputFormat).toBe('yesno');
      expect(claims(r)).toEqual(['Compound-CtD-Disease']);
    },
  );

  it.each([['Which disease have headache as a sign?'], ['Which gene are linked to asthma?']])('a plural verb asks for a list whatever the noun: %s', (text) => {
    const r = read(text, text.includes('asthma') ? E.asthma : E.headache);
    expect(r.outputFormat).toBe('list');
  });

  it.each([
    ['Which compound here is a treatment for hypertension? A: metformin B: amlodipine', ['hypertension[Disease]:CtD']],
    ['Which genes are common targets of metformin and aspirin?', ['metformin[Compound]:CbG', 'aspirin[Compound]:CbG']],
  ])('a word of the asked kind after a copula is the answer, not a second entity: %s', (text, expected) => {
    const entities = text.includes('hypertension') ? [E.hypertension, E.metformin, E.amlodipine] : [E.metformin, E.aspirin];
    expect(chains(read(text, ...entities))).toEqual(expected);
  });
});
