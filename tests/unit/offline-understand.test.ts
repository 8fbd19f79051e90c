import { linksIn } from '../support/linked-reading';
import { describe, expect, it } from 'vitest';
import { readQuestion } from '@/lib/reading';
import { domainOf } from '@/lib/llm/offline/domain';
import type { QuestionReading } from '@/lib/llm/offline/types';
import type { EntityLink } from '@/lib/kg/types';

function understand(text: string, entities: [string, string, string][], extra: Partial<Parameters<typeof readQuestion>[1]> = {}): QuestionReading {
  return readQuestion(text, { links: linksIn(text, entities), ...extra });
}

/** "name:DaG>DaG" per anchor: the metaedges of each hop of its chain, preferred first. */
function chains(u: QuestionReading): string[] {
  return u.anchors.map((a) => `${a.negated ? '!' : ''}${a.entity.name}:${a.chain.map((h) => h.edges.map((e) => e.metaedge).join('|')).join('>')}`);
}

const MS = ['multiple sclerosis', 'Disease', 'Disease::DOID:2377'] as [string, string, string];
const CROHN = ["Crohn's disease", 'Disease', 'Disease::DOID:8778'] as [string, string, string];

describe('shared neighbour phrasings', () => {
  it.each([
    ["Which genes are associated with both multiple sclerosis and Crohn's disease?", 'list'],
    ["Name a gene linked to multiple sclerosis as well as to Crohn's disease", 'single'],
    ["What are the genes that both multiple sclerosis and Crohn's disease are linked to?", 'list'],
    ["Identify a susceptibility gene shared by multiple sclerosis and Crohn's disease.", 'single'],
  ])('%s', (text, format) => {
    const u = understand(text, [MS, CROHN]);
    expect(u.answerKind).toBe('Gene');
    expect(u.operator).toBe('shared_neighbor');
    expect(u.outputFormat).toBe(format);
    expect(chains(u)).toEqual(['multiple sclerosis:DaG', "Crohn's disease:DaG"]);
    expect(u.anchors.every((a) => a.chain[0].edges[0].fromEnd === 'source')).toBe(true);
  });

  it('reads "in common genetically" with no relation word as the kinds’ relations, DaG preferred', () => {
    const u = understand("What do multiple sclerosis and Crohn's disease have in common genetically?", [MS, CROHN]);
    expect(u.answerKind).toBe('Gene');
    expect(u.answerKindFrom).toBe('adverb');
    expect(u.operator).toBe('shared_neighbor');
    expect(u.anchors[0].metaedges).toEqual(['DaG', 'DuG', 'DdG']);
    expect(u.anchors[0].chain[0].explicit).toBe(false);
    expect(u.anchors[0].cue).toBeNull();
  });

  it('does not take "disease" inside a linked name as the answer kind', () => {
    const u = understand("Which genes are linked to Crohn's disease?", [CROHN]);
    expect(u.answerKind).toBe('Gene');
    expect(u.operator).toBe('lookup');
  });

  it('shared side effects of two compounds', () => {
    const u = understand('Which side effect is shared by aspirin and ibuprofen?', [
      ['aspirin', 'Compound', 'Compound::DB00945'],
      ['ibuprofen', 'Compound', 'Compound::DB01050'],
    ]);
    expect(u.answerKind).toBe('Side Effect');
    expect(u.operator).toBe('shared_neighbor');
    expect(chains(u)).toEqual(['aspirin:CcSE', 'ibuprofen:CcSE']);
  });

  it('symptoms two diseases have in common', () => {
    const u = understand('Tell me which diseases present with fever and cough.', [
      ['fever', 'Symptom', 'Symptom::D005334'],
      ['cough', 'Symptom', 'Symptom::D003371'],
    ]);
    expect(u.answerKind).toBe('Disease');
    expect(chains(u)).toEqual(['fever:DpS', 'cough:DpS']);
    expect(u.anchors[0].chain[0].edges[0].fromEnd).toBe('target');
  });
});

