import { describe, expect, it } from 'vitest';
import { readQuestion } from '@/lib/reading';
import { splitInlineOptions } from '@/lib/reading/options';
import { answerFromEvidence } from '@/lib/llm/offline/reason';
import { checkAnswer } from '@/lib/llm/offline/check';
import type { QuestionReading } from '@/lib/llm/offline/types';
import { linksIn, type Mention } from '../support/linked-reading';
import { triple, type Node } from '../support/evidence-triples';

// Multiple choice over a chain: the options, in whatever layout they are written or given, are one set of
// candidates of the answer's kind, tested against the chain; never anchors.

const chains = (u: QuestionReading) => u.anchors.map((a) => `${a.entity.name}:${a.chain.map((h) => h.edges.map((e) => e.metaedge).join('|')).join('>')}`);

const MIGRAINE: Mention = ['migraine', 'Disease', 'Disease::DOID:6364'];
const REACTIONS = ['Vertigo', 'Somnolence', 'Photophobia', 'Dysgeusia'];
const reactions = (text: string): Mention[] =>
  REACTIONS.map((r) => {
    const at = text.toLowerCase().lastIndexOf(r.toLowerCase());
    return [text.slice(at, at + r.length), 'Side Effect', `Side Effect::${r}`];
  });

function read(text: string, extra: Partial<Parameters<typeof readQuestion>[1]> = {}, named: Mention[] = [MIGRAINE]): QuestionReading {
  return readQuestion(text, { links: linksIn(text, [...named, ...reactions(text)]), ...extra });
}

