import { describe, expect, it } from 'vitest';
import { metaedgeInfo } from '@/lib/llm/offline/metaedges';
import { QuestionReadingSchema, type LinkedEntity, type QuestionReading } from '@/lib/llm/offline/types';
import { readQuestion } from '@/lib/reading';
import { splitInlineOptions } from '@/lib/reading/options';
import { loadedMetagraph } from '@/lib/kg/loaded-metagraph';

/**
 * One hop over the whole metagraph: every Hetionet metaedge, read from either
 * end, as a list, a count, a yes/no on a given pair and a multiple choice
 * (options inline, as an object, and both), each in a few wordings written
 * for this table. A row says the metaedge and which end the anchor (for
 * yes/no, the subject) stands at; the reading must have that one anchor, that
 * metaedge as its preferred first hop in that direction, the far end as the
 * answer kind, and the operator and output format of the question's type.
 * Links are given as the linker would give them, so the table tests reading.
 */

const KINDS = {
  C: 'Compound',
  D: 'Disease',
  G: 'Gene',
  A: 'Anatomy',
  S: 'Symptom',
  SE: 'Side Effect',
  PC: 'Pharmacologic Class',
  PW: 'Pathway',
  BP: 'Biological Process',
  CC: 'Cellular Component',
  MF: 'Molecular Function',
} as const;

/** Names the table's questions use, by kind (ids are made up: the reading never looks at them). */
const NAMES: Record<keyof typeof KINDS, string[]> = {
  C: ['metformin', 'ibuprofen', 'aspirin', 'imatinib', 'simvastatin', 'warfarin', 'clopidogrel', 'prednisone', 'haloperidol'],
  D: ['asthma', 'psoriasis', 'gout', 'migraine', 'multiple sclerosis', 'hypertension', 'epilepsy', 'glaucoma'],
  G: ['BRCA1', 'TP53', 'EGFR', 'IL6', 'TNF', 'ESR1', 'CYP3A4', 'PTGS2', 'INS', 'MYC', 'AKT1'],
  A: ['liver', 'kidney', 'heart', 'lung', 'brain', 'retina', 'skin'],
  S: ['headache', 'fatigue', 'tremor', 'dyspnea'],
  SE: ['nausea', 'alopecia', 'hepatotoxicity', 'photosensitivity'],
  PC: ['Cyclooxygenase Inhibitors', 'HMG-CoA Reductase Inhibitors', 'Antipsychotic Agents'],
  PW: ['Wnt signaling pathway', 'insulin signaling pathway', 'Apoptosis pathway'],
  BP: ['DNA repair', 'angiogenesis', 'autophagy'],
  CC: ['mitochondrion', 'nucleus', 'plasma membrane'],
  MF: ['kinase activity', 'DNA binding', 'receptor activity'],
};

const BY_NAME = new Map(Object.entries(NAMES).flatMap(([k, names]) => names.map((n) => [n.toLowerCase(), KINDS[k as keyof typeof KINDS]] as const)));
const NAME_PATTERN = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${[...BY_NAME.keys()]
    .sort((a, b) => b.length - a.length)
    .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|')})(?![\\p{L}\\p{N}])`,
  'giu',
);

/** Every known name in the text, longest first, as the linker would link it. */
function linksIn(text: string): LinkedEntity[] {
  return [...text.matchAll(NAME_PATTERN)].map((m) => {
    const kind = BY_NAME.get(m[0].toLowerCase())!;
    return { nodeId: `${kind}::${m[0].toLowerCase()}`, kind, name: m[0], mention: m[0], start: m.index, end: m.index + m[0].length, score: 1 };
  });
}

type Role = 'source' | 'target' | 'any';
/** `one`: a singular question naming the answer's kind ('What is the drug class of X?'); `list`: plural or numberless. */
type Type = 'list' | 'one' | 'count' | 'yn' | 'mcq';
/** [metaedge, the anchor's (yes/no: the subject's) end of it, type, question]. */
type Row = [string, Role, Type, string];