describe('intersection phrasings', () => {
  it('a compound with three clues of different kinds, choosing the Side Effect reading of an ambiguous mention', () => {
    const text = 'Which compound treats hypertension, binds ADRB1 and causes bradycardia?';
    const links = [
      ...linksIn(text, [
        ['hypertension', 'Disease', 'Disease::DOID:10763'],
        ['ADRB1', 'Gene', 'Gene::153'],
        ['bradycardia', 'Symptom', 'Symptom::D001919'],
      ]),
      ...linksIn(text, [['bradycardia', 'Side Effect', 'Side Effect::C0428977']]),
    ];
    const u = readQuestion(text, { links });
    expect(u.answerKind).toBe('Compound');
    expect(u.operator).toBe('intersection');
    expect(u.outputFormat).toBe('single');
    expect(chains(u)).toEqual(['hypertension:CtD', 'ADRB1:CbG', 'bradycardia:CcSE']);
    expect(u.anchors[2].entity.kind).toBe('Side Effect');
    expect(u.anchors.map((a) => a.cue)).toEqual(['treats', 'binds', 'causes']);
    expect(u.subquestions).toEqual([
      'Which compounds treat hypertension?',
      'Which of these compounds bind ADRB1?',
      'Which of these compounds cause bradycardia?',
    ]);
  });

  it('a gene constrained by an interaction and a pathway (the pathway word describes the entity)', () => {
    const u = understand("Which gene that interacts with TP53 participates in the 'Apoptosis' pathway?", [
      ['TP53', 'Gene', 'Gene::7157'],
      ['Apoptosis', 'Pathway', 'Pathway::WP254'],
    ]);
    expect(u.answerKind).toBe('Gene');
    expect(u.operator).toBe('intersection');
    expect(chains(u)).toEqual(['TP53:GiG', 'Apoptosis:GpPW']);
    expect(u.anchors[0].chain[0].edges[0].fromEnd).toBe('any');
  });

  it('passive and active clauses about one disease', () => {
    const u = understand('Which disease is both treated by metformin and associated with TCF7L2?', [
      ['metformin', 'Compound', 'Compound::DB00331'],
      ['TCF7L2', 'Gene', 'Gene::6934'],
    ]);
    expect(u.answerKind).toBe('Disease');
    expect(chains(u)).toEqual(['metformin:CtD', 'TCF7L2:DaG']);
  });

  it('a condition with two symptoms and a drug', () => {
    const u = understand('What condition presents with both fever and rash and is treated by ibuprofen?', [
      ['fever', 'Symptom', 'Symptom::D005334'],
      ['rash', 'Symptom', 'Symptom::D005076'],
      ['ibuprofen', 'Compound', 'Compound::DB01050'],
    ]);
    expect(u.answerKind).toBe('Disease');
    expect(u.operator).toBe('intersection');
    expect(chains(u)).toEqual(['fever:DpS', 'rash:DpS', 'ibuprofen:CtD']);
  });

  it('negation subtracts an anchor', () => {
    const u = understand('Which drugs treat epilepsy but do not cause nausea?', [
      ['epilepsy', 'Disease', 'Disease::DOID:1826'],
      ['nausea', 'Side Effect', 'Side Effect::C0027497'],
    ]);
    expect(chains(u)).toEqual(['epilepsy:CtD', '!nausea:CcSE']);
    expect(u.operator).toBe('intersection');
    expect(u.subquestions[1]).toBe('Which of these compounds do not cause nausea?');
  });

  it('resemblance plus treatment', () => {
    const u = understand('Which compound resembles metformin and treats type 2 diabetes?', [
      ['metformin', 'Compound', 'Compound::DB00331'],
      ['type 2 diabetes', 'Disease', 'Disease::DOID:9352'],
    ]);
    expect(chains(u)).toEqual(['metformin:CrC', 'type 2 diabetes:CtD']);
  });
});