describe('inline options in any layout, over a chain of two hops', () => {
  const asked = 'What adverse reaction do medicines prescribed for migraine produce?';
  it.each([
    [`${asked} A) Vertigo B) Somnolence C) Photophobia D) Dysgeusia`],
    [`${asked} (a) vertigo (b) somnolence (c) photophobia (d) dysgeusia`],
    [`${asked}\na. Vertigo\nb. Somnolence\nc. Photophobia\nd. Dysgeusia`],
    [`${asked}\n1. Vertigo\n2. Somnolence\n3. Photophobia\n4. Dysgeusia`],
    [`${asked}\nVertigo\nSomnolence\nPhotophobia\nDysgeusia`],
    [`${asked}\n• Vertigo\n• Somnolence\n• Photophobia\n• Dysgeusia`],
    [`${asked} Vertigo, somnolence, photophobia or dysgeusia.`],
    [`${asked} vertigo / somnolence / photophobia / dysgeusia`],
    ['Medicines prescribed for migraine produce one of: vertigo, somnolence, photophobia, dysgeusia. Which one?'],
    ['The candidates are vertigo, somnolence, photophobia and dysgeusia. Which adverse reaction do medicines prescribed for migraine produce?'],
    ['Choose between vertigo, somnolence, photophobia and dysgeusia: what do medicines prescribed for migraine produce?'],
    ['Would it be vertigo, somnolence, photophobia or dysgeusia that medicines prescribed for migraine produce?'],
    [`${asked} vertigo, somnolence, photophobia or dysgeusia. Just one fits, I was told.`],
    ['Out of vertigo, somnolence, photophobia and dysgeusia, which is produced by medicines prescribed for migraine?'],
    ['Of vertigo, somnolence, photophobia and dysgeusia, which is produced by medicines prescribed for migraine?'],
    ['What adverse reaction do medicines prescribed for migraine produce (vertigo, somnolence, photophobia or dysgeusia)?'],
    [`${asked} [vertigo | somnolence | photophobia | dysgeusia]`],
    [`${asked} (i) vertigo (ii) somnolence (iii) photophobia (iv) dysgeusia`],
    ['Among the options vertigo, somnolence, photophobia or dysgeusia, which one do medicines prescribed for migraine produce?'],
    ['What adverse reaction do medicines prescribed for migraine produce: vertigo, somnolence, photophobia or dysgeusia (my neighbour mentioned one of them)?'],
    // One per line beside the asking line, whatever closes it, before or after it.
    ['Name the adverse reaction medicines prescribed for migraine produce.\n- Vertigo\n- Somnolence\n- Photophobia\n- Dysgeusia'],
    ['adverse reaction medicines prescribed for migraine produce\n· vertigo\n· somnolence\n· photophobia\n· dysgeusia'],
    ['Choices:\nVertigo\nSomnolence\nPhotophobia\nDysgeusia\nWhat adverse reaction do medicines prescribed for migraine produce?'],
    ['Vertigo\nSomnolence\nPhotophobia\nDysgeusia\nOne of these is produced by medicines prescribed for migraine: which?'],
    // A list opening the text, closed by a dash or colon, before a question pointing back at it.
    ['Vertigo, somnolence, photophobia, dysgeusia - which one do medicines prescribed for migraine produce?'],
    ['Vertigo, somnolence, photophobia or dysgeusia: what adverse reaction is produced by medicines prescribed for migraine?'],
    // Spoken fillers, bullets on one line, brackets with semicolons or closing the text, a list ended by a semicolon.
    ['So, um, what adverse reaction do medicines prescribed for migraine produce, is it uh vertigo, or, like, somnolence, or photophobia or maybe dysgeusia?'],
    ['medicines prescribed for migraine → adverse reaction? • Vertigo • Somnolence • Photophobia • Dysgeusia'],
    ['What adverse reaction do medicines prescribed for migraine produce (vertigo; somnolence; photophobia; dysgeusia)?'],
    ['adverse reaction of medicines prescribed for migraine IN [vertigo, somnolence, photophobia, dysgeusia]'],
    ['The options are vertigo, somnolence, photophobia, dysgeusia; which one do medicines prescribed for migraine produce?'],
    ['Which adverse reaction medicines prescribed for migraine produce among vertigo, somnolence, photophobia, dysgeusia?'],
    // Markers said aloud, items each asked on their own, a list set off by commas after the asked noun.
    ['what adverse reaction do medicines prescribed for migraine produce option A vertigo option B somnolence option C photophobia option D dysgeusia'],
    ['so what adverse reaction do medicines prescribed for migraine produce, first one vertigo, second somnolence, third photophobia, and fourth dysgeusia'],
    ['What adverse reaction do medicines prescribed for migraine produce? Vertigo? Somnolence? Photophobia? Dysgeusia?'],
    ['Which adverse reaction, vertigo or somnolence or photophobia or dysgeusia, do medicines prescribed for migraine produce?'],
    // A list after an arrow; a question word closing a list asks over it.
    ['adverse reaction of medicines prescribed for migraine -> vertigo / somnolence / photophobia / dysgeusia?'],
    ['Medicines prescribed for migraine, adverse reaction: vertigo, somnolence, photophobia, or dysgeusia, which?'],
  ])('%s', (text) => {
    const u = read(text);
    expect(u.outputFormat).toBe('option');
    expect(u.options.map((o) => o.text.toLowerCase())).toEqual(REACTIONS.map((r) => r.toLowerCase()));
    expect(u.options.map((o) => o.links[0]?.kind)).toEqual(REACTIONS.map(() => 'Side Effect'));
    expect(u.answerKind).toBe('Side Effect');
    expect(chains(u)).toEqual(['migraine:CtD>CcSE']);
  });

  it('keeps the stem free of the options and of a doubled stop', () => {
    const { stem } = splitInlineOptions(`${asked} Vertigo, somnolence, photophobia or dysgeusia.`);
    expect(stem).toBe(asked);
  });

  it.each([
    ['Which medicine treats migraine? I have asthma and diabetes.'],
    ['Which one treats migraine? My sister has asthma or diabetes.'],
    ['Is there a link between asthma and migraine?'],
    ['Which drugs treat migraine? Also list their targets.'],
    ['Migraine: take the genes tied to it, the drugs that bind those genes, and the side effects those drugs cause. How many?'],
    ['Which genes does imatinib (Gleevec, STI-571) bind?'],
    ['Does sumatriptan bind the gene HTR1B? Answer yes or no.'],
    ['Is vertigo caused by sumatriptan? Reply true or false.'],
    ['Which drug treats\nmigraine and also\ncauses vertigo?'],
    ['My son has migraine.\nHe feels dizzy.\nWhich drugs treat it?'],
    ['Migraine, asthma and eczema: what drug treats all three?'],
    ['Migraine, asthma and eczema - which genes do they share?'],
  ])('reads no options in a sentence after the question that is not a list: %s', (text) => {
    expect(splitInlineOptions(text).options).toEqual([]);
  });
});