const ROWS: Row[] = [
  // Compound treats Disease
  ['CtD', 'source', 'list', 'Which conditions is metformin indicated for?'],
  ['CtD', 'source', 'list', 'What illnesses can ibuprofen be used to treat?'],
  ['CtD', 'source', 'count', 'How many disorders does aspirin treat?'],
  ['CtD', 'source', 'count', 'For how many diseases is imatinib an approved therapy?'],
  ['CtD', 'target', 'list', 'What medications treat gout?'],
  ['CtD', 'target', 'list', 'Name the agents used in the treatment of psoriasis.'],
  ['CtD', 'target', 'count', 'How many compounds are indicated for migraine?'],
  ['CtD', 'target', 'count', 'count the meds that can cure asthma'],
  ['CtD', 'source', 'yn', 'Is metformin a treatment for hypertension?'],
  ['CtD', 'source', 'yn', 'does imatinib treat multiple sclerosis'],
  ['CtD', 'target', 'yn', 'Can gout be treated with warfarin?'],
  ['CtD', 'target', 'mcq', 'Which of the following drugs treats gout? A) metformin B) aspirin C) warfarin'],
  ['CtD', 'source', 'mcq', 'Which condition is simvastatin used to treat? (A) asthma (B) hypertension (C) migraine'],
  // Compound palliates Disease
  ['CpD', 'target', 'list', 'Which drugs are palliative for migraine?'],
  ['CpD', 'target', 'list', 'What medications relieve the symptoms of multiple sclerosis?'],
  ['CpD', 'source', 'list', 'What conditions does ibuprofen palliate?'],
  ['CpD', 'source', 'list', 'For which illnesses is aspirin given as palliative care?'],
  ['CpD', 'target', 'count', 'How many agents provide symptomatic relief of gout?'],
  ['CpD', 'source', 'count', 'How many disorders does prednisone alleviate?'],
  ['CpD', 'source', 'yn', 'Does ibuprofen relieve symptoms of migraine?'],
  ['CpD', 'source', 'yn', 'Is aspirin palliative for gout?'],
  ['CpD', 'target', 'yn', 'is epilepsy palliated by haloperidol?'],
  ['CpD', 'target', 'mcq', 'Which medication is used palliatively in asthma? A) metformin B) prednisone C) warfarin'],
  // Compound binds Gene
  ['CbG', 'target', 'list', 'What drugs bind EGFR?'],
  ['CbG', 'target', 'list', 'Which compounds target ESR1?'],
  ['CbG', 'target', 'list', 'list drugs binding PTGS2'],
  ['CbG', 'target', 'list', 'EGFR binders?'],
  ['CbG', 'source', 'list', "What are imatinib's targets?"],
  ['CbG', 'source', 'list', 'What is targeted by imatinib?'],
  ['CbG', 'source', 'list', 'Which proteins does warfarin bind?'],
  ['CbG', 'source', 'list', 'Which enzymes are inhibited by aspirin?'],
  ['CbG', 'source', 'list', 'Name the protein targets (genes) that clopidogrel binds to.'],
  ['CbG', 'source', 'one', 'Which receptor does haloperidol block?'],
  ['CbG', 'source', 'count', 'How many genes does metformin target?'],
  ['CbG', 'target', 'count', 'How many medications act on ESR1?'],
  ['CbG', 'target', 'yn', 'Is EGFR targeted by imatinib?'],
  ['CbG', 'source', 'yn', 'Does warfarin bind CYP3A4?'],
  ['CbG', 'source', 'mcq', 'Which protein is a target of imatinib? A) EGFR B) INS C) TNF'],
  ['CbG', 'target', 'mcq', 'Which agent binds PTGS2? A. metformin B. aspirin C. warfarin'],
  // Gene interacts Gene
  ['GiG', 'any', 'list', 'Which proteins physically interact with TP53?'],
  ['GiG', 'any', 'list', 'What genes form a complex with BRCA1?'],
  ['GiG', 'any', 'list', 'Which proteins bind to INS?'],
  ['GiG', 'any', 'count', 'How many interaction partners does TNF have?'],
  ['GiG', 'any', 'count', 'how many proteins does EGFR interact with'],
  ['GiG', 'any', 'yn', 'Do BRCA1 and TP53 physically interact?'],
  ['GiG', 'any', 'yn', 'Does EGFR bind IL6?'],
  ['GiG', 'any', 'mcq', 'Which protein interacts with MYC? A) TP53 B) INS C) ESR1'],
  // Gene covaries Gene
  ['GcG', 'any', 'list', 'Which genes covary with TP53?'],
  ['GcG', 'any', 'list', 'What genes are co-expressed with BRCA1?'],
  ['GcG', 'any', 'list', 'Which genes show correlated expression with MYC?'],
  ['GcG', 'any', 'count', 'How many genes covary with EGFR?'],
  ['GcG', 'any', 'yn', 'Is the expression of EGFR correlated with that of IL6?'],
  ['GcG', 'any', 'yn', 'does AKT1 covary with MYC'],
  ['GcG', 'any', 'mcq', 'Which gene is co-expressed with ESR1? A) TNF B) INS C) MYC'],
  // Gene regulates Gene (directed)
  ['Gr>G', 'source', 'list', 'Which genes does TP53 regulate?'],
  ['Gr>G', 'target', 'list', 'Which genes regulate ESR1?'],
  ['Gr>G', 'source', 'list', 'What genes are regulated by MYC?'],
  ['Gr>G', 'target', 'list', 'What are the regulators of EGFR?'],
  ['Gr>G', 'source', 'count', 'How many genes are regulated by TP53?'],
  ['Gr>G', 'target', 'count', 'How many genes regulate INS?'],
  ['Gr>G', 'source', 'yn', 'Does TP53 regulate BRCA1?'],
  ['Gr>G', 'target', 'yn', 'Is ESR1 regulated by MYC?'],
  ['Gr>G', 'source', 'mcq', 'Which gene does TP53 regulate? A) INS B) TNF C) ESR1'],
  // Anatomy expresses Gene
  ['AeG', 'source', 'list', 'Which genes are expressed in the liver?'],
  ['AeG', 'source', 'list', 'What genes does the kidney express?'],
  ['AeG', 'target', 'list', 'In which tissues is BRCA1 expressed?'],
  ['AeG', 'target', 'list', 'Where in the body is INS expressed?'],
  ['AeG', 'target', 'list', 'What organs express TNF?'],
  ['AeG', 'source', 'count', 'How many genes are expressed in the heart?'],
  ['AeG', 'target', 'count', 'In how many body parts is IL6 expressed?'],
  ['AeG', 'target', 'yn', 'Is EGFR expressed in the lung?'],
  ['AeG', 'source', 'yn', 'Does the retina express MYC?'],
  ['AeG', 'target', 'mcq', 'Which tissue expresses INS? A) liver B) heart C) brain'],
  // Anatomy upregulates Gene
  ['AuG', 'source', 'list', 'Which genes are upregulated in the liver?'],
  ['AuG', 'target', 'list', 'In which organs is IL6 up-regulated?'],
  ['AuG', 'source', 'count', 'How many genes are overexpressed in the heart?'],
  ['AuG', 'target', 'yn', 'Is TNF overexpressed in the kidney?'],
  ['AuG', 'target', 'yn', 'TP53 upregulated in brain? y/n'],
  // Anatomy downregulates Gene
  ['AdG', 'source', 'list', 'Which genes are downregulated in the kidney?'],
  ['AdG', 'target', 'list', 'In which tissues is ESR1 down-regulated?'],
  ['AdG', 'source', 'count', 'How many genes are under-expressed in the skin?'],
  ['AdG', 'target', 'yn', 'Is MYC downregulated in the retina?'],
  ['AdG', 'target', 'yn', 'AKT1 — downregulated in lung? y/n'],
  // Compound upregulates Gene
  ['CuG', 'source', 'list', 'Which genes does metformin upregulate?'],
  ['CuG', 'target', 'list', 'What drugs increase expression of TP53?'],
  ['CuG', 'target', 'list', 'Which compounds up-regulate EGFR?'],
  ['CuG', 'source', 'count', 'How many genes are up-regulated by imatinib?'],
  ['CuG', 'source', 'yn', 'Does aspirin increase the expression of IL6?'],
  ['CuG', 'source', 'yn', 'Does warfarin raise TNF expression?'],
  ['CuG', 'target', 'mcq', 'Which compound upregulates MYC? A) metformin B) aspirin C) warfarin'],
  // Compound downregulates Gene
  ['CdG', 'source', 'list', 'Which genes are downregulated by imatinib?'],
  ['CdG', 'target', 'list', 'Which medications suppress expression of BRCA1?'],
  ['CdG', 'target', 'count', 'How many drugs down-regulate ESR1?'],
  ['CdG', 'source', 'yn', 'Does warfarin decrease TNF expression?'],
  ['CdG', 'source', 'yn', 'Does prednisone lower the expression of IL6?'],
  ['CdG', 'source', 'mcq', 'Which gene is downregulated by metformin? A) INS B) TNF C) MYC'],
  // Disease upregulates Gene
  ['DuG', 'source', 'list', 'Which genes are upregulated in psoriasis?'],
  ['DuG', 'target', 'list', 'In which diseases is IL6 overexpressed?'],
  ['DuG', 'source', 'count', 'How many genes are up-regulated in asthma?'],
  ['DuG', 'target', 'yn', 'Is TNF up-regulated in asthma?'],
  ['DuG', 'target', 'mcq', 'In which disorder is MYC upregulated? A) gout B) psoriasis C) glaucoma'],
  // Disease downregulates Gene
  ['DdG', 'source', 'list', 'Which genes are downregulated in gout?'],
  ['DdG', 'target', 'list', 'In which illnesses is ESR1 under-expressed?'],
  ['DdG', 'source', 'count', 'how many genes get down-regulated in migraine'],
  ['DdG', 'target', 'yn', 'Is BRCA1 downregulated in hypertension?'],
  // Disease associates Gene
  ['DaG', 'source', 'list', 'Which genes are associated with asthma?'],
  ['DaG', 'target', 'list', 'What diseases is BRCA1 linked to?'],
  ['DaG', 'source', 'count', 'How many genes are implicated in migraine?'],
  ['DaG', 'target', 'count', 'With how many conditions is TNF associated?'],
  ['DaG', 'target', 'yn', 'Is TP53 a risk gene for psoriasis?'],
  ['DaG', 'source', 'yn', 'Is epilepsy genetically associated with MYC?'],
  ['DaG', 'source', 'mcq', 'Which gene is associated with glaucoma? A) TNF B) INS C) MYC'],
  // Disease localizes to Anatomy
  ['DlA', 'source', 'list', 'Which organs does multiple sclerosis affect?'],
  ['DlA', 'source', 'list', 'Where does psoriasis localize?'],
  ['DlA', 'source', 'one', 'What part of the body does epilepsy affect?'],
  ['DlA', 'target', 'list', 'What diseases localize to the liver?'],
  ['DlA', 'target', 'list', 'Which disorders affect the kidney?'],
  ['DlA', 'source', 'count', 'How many body parts does gout affect?'],
  ['DlA', 'target', 'count', 'How many conditions localize to the retina?'],
  ['DlA', 'source', 'yn', 'Does asthma localize to the lung?'],
  ['DlA', 'source', 'mcq', 'Which organ does glaucoma affect? A) retina B) liver C) kidney'],
  // Disease presents Symptom
  ['DpS', 'source', 'list', 'What are the symptoms of migraine?'],
  ['DpS', 'target', 'list', 'Which diseases present with headache?'],
  ['DpS', 'target', 'list', 'Which conditions have tremor as a symptom?'],
  ['DpS', 'source', 'count', 'How many symptoms does multiple sclerosis have?'],
  ['DpS', 'target', 'count', 'How many disorders present with fatigue?'],
  ['DpS', 'target', 'yn', 'Is headache a symptom of migraine?'],
  ['DpS', 'source', 'yn', 'Does asthma present with dyspnea?'],
  ['DpS', 'source', 'mcq', 'Which symptom is seen in epilepsy? A) headache B) tremor C) dyspnea'],
  // Disease resembles Disease
  ['DrD', 'any', 'list', 'Which diseases resemble asthma?'],
  ['DrD', 'any', 'list', 'What conditions are similar to psoriasis?'],
  ['DrD', 'any', 'count', 'How many diseases resemble gout?'],
  ['DrD', 'any', 'yn', 'Does gout resemble psoriasis?'],
  ['DrD', 'any', 'mcq', 'Which disease resembles migraine? A) epilepsy B) gout C) glaucoma'],
  // Compound resembles Compound
  ['CrC', 'any', 'list', 'Which compounds are structurally similar to aspirin?'],
  ['CrC', 'any', 'list', 'What drugs resemble warfarin?'],
  ['CrC', 'any', 'list', 'name analogues of ibuprofen'],
  ['CrC', 'any', 'count', 'How many compounds resemble metformin?'],
  ['CrC', 'any', 'yn', 'Is aspirin structurally similar to ibuprofen?'],
  ['CrC', 'any', 'mcq', 'Which compound is structurally similar to warfarin? A) metformin B) aspirin C) clopidogrel'],
  // Compound causes Side Effect
  ['CcSE', 'source', 'list', 'What side effects does warfarin cause?'],
  ['CcSE', 'target', 'list', 'Which drugs cause nausea?'],
  ['CcSE', 'target', 'list', 'Which medications have alopecia as an adverse reaction?'],
  ['CcSE', 'source', 'list', 'What are the adverse effects of imatinib?'],
  ['CcSE', 'source', 'count', 'How many side effects does metformin have?'],
  ['CcSE', 'target', 'count', 'How many drugs can cause hepatotoxicity?'],
  ['CcSE', 'source', 'yn', 'Can imatinib cause nausea?'],
  ['CcSE', 'target', 'yn', 'Is photosensitivity a side effect of simvastatin?'],
  ['CcSE', 'source', 'mcq', 'Which adverse reaction is caused by aspirin? A) nausea B) alopecia C) photosensitivity'],
  // Pharmacologic Class includes Compound
  ['PCiC', 'target', 'one', 'What is the drug class of simvastatin?'],
  ['PCiC', 'target', 'one', 'Which pharmacologic class does aspirin belong to?'],
  ['PCiC', 'target', 'list', 'Which drug classes is prednisone classified under?'],
  ['PCiC', 'source', 'list', 'Which drugs are members of Cyclooxygenase Inhibitors?'],
  ['PCiC', 'source', 'list', 'What compounds does HMG-CoA Reductase Inhibitors include?'],
  ['PCiC', 'source', 'count', 'How many drugs are in the Antipsychotic Agents class?'],
  ['PCiC', 'target', 'yn', 'Is simvastatin a member of HMG-CoA Reductase Inhibitors?'],
  ['PCiC', 'target', 'yn', 'haloperidol — classed as Antipsychotic Agents? y/n'],
  ['PCiC', 'target', 'mcq', 'Which drug class includes ibuprofen? A) Cyclooxygenase Inhibitors B) HMG-CoA Reductase Inhibitors C) Antipsychotic Agents'],
  // Gene participates in Biological Process, Cellular Component, Molecular Function, Pathway
  ['GpBP', 'source', 'list', 'Which biological processes does TP53 participate in?'],
  ['GpBP', 'target', 'list', 'What genes are involved in DNA repair?'],
  ['GpBP', 'target', 'count', 'How many genes take part in angiogenesis?'],
  ['GpBP', 'source', 'yn', 'Does BRCA1 participate in DNA repair?'],
  ['GpCC', 'source', 'list', 'In which cellular components is EGFR located?'],
  ['GpCC', 'target', 'list', 'Which genes localize to the mitochondrion?'],
  ['GpCC', 'target', 'count', 'How many genes are found in the nucleus?'],
  ['GpCC', 'source', 'yn', 'Is EGFR located in the plasma membrane?'],
  ['GpMF', 'source', 'list', 'What molecular functions does INS have?'],
  ['GpMF', 'target', 'list', 'Which genes have kinase activity?'],
  ['GpMF', 'target', 'count', 'How many genes have receptor activity?'],
  ['GpMF', 'source', 'yn', 'Does INS have receptor activity?'],
  ['GpMF', 'source', 'one', 'Which molecular function does AKT1 carry out?'],
  ['GpPW', 'source', 'list', 'Which pathways is TP53 in?'],
  ['GpPW', 'target', 'list', 'What genes participate in the Wnt signaling pathway?'],
  ['GpPW', 'target', 'count', 'How many genes are part of the insulin signaling pathway?'],
  ['GpPW', 'source', 'yn', 'Is EGFR part of the insulin signaling pathway?'],
  ['GpPW', 'source', 'mcq', 'Which pathway does AKT1 participate in? A) Wnt signaling pathway B) insulin signaling pathway C) Apoptosis pathway'],
];

