import { describe, expect, it } from 'vitest';
import { readQuestion } from '@/lib/reading';
import { answerFromEvidence } from '@/lib/llm/offline/reason';
import type { LinkedEntity } from '@/lib/llm/offline/types';
import { triple, type Node } from '../support/evidence-triples';

const MS: Node = ['Disease::DOID:2377', 'multiple sclerosis', 'Disease'];
const CROHN: Node = ['Disease::DOID:8778', "Crohn's disease", 'Disease'];
const IL23R: Node = ['Gene::149233', 'IL23R', 'Gene'];
const STAT3: Node = ['Gene::6774', 'STAT3', 'Gene'];
const HLA: Node = ['Gene::3123', 'HLA-DRB1', 'Gene'];
const NOD2: Node = ['Gene::64127', 'NOD2', 'Gene'];
const IL7R: Node = ['Gene::3575', 'IL7R', 'Gene'];

function understand(text: string, nodes: Node[], extra: { options?: Record<string, string>; optionLinks?: Record<string, LinkedEntity[]> } = {}) {
  const links = nodes.map(([nodeId, name, kind]) => {
    const start = text.indexOf(name);
    if (start < 0) throw new Error(`'${name}' not in '${text}'`);
    return { nodeId, kind, name, mention: name, start, end: start + name.length };
  });
  return readQuestion(text, { links, ...extra });
}

const DISEASE_GENES = [
  triple('e1', MS, 'DaG', IL23R),
  triple('e2', MS, 'DaG', HLA),
  triple('e3', MS, 'DaG', STAT3),
  triple('e4', MS, 'DaG', IL7R),
  triple('e5', CROHN, 'DaG', IL23R),
  triple('e6', CROHN, 'DaG', NOD2),
  triple('e7', CROHN, 'DaG', STAT3),
];

describe('shared neighbour and intersection', () => {
  it('intersects the anchors’ DaG sets and cites both edges of every answer', () => {
    const u = understand("Which genes are associated with both multiple sclerosis and Crohn's disease?", [MS, CROHN]);
    const r = answerFromEvidence(u, { triples: DISEASE_GENES });
    expect(r.abstain).toBe(false);
    expect(r.answers.map((a) => a.name)).toEqual(['IL23R', 'STAT3']);
    expect(r.answers[0].supportIds).toEqual(['e1', 'e5']);
    expect(r.answers[1].supportIds).toEqual(['e3', 'e7']);
    expect(r.answers.every((a) => a.supportCount === 2)).toBe(true);
    expect(r.rationale.at(-1)).toBe("DaG(multiple sclerosis) ∩ DaG(Crohn's disease) = {IL23R, STAT3}");
  });

  it('finds the compound satisfying three clues of different kinds', () => {
    const HTN: Node = ['Disease::DOID:10763', 'hypertension', 'Disease'];
    const ADRB1: Node = ['Gene::153', 'ADRB1', 'Gene'];
    const BRADY: Node = ['Side Effect::C0428977', 'bradycardia', 'Side Effect'];
    const ATENOLOL: Node = ['Compound::DB00335', 'Atenolol', 'Compound'];
    const LOSARTAN: Node = ['Compound::DB00678', 'Losartan', 'Compound'];
    const DOBUTAMINE: Node = ['Compound::DB00841', 'Dobutamine', 'Compound'];
    const u = understand('Which compound treats hypertension, binds ADRB1 and causes bradycardia?', [HTN, ADRB1, BRADY]);
    const r = answerFromEvidence(u, {
      triples: [
        triple('t1', ATENOLOL, 'CtD', HTN),
        triple('t2', LOSARTAN, 'CtD', HTN),
        triple('t3', ATENOLOL, 'CbG', ADRB1),
        triple('t4', DOBUTAMINE, 'CbG', ADRB1),
        triple('t5', ATENOLOL, 'CcSE', BRADY),
        triple('t6', LOSARTAN, 'CcSE', BRADY),
      ],
    });
    expect(r.answers.map((a) => a.name)).toEqual(['Atenolol']);
    expect(r.answers[0].supportIds).toEqual(['t1', 't3', 't5']);
  });

  it('subtracts a negated anchor', () => {
    const EPI: Node = ['Disease::DOID:1826', 'epilepsy', 'Disease'];
    const NAUSEA: Node = ['Side Effect::C0027497', 'nausea', 'Side Effect'];
    const VPA: Node = ['Compound::DB00313', 'Valproic acid', 'Compound'];
    const LTG: Node = ['Compound::DB00555', 'Lamotrigine', 'Compound'];
    const u = understand('Which drugs treat epilepsy but do not cause nausea?', [EPI, NAUSEA]);
    const r = answerFromEvidence(u, {
      triples: [triple('a', VPA, 'CtD', EPI), triple('b', LTG, 'CtD', EPI), triple('c', VPA, 'CcSE', NAUSEA)],
    });
    expect(r.answers.map((a) => a.name)).toEqual(['Lamotrigine']);
    expect(r.rationale.at(-1)).toBe('CtD(epilepsy) ∖ CcSE(nausea) = {Lamotrigine}');
  });

  it('widens a relation the kinds chose when the preferred reading gives nothing, and only then', () => {
    const u = understand("What do multiple sclerosis and Crohn's disease have in common genetically?", [MS, CROHN]);
    const triples = [triple('d1', MS, 'DaG', IL23R), triple('d2', CROHN, 'DuG', IL23R), triple('d3', CROHN, 'DaG', NOD2)];
    const widened = answerFromEvidence(u, { triples });
    expect(widened.answers.map((a) => a.name)).toEqual(['IL23R']);
    expect(widened.rationale).toContain('no answer through the preferred relations: widened to every relation between the kinds');
    const strict = answerFromEvidence(u, { triples }, { widen: false });
    expect(strict.abstain).toBe(true);
    expect(strict.reason).toBe('the anchors have evidence but no common answer');
  });
});