describe('an option named again outside its list', () => {
  it('is that option, not an anchor, where options stand together', () => {
    const text =
      'What adverse reaction do medicines prescribed for migraine produce? Is it vertigo or somnolence... no, here they all are: vertigo, somnolence, photophobia, dysgeusia.';
    // linksIn places a mention at its first occurrence: the list's "vertigo" and "somnolence" are placed by hand.
    const links = linksIn(text, [MIGRAINE, ...reactions(text)]);
    for (const l of links.slice(1, 3)) {
      const listed = text.lastIndexOf(l.mention);
      links.push({ ...l, start: listed, end: listed + l.mention.length });
    }
    const u = readQuestion(text, { links });
    expect(u.options.map((o) => o.text.toLowerCase())).toEqual(REACTIONS.map((r) => r.toLowerCase()));
    expect(chains(u)).toEqual(['migraine:CtD>CcSE']);
  });

  it('is the stem entity where it stands alone', () => {
    const text = 'Which side effect is caused by a drug for migraine, as vertigo is? A) Vertigo B) Somnolence C) Photophobia D) Dysgeusia';
    const links = linksIn(text, [MIGRAINE, ...reactions(text)]);
    const alone = text.indexOf('vertigo');
    links.push({ ...links[1], mention: 'vertigo', start: alone, end: alone + 'vertigo'.length });
    const u = readQuestion(text, { links });
    expect(u.options).toHaveLength(4);
    expect(u.stemEntities.map((e) => e.nodeId)).toContain('Side Effect::Vertigo');
  });
});

describe('a bare run of names of the asked kind closing the question', () => {
  it.each([
    ['adverse reaction of migraine medicines vertigo somnolence photophobia or dysgeusia'],
    ['migraine medicines adverse reaction vertigo or somnolence or photophobia or dysgeusia which one'],
    ['so what adverse reaction is it for migraine medicines... vertigo? somnolence? photophobia? dysgeusia?'],
    ['Is the adverse reaction of migraine medicines vertigo, somnolence, photophobia, or dysgeusia?'],
  ])('are the options: %s', (text) => {
    const u = read(text);
    expect(u.outputFormat).toBe('option');
    expect(u.options.map((o) => o.text.toLowerCase())).toEqual(REACTIONS.map((r) => r.toLowerCase()));
    expect(chains(u)).toEqual(['migraine:CtD>CcSE']);
  });

  it('starts after a name the relation phrase before it takes as its object, by a kind the other names lack', () => {
    const text = 'which one is an adverse reaction of drugs that treat migraine vertigo somnolence photophobia or dysgeusia';
    const u = read(text, {}, [['migraine', 'Disease', MIGRAINE[2], [['Side Effect', 'Side Effect::Migraine']]]]);
    expect(u.options.map((o) => o.text)).toEqual(REACTIONS.map((r) => r.toLowerCase()));
    expect(chains(u)).toEqual(['migraine:CtD>CcSE']);
  });

  it('are anchors where a relation phrase takes them as its object', () => {
    const text = 'Which medicine produces vertigo or somnolence?';
    const u = readQuestion(text, { links: linksIn(text, reactions(text).slice(0, 2)) });
    expect(u.options).toEqual([]);
    expect(chains(u)).toEqual(['vertigo:CcSE', 'somnolence:CcSE']);
  });
});