const FORMAT: Record<Type, QuestionReading['outputFormat']> = { list: 'list', one: 'single', count: 'count', yn: 'yesno', mcq: 'option' };

function read(text: string, options?: Record<string, string>): QuestionReading {
  const optionLinks = options && Object.fromEntries(Object.entries(options).map(([k, v]) => [k, linksIn(v)]));
  return QuestionReadingSchema.parse(readQuestion(text, { links: linksIn(text), options, optionLinks }));
}

/** The far end of a metaedge from the anchor's end. */
function farKind(abbr: string, role: Role): string {
  const m = metaedgeInfo(abbr)!;
  return role === 'target' ? m.source : m.target;
}

function expectHop(r: QuestionReading, abbr: string, role: Role, type: Type) {
  expect(r.outputFormat).toBe(FORMAT[type]);
  if (type === 'yn') {
    expect(r.operator).toBe('yesno');
    expect(r.propositions).toHaveLength(1);
    const edge = r.propositions[0].hop.edges[0];
    expect(edge.metaedge).toBe(abbr);
    expect(edge.fromEnd).toBe(role);
    return;
  }
  expect(r.operator).toBe(type === 'count' ? 'count' : 'lookup');
  expect(r.anchors).toHaveLength(1);
  const [anchor] = r.anchors;
  expect(anchor.chain).toHaveLength(1);
  expect(anchor.chain[0].edges[0]).toEqual({ metaedge: abbr, fromEnd: role });
  expect(r.answerKind).toBe(farKind(abbr, role));
}