describe('lookup and direction', () => {
  it('follows Gr>G only in the direction the question states', () => {
    const TP53: Node = ['Gene::7157', 'TP53', 'Gene'];
    const MDM2: Node = ['Gene::4193', 'MDM2', 'Gene'];
    const CDKN1A: Node = ['Gene::1026', 'CDKN1A', 'Gene'];
    const HIPK2: Node = ['Gene::28996', 'HIPK2', 'Gene'];
    const triples = [triple('r1', TP53, 'Gr>G', MDM2), triple('r2', TP53, 'Gr>G', CDKN1A), triple('r3', HIPK2, 'Gr>G', TP53)];
    const regulated = answerFromEvidence(understand('Which genes are regulated by TP53?', [TP53]), { triples });
    const regulators = answerFromEvidence(understand('Which genes regulate TP53?', [TP53]), { triples });
    expect(regulated.answers.map((a) => a.name)).toEqual(['CDKN1A', 'MDM2']);
    expect(regulators.answers.map((a) => a.name)).toEqual(['HIPK2']);
  });

  it('keeps only neighbours of the answer kind through the cue’s metaedge', () => {
    const u = understand('Which genes are linked to multiple sclerosis?', [MS]);
    const r = answerFromEvidence(u, {
      triples: [...DISEASE_GENES, triple('x', MS, 'DuG', NOD2), triple('y', MS, 'DrD', CROHN)],
    });
    expect(r.answers.map((a) => a.name).sort()).toEqual(['HLA-DRB1', 'IL23R', 'IL7R', 'STAT3']);
  });
});