describe('options given apart and written in the text are one set', () => {
  // No marker, comma or colon sets the options off: only the options given apart say they are options.
  const text = 'which of these do migraine medicines produce vertigo somnolence photophobia or dysgeusia';
  const object = Object.fromEntries(REACTIONS.map((r, i) => [String.fromCharCode(65 + i), r]));

  it('never reads a written option as an anchor, nor doubles the set', () => {
    const u = read(text, { options: object });
    expect(chains(u)).toEqual(['migraine:CtD>CcSE']);
    expect(u.options.map((o) => o.text)).toEqual(REACTIONS);
    expect(u.answerKind).toBe('Side Effect');
  });

  it('blanks a given option found by its linked node though written otherwise', () => {
    const q = 'Migraine medicines: is it giddiness or sleepiness they produce?';
    const links = linksIn(q, [
      ['Migraine', 'Disease', MIGRAINE[2]],
      ['giddiness', 'Side Effect', 'Side Effect::Vertigo'],
      ['sleepiness', 'Side Effect', 'Side Effect::Somnolence'],
    ]);
    const optionLinks = {
      A: [{ nodeId: 'Side Effect::Vertigo', kind: 'Side Effect', name: 'Vertigo', mention: 'Vertigo' }],
      B: [{ nodeId: 'Side Effect::Somnolence', kind: 'Side Effect', name: 'Somnolence', mention: 'Somnolence' }],
    };
    const u = readQuestion(q, { links, options: { A: 'Vertigo', B: 'Somnolence' }, optionLinks });
    expect(u.options).toHaveLength(2);
    expect(chains(u)).toEqual(['Migraine:CtD>CcSE']);
  });
});

describe('options whose names are long or hold a comma', () => {
  const CLASSES: Mention[] = [
    ['Organic Anion Transporting Polypeptide 1B1 Inhibitors', 'Pharmacologic Class', 'Pharmacologic Class::N1'],
    ['Vinca Alkaloids', 'Pharmacologic Class', 'Pharmacologic Class::N2'],
    ['Prostaglandins E, Synthetic', 'Pharmacologic Class', 'Pharmacologic Class::N3'],
    ['Factor Xa Inhibitors', 'Pharmacologic Class', 'Pharmacologic Class::N4'],
  ];
  const names = CLASSES.map((c) => c[0]);

  it('reads a list closing "is it …?" with items as long as any list holds, and a comma inside a linked name joins', () => {
    const text = `Is it ${names.slice(0, 3).join(', ')} or ${names[3]}? A drug for migraine belongs to which of these classes.`;
    const u = read(text, {}, [MIGRAINE, ...CLASSES]);
    expect(u.options.map((o) => o.text)).toEqual(names);
    expect(u.answerKind).toBe('Pharmacologic Class');
    expect(chains(u)).toEqual(['migraine:CtD>PCiC']);
  });

  it("takes the options' kind where the question word asks for a noun naming no kind and not every option can be the kind word's", () => {
    const text = `What group do the medicines for migraine come under: ${names.join('; ')}?`;
    const u = read(text, {}, [MIGRAINE, ...CLASSES.slice(0, 3), [names[3], 'Pharmacologic Class', 'Pharmacologic Class::N4', [['Compound', 'Compound::X']]]]);
    expect(u.answerKind).toBe('Pharmacologic Class');
    expect(u.answerKindFrom).toBe('options');
    expect(chains(u)).toEqual(['migraine:CtD>PCiC']);
  });
});