describe('lookup phrasings', () => {
  it.each([
    ['Which drugs are used to treat epilepsy?', ['epilepsy', 'Disease', 'D'], 'Compound', 'CtD'],
    ['Ibuprofen is used for which conditions?', ['Ibuprofen', 'Compound', 'C'], 'Disease', 'CtD'],
    ['The drug metformin treats which disease?', ['metformin', 'Compound', 'C'], 'Disease', 'CtD'],
    ['Find compounds that bind EGFR.', ['EGFR', 'Gene', 'G'], 'Compound', 'CbG'],
    ['Which proteins does aspirin target?', ['aspirin', 'Compound', 'C'], 'Gene', 'CbG'],
    ['In which tissues is CFTR expressed?', ['CFTR', 'Gene', 'G'], 'Anatomy', 'AeG'],
    ['What are the symptoms of multiple sclerosis?', MS, 'Symptom', 'DpS'],
    ['Which pharmacologic class includes metformin?', ['metformin', 'Compound', 'C'], 'Pharmacologic Class', 'PCiC'],
    ['What drug class does metformin belong to?', ['metformin', 'Compound', 'C'], 'Pharmacologic Class', 'PCiC'],
    ['Which diseases resemble asthma?', ['asthma', 'Disease', 'D'], 'Disease', 'DrD'],
    ['Which genes are upregulated in the liver?', ['liver', 'Anatomy', 'A'], 'Gene', 'AuG'],
    ['Which genes are upregulated in asthma?', ['asthma', 'Disease', 'D'], 'Gene', 'DuG'],
    ['Which genes does metformin downregulate?', ['metformin', 'Compound', 'C'], 'Gene', 'CdG'],
    ['Which genes covary with TP53?', ['TP53', 'Gene', 'G'], 'Gene', 'GcG'],
    ['Which diseases localize to the heart?', ['heart', 'Anatomy', 'A'], 'Disease', 'DlA'],
    ['Give me the drugs that palliate asthma.', ['asthma', 'Disease', 'D'], 'Compound', 'CpD'],
    ['List every side effect of ibuprofen.', ['ibuprofen', 'Compound', 'C'], 'Side Effect', 'CcSE'],
    ['What is linked to psoriasis?', ['psoriasis', 'Disease', 'D'], 'Gene', 'DaG'],
  ] as [string, [string, string, string], string, string][])('%s', (text, entity, kind, metaedge) => {
    const u = understand(text, [entity]);
    expect(u.answerKind).toBe(kind);
    expect(u.operator).toBe('lookup');
    expect(u.anchors[0].metaedges[0]).toBe(metaedge);
  });

  it('reads the direction of gene regulation from the voice', () => {
    const by = understand('Which genes are regulated by TP53?', [['TP53', 'Gene', 'Gene::7157']]);
    const of = understand('Which genes regulate TP53?', [['TP53', 'Gene', 'Gene::7157']]);
    const regulators = understand('Name all regulators of TP53', [['TP53', 'Gene', 'Gene::7157']]);
    expect(by.anchors[0].chain[0].edges[0]).toEqual({ metaedge: 'Gr>G', fromEnd: 'source' });
    expect(of.anchors[0].chain[0].edges[0]).toEqual({ metaedge: 'Gr>G', fromEnd: 'target' });
    expect(regulators.anchors[0].chain[0].edges[0]).toEqual({ metaedge: 'Gr>G', fromEnd: 'target' });
    expect(regulators.outputFormat).toBe('list');
  });
});

describe('count phrasings', () => {
  it.each([
    ['How many diseases does metformin treat?', ['metformin', 'Compound', 'C'], 'Disease', 'CtD'],
    ['Count the side effects of aspirin', ['aspirin', 'Compound', 'C'], 'Side Effect', 'CcSE'],
    ['Number of pathways TP53 participates in?', ['TP53', 'Gene', 'G'], 'Pathway', 'GpPW'],
    ['How many genes are expressed in the liver?', ['liver', 'Anatomy', 'A'], 'Gene', 'AeG'],
  ] as [string, [string, string, string], string, string][])('%s', (text, entity, kind, metaedge) => {
    const u = understand(text, [entity]);
    expect(u.operator).toBe('count');
    expect(u.outputFormat).toBe('count');
    expect(u.answerType).toBe('integer');
    expect(u.answerKind).toBe(kind);
    expect(u.anchors[0].metaedges).toEqual([metaedge]);
    expect(u.subquestions.at(-1)).toMatch(/^How many /);
  });

  it('counts over a two-hop chain', () => {
    const u = understand('How many distinct compounds target genes associated with asthma?', [['asthma', 'Disease', 'D']]);
    expect(u.operator).toBe('count');
    expect(u.answerKind).toBe('Compound');
    expect(chains(u)).toEqual(['asthma:DaG>CbG']);
    expect(u.subquestions).toEqual(['Which genes are associated with asthma?', 'How many compounds bind these genes?']);
  });
});