describe('counting', () => {
  const METFORMIN: Node = ['Compound::DB00331', 'metformin', 'Compound'];
  const T2D: Node = ['Disease::DOID:9352', 'type 2 diabetes mellitus', 'Disease'];
  const T2D_DUPLICATE: Node = ['Disease::DOID:9352-alt', 'Type 2 Diabetes Mellitus', 'Disease'];
  const PCOS: Node = ['Disease::DOID:11612', 'polycystic ovary syndrome', 'Disease'];
  const triples = [
    triple('c1', METFORMIN, 'CtD', T2D),
    triple('c2', METFORMIN, 'CtD', T2D),
    triple('c3', METFORMIN, 'CtD', T2D_DUPLICATE),
    triple('c4', METFORMIN, 'CtD', PCOS),
    triple('c5', METFORMIN, 'CbG', IL23R),
  ];

  it('counts the deduplicated set: the same edge twice and the same name twice count once', () => {
    const u = understand('How many diseases does metformin treat?', [METFORMIN]);
    const r = answerFromEvidence(u, { triples });
    expect(r.count).toBe(2);
    expect(r.answers.map((a) => a.name)).toEqual(['type 2 diabetes mellitus', 'polycystic ovary syndrome']);
    expect(r.answers[0].supportIds).toEqual(['c1', 'c2', 'c3']);
    expect(r.rationale.some((line) => line.startsWith('merged Disease::DOID:9352-alt'))).toBe(true);
  });

  it('picks the option stating the count', () => {
    const u = understand('How many diseases does metformin treat?', [METFORMIN], { options: { A: '1', B: '2', C: '3' } });
    expect(answerFromEvidence(u, { triples }).chosenOption).toBe('B');
  });

  it('counts over a two-hop chain', () => {
    const ASTHMA: Node = ['Disease::DOID:2841', 'asthma', 'Disease'];
    const ADRB2: Node = ['Gene::154', 'ADRB2', 'Gene'];
    const IL13: Node = ['Gene::3596', 'IL13', 'Gene'];
    const SALBUTAMOL: Node = ['Compound::DB01001', 'Salbutamol', 'Compound'];
    const FORMOTEROL: Node = ['Compound::DB00983', 'Formoterol', 'Compound'];
    const LEBRIKIZUMAB: Node = ['Compound::X', 'Lebrikizumab', 'Compound'];
    const u = understand('How many distinct compounds target genes associated with asthma?', [ASTHMA]);
    const r = answerFromEvidence(u, {
      triples: [
        triple('g1', ASTHMA, 'DaG', ADRB2),
        triple('g2', ASTHMA, 'DaG', IL13),
        triple('b1', SALBUTAMOL, 'CbG', ADRB2),
        triple('b2', FORMOTEROL, 'CbG', ADRB2),
        triple('b3', LEBRIKIZUMAB, 'CbG', IL13),
        triple('b4', SALBUTAMOL, 'CbG', IL13),
      ],
    });
    expect(r.count).toBe(3);
    expect(r.answers[0]).toMatchObject({ name: 'Salbutamol', supportCount: 4, supportIds: ['b1', 'b4', 'g1', 'g2'] });
  });
});

describe('paths', () => {
  const EPI: Node = ['Disease::DOID:1826', 'epilepsy', 'Disease'];
  const MIGRAINE: Node = ['Disease::DOID:6364', 'migraine', 'Disease'];
  const BIPOLAR: Node = ['Disease::DOID:3312', 'bipolar disorder', 'Disease'];
  const VPA: Node = ['Compound::DB00313', 'Valproic acid', 'Compound'];
  const TPM: Node = ['Compound::DB00273', 'Topiramate', 'Compound'];
  const triples = [
    triple('p1', VPA, 'CtD', EPI),
    triple('p2', TPM, 'CtD', EPI),
    triple('p3', VPA, 'CtD', MIGRAINE),
    triple('p4', TPM, 'CtD', MIGRAINE),
    triple('p5', VPA, 'CtD', BIPOLAR),
  ];

  it('chains the hops, excludes the anchor, ranks by supporting edges', () => {
    const u = understand('What disease is treated by a compound that also treats epilepsy?', [EPI]);
    const r = answerFromEvidence(u, { triples });
    expect(r.answers.map((a) => [a.name, a.supportCount])).toEqual([
      ['migraine', 4],
      ['bipolar disorder', 2],
    ]);
    expect(r.rationale[0]).toBe('CtD(CtD(epilepsy)) = {migraine, bipolar disorder}');
  });

  it('MCQ picks the option naming the best supported answer', () => {
    const u = understand('What disease is treated by a compound that also treats epilepsy?', [EPI], {
      options: { A: 'Asthma', B: 'Bipolar disorder', C: 'Migraine' },
    });
    const r = answerFromEvidence(u, { triples });
    expect(r.chosenOption).toBe('C');
    expect(r.rationale.at(-1)).toBe('option C: names migraine (4 supporting edge(s)); over B (bipolar disorder: 2 supporting edge(s))');
  });

  it('cites a path given as one piece of evidence by the path’s id', () => {
    const u = understand('What disease is treated by a compound that also treats epilepsy?', [EPI]);
    const { id: _a, ...first } = triples[0];
    const { id: _b, ...second } = triples[4];
    const r = answerFromEvidence(u, { triples: [], paths: [{ id: 'path:1', triples: [first, second] }] });
    expect(r.answers).toEqual([{ nodeId: BIPOLAR[0], name: 'bipolar disorder', kind: 'Disease', supportIds: ['path:1'], supportCount: 2, metaedges: ['CtD'] }]);
  });
});