describe('a possessive between two words of one kind names one set', () => {
  it('reads "genes having a protein that binds" as the genes themselves', () => {
    const text = 'Which of these genes having a protein that binds imatinib is it: ABL1, KIT or TP53?';
    const genes: Mention[] = ['ABL1', 'KIT', 'TP53'].map((g) => [g, 'Gene', `Gene::${g}`]);
    const u = readQuestion(text, { links: linksIn(text, [['imatinib', 'Compound', 'Compound::DB00619'], ...genes]) });
    expect(u.answerKind).toBe('Gene');
    expect(chains(u)).toEqual(['imatinib:CbG']);
  });
});

describe("the options' kind names the answer", () => {
  it('makes a kind word no option can be an intermediate of the chain', () => {
    const u = read('Is it vertigo, somnolence, photophobia or dysgeusia that medicines prescribed for migraine produce?');
    expect(u.answerKind).toBe('Side Effect');
    expect(u.answerKindFrom).toBe('options');
    expect(chains(u)).toEqual(['migraine:CtD>CcSE']);
  });

  it('keeps a kind word one option can be, by any reading', () => {
    const text = 'Which of these conditions do migraine medicines treat: cluster headache, vertigo or insomnia?';
    const u = readQuestion(text, {
      links: linksIn(text, [
        MIGRAINE,
        ['cluster headache', 'Disease', 'Disease::DOID:13496', [['Side Effect', 'Side Effect::Cluster headache']]],
        ['vertigo', 'Side Effect', 'Side Effect::Vertigo'],
        ['insomnia', 'Side Effect', 'Side Effect::Insomnia'],
      ]),
    });
    expect(u.answerKind).toBe('Disease');
    expect(u.answerKindFrom).toBe('noun');
  });

  it('keeps a kind word the options share', () => {
    const u = read('Which of these drugs is given for migraine: sumatriptan, rizatriptan or aspirin?', {}, [
      MIGRAINE,
      ['sumatriptan', 'Compound', 'Compound::DB00669'],
      ['rizatriptan', 'Compound', 'Compound::DB00953'],
      ['aspirin', 'Compound', 'Compound::DB00945'],
    ]);
    expect(u.answerKind).toBe('Compound');
    expect(u.answerKindFrom).toBe('noun');
    expect(chains(u)).toEqual(['migraine:CtD|CpD']);
  });
});

describe("an option from the question's complete answer set", () => {
  const CLASS: Node = ['Pharmacologic Class::N1', 'Triptans', 'Pharmacologic Class'];
  const DRUG: Node = ['Compound::DB00669', 'Sumatriptan', 'Compound'];
  const M: Node = ['Disease::DOID:6364', 'migraine', 'Disease'];
  const CLUSTER: Node = ['Disease::DOID:13496', 'cluster headache', 'Disease'];
  const text = 'Which disease is treated by a drug of the Triptans class: migraine, gout or cluster headache?';

  it('meets the chain whole, though the evidence carries none of its edges', () => {
    const u = readQuestion(text, {
      links: linksIn(text, [
        ['Triptans', 'Pharmacologic Class', CLASS[0]],
        ['migraine', 'Disease', M[0]],
        ['gout', 'Disease', 'Disease::DOID:13189'],
        ['cluster headache', 'Disease', CLUSTER[0]],
      ]),
    });
    expect(chains(u)).toEqual(['Triptans:PCiC>CtD']);
    // The evidence cut the chain to one of its answers; the complete set holds the other.
    const evidence = {
      triples: [triple('e1', CLASS, 'PCiC', DRUG), triple('e2', DRUG, 'CtD', CLUSTER)],
      sets: [
        {
          id: 'set1',
          count: 2,
          kind: 'Disease',
          anchors: [CLASS[0]],
          members: [
            { id: M[0], name: 'migraine', kind: 'Disease' },
            { id: CLUSTER[0], name: 'cluster headache', kind: 'Disease' },
          ],
        },
      ],
    };
    const result = answerFromEvidence(u, evidence);
    const verdict = checkAnswer(u, result, evidence);
    expect(verdict.reason).not.toMatch(/is not reached by/);
    expect(result.chosenOption).toBe('C');
    expect(verdict.consistent).toBe(true);
  });
});