describe('path phrasings', () => {
  it('a disease treated by a compound that also treats X', () => {
    const u = understand('What disease is treated by a compound that also treats epilepsy?', [['epilepsy', 'Disease', 'Disease::DOID:1826']]);
    expect(u.operator).toBe('path');
    expect(u.answerKind).toBe('Disease');
    expect(chains(u)).toEqual(['epilepsy:CtD>CtD']);
    expect(u.hops.map((h) => `${h.from}->${h.to}`)).toEqual(['Disease->Compound', 'Compound->Disease']);
    expect(u.subquestions).toEqual(['Which compounds treat epilepsy?', 'Which diseases are treated by these compounds?']);
  });

  it('genes interacting with a (different) gene associated with a disease', () => {
    const u = understand('Which genes interact with a gene associated with asthma?', [['asthma', 'Disease', 'D']]);
    expect(u.operator).toBe('path');
    expect(chains(u)).toEqual(['asthma:DaG>GiG']);
  });

  it('a hidden middle disease between an anatomy chain and a compound (BioMedHop style, not one sentence)', () => {
    const u = understand(
      'A certain anatomical entity liver upregulates a gene associated with a disease. The compound metformin treats the disease. What is the disease?',
      [
        ['liver', 'Anatomy', 'Anatomy::UBERON:0002107'],
        ['metformin', 'Compound', 'Compound::DB00331'],
      ],
    );
    expect(u.operator).toBe('path');
    expect(u.answerKind).toBe('Disease');
    expect(chains(u)).toEqual(['liver:AuG>DaG', 'metformin:CtD']);
    expect(u.subquestions).toHaveLength(3);
  });

  it('diseases reached through a drug, then their genes', () => {
    const u = understand('Which genes are associated with diseases treated by metformin?', [['metformin', 'Compound', 'C']]);
    expect(u.operator).toBe('path');
    expect(chains(u)).toEqual(['metformin:CtD>DaG']);
  });
});

describe('yes/no phrasings', () => {
  it('Is BRCA1 associated with breast cancer?', () => {
    const u = understand('Is BRCA1 associated with breast cancer?', [
      ['BRCA1', 'Gene', 'Gene::672'],
      ['breast cancer', 'Disease', 'Disease::DOID:1612'],
    ]);
    expect(u.operator).toBe('yesno');
    expect(u.outputFormat).toBe('yesno');
    expect(u.propositions).toHaveLength(1);
    expect(u.propositions[0].subject.name).toBe('BRCA1');
    expect(u.propositions[0].object.name).toBe('breast cancer');
    expect(u.propositions[0].hop.edges.map((e) => e.metaedge)).toEqual(['DaG']);
    expect(u.answerKind).toBeNull();
  });

  it('Does metformin treat type 2 diabetes?', () => {
    const u = understand('Does metformin treat type 2 diabetes?', [
      ['metformin', 'Compound', 'C'],
      ['type 2 diabetes', 'Disease', 'D'],
    ]);
    expect(u.propositions[0].hop.edges.map((e) => e.metaedge)).toEqual(['CtD']);
  });

  it('Are TP53 and MDM2 interacting partners?', () => {
    const u = understand('Are TP53 and MDM2 interacting partners?', [
      ['TP53', 'Gene', 'Gene::7157'],
      ['MDM2', 'Gene', 'Gene::4193'],
    ]);
    expect(u.propositions[0].hop.edges.map((e) => e.metaedge)).toEqual(['GiG']);
    expect(u.propositions[0].object.name).toBe('MDM2');
  });

  it.each([
    'Determine whether metformin treats type 2 diabetes.',
    'Does metformin treat type 2 diabetes',
    'Metformin is indicated for type 2 diabetes: true or false?',
  ])('reads "%s" as a claim', (text) => {
    const u = understand(text, [
      [text.includes('Metformin') ? 'Metformin' : 'metformin', 'Compound', 'C'],
      ['type 2 diabetes', 'Disease', 'D'],
    ]);
    expect(u.operator).toBe('yesno');
    expect(u.propositions.map((p) => [p.subject.nodeId, p.hop.edges[0].metaedge, p.object.nodeId])).toEqual([['C', 'CtD', 'D']]);
  });

  it('an existence question keeps its answer variable', () => {
    const u = understand('Is there a gene associated with both asthma and psoriasis?', [
      ['asthma', 'Disease', 'D1'],
      ['psoriasis', 'Disease', 'D2'],
    ]);
    expect(u.operator).toBe('yesno');
    expect(u.answerKind).toBe('Gene');
    expect(u.propositions).toEqual([]);
    expect(chains(u)).toEqual(['asthma:DaG', 'psoriasis:DaG']);
  });
});