describe('multiple choice', () => {
  const text = "Which gene is associated with both multiple sclerosis and Crohn's disease? A. NOD2 B. HLA-DRB1 C. STAT3 D. APOE";

  it('chooses the option whose text names an answer', () => {
    const r = answerFromEvidence(understand(text, [MS, CROHN]), { triples: DISEASE_GENES });
    expect(r.chosenOption).toBe('C');
  });

  it('matches options through their linked nodes, whatever their wording', () => {
    const u = understand("Which gene is associated with both multiple sclerosis and Crohn's disease?", [MS, CROHN], {
      options: { A: 'interleukin 23 receptor', B: 'apolipoprotein E' },
      optionLinks: { A: [{ nodeId: IL23R[0], kind: 'Gene', name: 'IL23R', mention: 'interleukin 23 receptor', start: 0, end: 23 }] },
    });
    expect(answerFromEvidence(u, { triples: DISEASE_GENES }).chosenOption).toBe('A');
  });

  describe('two options the evidence backs', () => {
    const PD: Node = ['Disease::DOID:14330', "Parkinson's disease", 'Disease'];
    const SNCA: Node = ['Gene::6622', 'SNCA', 'Gene'];
    const INS: Node = ['Gene::3630', 'INS', 'Gene'];
    const question = "Which gene is associated with Parkinson's disease?";
    const edges = [triple('k1', PD, 'DaG', SNCA), triple('k2', PD, 'DaG', INS)];

    it("reports a tie, with its reason, whatever the options' order or names, instead of picking one", () => {
      for (const options of [
        { A: 'SNCA', B: 'INS' },
        { A: 'INS', B: 'SNCA' },
      ]) {
        const r = answerFromEvidence(understand(question, [PD], { options }), { triples: edges });
        expect(r.abstain).toBe(true);
        expect(r.chosenOption).toBeUndefined();
        expect(r.optionTie).toEqual(['A', 'B']);
        expect(r.reason).toBe(
          `tie between options A (${options.A}) and B (${options.B}): each has 1 supporting edge(s), so the evidence does not tell them apart`,
        );
      }
    });

    it('lets a passage naming the option beside the question entity tell them apart', () => {
      const passages = [
        { id: 'd1', text: "Mutations in SNCA cause familial Parkinson's disease." },
        { id: 'd2', text: 'INS is expressed in pancreatic beta cells.' },
      ];
      for (const options of [
        { A: 'SNCA', B: 'INS' },
        { A: 'INS', B: 'SNCA' },
      ]) {
        const r = answerFromEvidence(understand(question, [PD], { options }), { triples: edges, passages });
        const snca = options.A === 'SNCA' ? 'A' : 'B';
        expect(r.chosenOption).toBe(snca);
        expect(r.rationale.at(-1)).toContain(`option ${snca}: names SNCA (1 supporting edge(s), 1 corroborating passage(s)); over`);
      }
    });
  });

  it('abstains rather than guess when no option is an answer', () => {
    const u = understand("Which gene is associated with both multiple sclerosis and Crohn's disease?", [MS, CROHN], {
      options: { A: 'NOD2', B: 'APOE' },
    });
    const r = answerFromEvidence(u, { triples: DISEASE_GENES });
    expect(r.abstain).toBe(true);
    expect(r.chosenOption).toBeUndefined();
    expect(r.reason).toBe('no option matches: none of the 2 derived answer(s) is an option');
  });
});

