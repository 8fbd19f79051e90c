import { describe, expect, it } from 'vitest';
import { readQuestion } from '@/lib/reading';
import { answerFromEvidence, type ReasonResult } from '@/lib/llm/offline/reason';
import { checkAnswer } from '@/lib/llm/offline/check';
import { triple, type Node } from '../support/evidence-triples';

const MS: Node = ['Disease::DOID:2377', 'multiple sclerosis', 'Disease'];
const CROHN: Node = ['Disease::DOID:8778', "Crohn's disease", 'Disease'];
const IL23R: Node = ['Gene::149233', 'IL23R', 'Gene'];
const NOD2: Node = ['Gene::64127', 'NOD2', 'Gene'];

const text = "Which genes are associated with both multiple sclerosis and Crohn's disease?";
const u = readQuestion(text, {
  links: [MS, CROHN].map(([nodeId, name, kind]) => ({ nodeId, name, kind, mention: name, start: text.indexOf(name), end: text.indexOf(name) + name.length })),
});
const full = { triples: [triple('e1', MS, 'DaG', IL23R), triple('e2', CROHN, 'DaG', IL23R), triple('e3', CROHN, 'DaG', NOD2)] };

describe('checkAnswer', () => {
  it('stops when every anchor has evidence and the answer follows from it', () => {
    const verdict = checkAnswer(u, answerFromEvidence(u, full), full);
    expect(verdict).toMatchObject({ stop: true, sufficient: true, consistent: true, missing: [] });
  });

  it('names the anchor and relation whose evidence is missing', () => {
    const partial = { triples: [triple('e1', MS, 'DaG', IL23R)] };
    const verdict = checkAnswer(u, answerFromEvidence(u, partial), partial);
    expect(verdict.stop).toBe(false);
    expect(verdict.sufficient).toBe(false);
    expect(verdict.missing).toEqual(["no KG evidence for anchor Crohn's disease with relation DaG"]);
    expect(verdict.reason).toMatch(/^abstained: /);
  });

  it('flags an answer that the evidence does not support', () => {
    const wrong: ReasonResult = {
      answers: [{ nodeId: NOD2[0], name: 'NOD2', kind: 'Gene', supportIds: ['e3'], supportCount: 1 }],
      abstain: false,
      reason: 'made up',
      rationale: [],
    };
    const verdict = checkAnswer(u, wrong, full);
    expect(verdict.consistent).toBe(false);
    expect(verdict.stop).toBe(false);
    expect(verdict.reason).toBe('answer NOD2 is not reached by DaG(multiple sclerosis)');
  });

  it('flags an ungrounded answer, a wrong kind and a count that disagrees with its list', () => {
    const wrong: ReasonResult = {
      answers: [{ nodeId: MS[0], name: 'multiple sclerosis', kind: 'Disease', supportIds: [], supportCount: 0 }],
      count: 3,
      abstain: false,
      reason: '',
      rationale: [],
    };
    const problems = checkAnswer(u, wrong, full);
    expect(problems.consistent).toBe(false);
    expect(problems.reason).toBe('answer multiple sclerosis cites no evidence');
  });

  it('reports an unresolved question', () => {
    const none = readQuestion('Which genes are associated with it?', { links: [] });
    const verdict = checkAnswer(none, answerFromEvidence(none, full), full);
    expect(verdict.missing).toEqual(['no linked entity anchors the question']);
    expect(verdict.stop).toBe(false);
  });

  it('reports an entity whose kind no relation joins to the answer, and reason says it ignored it', () => {
    const q = 'Which compound treats hypertension and causes bradycardia?';
    const at = (m: string) => ({ start: q.indexOf(m), end: q.indexOf(m) + m.length, mention: m, name: m });
    const mixed = readQuestion(q, {
      links: [
        { nodeId: 'Disease::DOID:10763', kind: 'Disease', ...at('hypertension') },
        { nodeId: 'Symptom::D001919', kind: 'Symptom', ...at('bradycardia') },
      ],
    });
    const ATENOLOL: Node = ['Compound::DB00335', 'Atenolol', 'Compound'];
    const evidence = { triples: [triple('t1', ATENOLOL, 'CtD', ['Disease::DOID:10763', 'hypertension', 'Disease'])] };
    const answer = answerFromEvidence(mixed, evidence);
    expect(answer.answers.map((a) => a.name)).toEqual(['Atenolol']);
    expect(answer.rationale[0]).toBe('ignored bradycardia: no relation joins a Symptom to the answer');
    const verdict = checkAnswer(mixed, answer, evidence);
    expect(verdict).toMatchObject({ sufficient: false, consistent: true, stop: false });
    expect(verdict.missing).toEqual(['no relation links anchor bradycardia (Symptom) to the Compound']);
  });

  it('names the broken hop of a chain', () => {
    const EPI: Node = ['Disease::DOID:1826', 'epilepsy', 'Disease'];
    const VPA: Node = ['Compound::DB00313', 'Valproic acid', 'Compound'];
    const q = 'What disease is treated by a compound that also treats epilepsy?';
    const path = readQuestion(q, {
      links: [{ nodeId: EPI[0], name: 'epilepsy', kind: 'Disease', mention: 'epilepsy', start: q.indexOf('epilepsy'), end: q.length - 1 }],
    });
    const evidence = { triples: [triple('p1', VPA, 'CtD', EPI)] };
    const verdict = checkAnswer(path, answerFromEvidence(path, evidence), evidence);
    expect(verdict.missing).toEqual(['no KG evidence for hop 2 (CtD: Compound → Disease) on the chain from epilepsy']);
  });
});

describe('checkAnswer on a claim between two linked entities', () => {
  const yesno = 'Does metformin treat type 2 diabetes mellitus?';
  const METFORMIN: Node = ['Compound::DB00331', 'Metformin', 'Compound'];
  const T2D: Node = ['Disease::DOID:9352', 'type 2 diabetes mellitus', 'Disease'];
  const read = readQuestion(yesno, {
    links: [
      [...METFORMIN, 'metformin'],
      [...T2D, 'type 2 diabetes mellitus'],
    ].map(([nodeId, name, kind, mention]) => ({ nodeId, name, kind, mention, start: yesno.indexOf(mention), end: yesno.indexOf(mention) + mention.length })),
  });

  it('agrees with the linking: a plan of claims only (as BioWeave writes a yes/no) is anchored by its claim', () => {
    // BioWeave's operator check reads a yes/no plan as one claim and no constraint.
    const claimOnly = { ...read, anchors: [] };
    expect(claimOnly.propositions).toHaveLength(1);
    const evidence = { triples: [triple('e1', METFORMIN, 'CtD', T2D)] };
    const verdict = checkAnswer(claimOnly, answerFromEvidence(claimOnly, evidence), evidence);
    expect(verdict.missing).not.toContain('no linked entity anchors the question');
    expect(verdict.reason).not.toMatch(/no linked entity/);
  });
});