describe('multiple choice', () => {
  it('reads inline options and keeps option entities out of the anchors', () => {
    const text = 'Which gene is associated with both psoriasis and Takayasu arteritis? A. IL23R B. TP53 C. NOD2 D. APOE E. BRCA2';
    const u = understand(text, [
      ['psoriasis', 'Disease', 'D1'],
      ['Takayasu arteritis', 'Disease', 'D2'],
      ['IL23R', 'Gene', 'Gene::149233'],
      ['TP53', 'Gene', 'Gene::7157'],
    ]);
    expect(u.outputFormat).toBe('option');
    expect(u.answerType).toBe('option_letter');
    expect(u.stem).toBe('Which gene is associated with both psoriasis and Takayasu arteritis?');
    expect(u.anchors.map((a) => a.entity.name)).toEqual(['psoriasis', 'Takayasu arteritis']);
    expect(u.options.map((o) => o.letter)).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(u.options[0].links.map((l) => l.nodeId)).toEqual(['Gene::149233']);
  });

  it('takes the answer kind from the options when no word names it', () => {
    const u = understand('Which of the following is associated with psoriasis?', [['psoriasis', 'Disease', 'D1']], {
      options: { A: 'IL23R', B: 'APOE' },
      optionLinks: {
        A: [{ nodeId: 'Gene::149233', kind: 'Gene', name: 'IL23R', mention: 'IL23R', start: 0, end: 5 }],
        B: [{ nodeId: 'Gene::348', kind: 'Gene', name: 'APOE', mention: 'APOE', start: 0, end: 4 }],
      },
    });
    expect(u.answerKind).toBe('Gene');
    expect(u.answerKindFrom).toBe('options');
    expect(u.options.map((o) => o.text)).toEqual(['IL23R', 'APOE']);
  });
});

describe('phrasings outside any generator template', () => {
  it.each([
    ['For asthma, list the associated genes.', [['asthma', 'Disease', 'D']], 'Gene', 'lookup', ['asthma:DaG']],
    ['Genes linked to asthma', [['asthma', 'Disease', 'D']], 'Gene', 'lookup', ['asthma:DaG']],
    [
      'Among genes expressed in the liver, which interact with TP53?',
      [
        ['liver', 'Anatomy', 'A'],
        ['TP53', 'Gene', 'G'],
      ],
      'Gene',
      'intersection',
      ['liver:AeG', 'TP53:GiG'],
    ],
    [
      'Drugs that treat epilepsy: which of them bind SCN1A?',
      [
        ['epilepsy', 'Disease', 'D'],
        ['SCN1A', 'Gene', 'G'],
      ],
      'Compound',
      'intersection',
      ['epilepsy:CtD', 'SCN1A:CbG'],
    ],
    [
      'asthma and psoriasis: shared genes?',
      [
        ['asthma', 'Disease', 'D1'],
        ['psoriasis', 'Disease', 'D2'],
      ],
      'Gene',
      'shared_neighbor',
      ['asthma:DaG|DuG|DdG', 'psoriasis:DaG|DuG|DdG'],
    ],
    [
      "What's the pathway that both TP53 and MDM2 participate in?",
      [
        ['TP53', 'Gene', 'G1'],
        ['MDM2', 'Gene', 'G2'],
      ],
      'Pathway',
      'shared_neighbor',
      ['TP53:GpPW', 'MDM2:GpPW'],
    ],
    [
      'What medication for type 2 diabetes also causes lactic acidosis?',
      [
        ['type 2 diabetes', 'Disease', 'D'],
        ['lactic acidosis', 'Side Effect', 'SE'],
      ],
      'Compound',
      'intersection',
      ['type 2 diabetes:CtD', 'lactic acidosis:CcSE'],
    ],
    [
      'Which disease is associated with the gene IL23R, presents the symptom fever and is treated by the compound ibuprofen?',
      [
        ['IL23R', 'Gene', 'G'],
        ['fever', 'Symptom', 'S'],
        ['ibuprofen', 'Compound', 'C'],
      ],
      'Disease',
      'intersection',
      ['IL23R:DaG', 'fever:DpS', 'ibuprofen:CtD'],
    ],
    [
      'A side effect [nausea] is caused by a compound that treats a disease. The disease localizes to the anatomy [stomach]. What is the disease?',
      [
        ['nausea', 'Side Effect', 'SE'],
        ['stomach', 'Anatomy', 'A'],
      ],
      'Disease',
      'path',
      ['nausea:CcSE>CtD', 'stomach:DlA'],
    ],
  ] as [string, [string, string, string][], string, string, string[]][])('%s', (text, entities, kind, operator, expected) => {
    const u = understand(text, entities);
    expect(u.answerKind).toBe(kind);
    expect(u.operator).toBe(operator);
    expect(chains(u)).toEqual(expected);
  });
});