describe('yes/no', () => {
  const BRCA1: Node = ['Gene::672', 'BRCA1', 'Gene'];
  const BREAST: Node = ['Disease::DOID:1612', 'breast cancer', 'Disease'];
  const OVARIAN: Node = ['Disease::DOID:2394', 'ovarian cancer', 'Disease'];
  const u = understand('Is BRCA1 associated with breast cancer?', [BRCA1, BREAST]);

  it('says yes with the edge that states it', () => {
    const r = answerFromEvidence(u, { triples: [triple('y1', BREAST, 'DaG', BRCA1)] });
    expect(r.verdict).toBe('yes');
    expect(r.answers[0].supportIds).toEqual(['y1']);
  });

  it('never says no from a neighbourhood that lacks the edge: a cut list is silent about what it left out', () => {
    const r = answerFromEvidence(u, { triples: [triple('n1', OVARIAN, 'DaG', BRCA1), triple('n2', BREAST, 'DaG', IL23R)] });
    expect(r.verdict).toBeUndefined();
    expect(r.abstain).toBe(true);
    expect(r.reason).toMatch(/pair's own edges were not read/);
  });

  it("says no from a check of the pair's own edges, citing it", () => {
    const checks = [{ id: 'c1', fromId: BREAST[0], toId: BRCA1[0], metaedges: ['DaG', 'DuG'] }];
    const r = answerFromEvidence(u, { triples: [triple('n1', OVARIAN, 'DaG', BRCA1)], checks });
    expect(r.verdict).toBe('no');
    expect(r.abstain).toBe(false);
    expect(r.rationale.join(' ')).toMatch(/pair's own edges were read whole \(c1\)/);
  });

  it('does not take a check of other relations, or of another pair, for the asked one', () => {
    const other = [{ id: 'c2', fromId: BREAST[0], toId: BRCA1[0], metaedges: ['DuG'] }];
    expect(answerFromEvidence(u, { triples: [], checks: other }).abstain).toBe(true);
    const elsewhere = [{ id: 'c3', fromId: OVARIAN[0], toId: BRCA1[0], metaedges: null }];
    expect(answerFromEvidence(u, { triples: [], checks: elsewhere }).abstain).toBe(true);
  });

  it('a stated edge beats a check (either direction of the pair)', () => {
    const checks = [{ id: 'c4', fromId: BRCA1[0], toId: BREAST[0], metaedges: null }];
    expect(answerFromEvidence(u, { triples: [], checks }).verdict).toBe('no');
    expect(answerFromEvidence(u, { triples: [triple('y2', BREAST, 'DaG', BRCA1)], checks }).verdict).toBe('yes');
  });

  it('abstains when no evidence touches the claim', () => {
    const r = answerFromEvidence(u, { triples: [triple('z', MS, 'DaG', IL23R)] });
    expect(r.abstain).toBe(true);
    expect(r.reason).toBe('no KG evidence about BRCA1 or breast cancer via DaG');
  });

  it('answers an existence question from the answer set', () => {
    const q = understand("Is there a gene associated with both multiple sclerosis and Crohn's disease?", [MS, CROHN]);
    expect(answerFromEvidence(q, { triples: DISEASE_GENES }).verdict).toBe('yes');
    const none = answerFromEvidence(q, { triples: [triple('a', MS, 'DaG', IL7R), triple('b', CROHN, 'DaG', NOD2)] });
    expect(none.verdict).toBe('no');
  });
});

describe('abstaining', () => {
  const u = understand("Which genes are associated with both multiple sclerosis and Crohn's disease?", [MS, CROHN]);

  it('abstains with no evidence (the kg switch off): no parametric fallback', () => {
    const r = answerFromEvidence(u, { triples: [] });
    expect(r).toMatchObject({ abstain: true, answers: [] });
    expect(r.reason).toMatch(/no KG fact was given to this call/);
  });

  it('names the anchor whose evidence is missing', () => {
    const r = answerFromEvidence(u, { triples: DISEASE_GENES.filter((t) => t.sourceId === MS[0]) });
    expect(r.abstain).toBe(true);
    expect(r.reason).toBe("no KG evidence for Crohn's disease via DaG(Crohn's disease)");
  });

  it('abstains when the question has no anchor', () => {
    const r = answerFromEvidence(understand('Which genes are associated with it?', []), { triples: DISEASE_GENES });
    expect(r.abstain).toBe(true);
  });
});

describe('a complete answer set in the evidence', () => {
  const set = (anchors: Node[], members: Node[], kind = 'Gene') => ({
    id: 'A1',
    count: members.length,
    members: members.map(([id, name, k]) => ({ id, name, kind: k })),
    anchors: anchors.map((a) => a[0]),
    kind,
  });

  it('counts the whole set, however few of its edges the evidence carries', () => {
    const u = understand("How many genes are associated with both multiple sclerosis and Crohn's disease?", [MS, CROHN]);
    const r = answerFromEvidence(u, { triples: DISEASE_GENES.slice(0, 1), sets: [set([MS, CROHN], [IL23R, STAT3, NOD2])] });
    expect(r.count).toBe(3);
    expect(r.answers.every((a) => a.supportIds.includes('A1'))).toBe(true);
  });

  it('says no when the set a yes/no meeting asks for is empty, with no edge to walk', () => {
    const u = understand("Is any gene associated with both multiple sclerosis and Crohn's disease?", [MS, CROHN]);
    expect(u.operator).toBe('yesno');
    const r = answerFromEvidence(u, { triples: [], sets: [set([MS, CROHN], [])] });
    expect(r.abstain).toBe(false);
    expect(r.verdict).toBe('no');
  });

  it('is read only for the question it was read for', () => {
    const u = understand("How many genes are associated with both multiple sclerosis and Crohn's disease?", [MS, CROHN]);
    const r = answerFromEvidence(u, { triples: DISEASE_GENES, sets: [set([MS], [IL23R, STAT3, NOD2, HLA, IL7R])] });
    expect(r.count).toBe(2);
  });
});