describe('one hop over the whole metagraph', () => {
  it('the table covers every Hetionet metaedge, from each end, as a list and a count, and as yes/no', () => {
    for (const m of loadedMetagraph().metaedges) {
      const rows = ROWS.filter((r) => r[0] === m.abbr);
      const roles: Role[] = m.source === m.target && !m.directed ? ['any'] : ['source', 'target'];
      for (const role of roles)
        expect(
          rows.some((r) => r[1] === role && (r[2] === 'list' || r[2] === 'one' || r[2] === 'count')),
          `${m.abbr} ${role}`,
        ).toBe(true);
      expect(
        rows.some((r) => r[2] === 'yn'),
        `${m.abbr} yes/no`,
      ).toBe(true);
    }
  });

  it.each(ROWS.filter((r) => r[2] !== 'mcq'))('%s %s %s: %s', (abbr, role, type, text) => {
    expectHop(read(text), abbr, role, type);
  });

  describe.each(ROWS.filter((r) => r[2] === 'mcq'))('%s %s %s: %s', (abbr, role, type, text) => {
    const { stem, options: inline } = splitInlineOptions(text);
    const object = Object.fromEntries(inline.map((o) => [o.letter, o.text]));
    const optionIds = inline.flatMap((o) => linksIn(o.text).map((l) => l.nodeId));

    it.each([
      ['inline', text, undefined],
      ['as an object', stem, object],
      ['inline and as an object', text, object],
    ])('options %s', (_, question, options) => {
      const r = read(question, options);
      expectHop(r, abbr, role, type);
      expect(r.anchors.map((a) => a.entity.nodeId).filter((id) => optionIds.includes(id))).toEqual([]);
      expect(r.options.map((o) => [o.letter, o.links[0]?.nodeId])).toEqual(inline.map((o) => [o.letter, linksIn(o.text)[0].nodeId]));
    });
  });
});