describe('linker output', () => {
  it('takes EntityLink[] as it is, placing a link without offsets at its mention', () => {
    const links: EntityLink[] = [
      {
        nodeId: 'Disease::DOID:2377',
        kind: 'Disease',
        name: 'multiple sclerosis',
        mention: 'Multiple Sclerosis',
        matched: 'multiple sclerosis',
        method: 'exact',
        score: 1,
      },
      { nodeId: 'Gene::149233', kind: 'Gene', name: 'IL23R', mention: 'IL-23R', matched: 'IL-23R', method: 'alias', score: 0.9, start: 32, end: 38 },
    ];
    const u = readQuestion('Is Multiple Sclerosis linked to IL-23R?', { links });
    expect(u.propositions.map((p) => [p.subject.start, p.object.start])).toEqual([[3, 32]]);
    expect(u.propositions[0].hop.edges[0].metaedge).toBe('DaG');
  });
});

describe('what the rules cannot read', () => {
  it('leaves an entity unresolved when no relation joins its kind to the answer', () => {
    const u = understand('Which compound treats hypertension and causes bradycardia?', [
      ['hypertension', 'Disease', 'D'],
      ['bradycardia', 'Symptom', 'S'],
    ]);
    expect(chains(u)).toEqual(['hypertension:CtD', 'bradycardia:']);
    expect(u.notes).toContain('no relation links bradycardia (Symptom) to the answer');
  });

  it('says so when nothing is linked', () => {
    const u = understand('Which genes are associated with it?', []);
    expect(u.operator).toBe('unknown');
    expect(u.notes).toContain('no linked entity in the question');
    expect(u.subquestions).toEqual(['Which genes are associated with it?']);
  });

  it('marks a question whose only constraint is negated', () => {
    const u = understand('Which genes are not associated with asthma?', [['asthma', 'Disease', 'D']]);
    expect(u.anchors[0].negated).toBe(true);
    expect(u.notes.some((n) => n.includes('negated'))).toBe(true);
  });
});

describe('domainOf', () => {
  it('types questions by the relations they use', () => {
    expect(domainOf(understand('Which genes covary with TP53?', [['TP53', 'Gene', 'G']]))).toBe('GENE_PROTEIN');
    expect(domainOf(understand('Which drugs treat asthma?', [['asthma', 'Disease', 'D']]))).toBe('DRUG_THERAPY');
    expect(domainOf(understand('What are the symptoms of asthma?', [['asthma', 'Disease', 'D']]))).toBe('DISEASE_SYMPTOM');
    expect(domainOf(understand('Which pathways contain TP53?', [['TP53', 'Gene', 'G']]))).toBe('PATHWAY_METABOLISM');
    expect(
      domainOf(
        understand('Which compound treats asthma and binds ADRB2?', [
          ['asthma', 'Disease', 'D'],
          ['ADRB2', 'Gene', 'G'],
        ]),
      ),
    ).toBe('DRUG_THERAPY');
    expect(
      domainOf(
        understand('Which gene interacts with TP53 and is associated with asthma?', [
          ['TP53', 'Gene', 'G'],
          ['asthma', 'Disease', 'D'],
        ]),
      ),
    ).toBe('INTEGRATED');
  });
});
