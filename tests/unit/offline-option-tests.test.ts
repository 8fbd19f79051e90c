import { describe, expect, it } from 'vitest';
import { readQuestion } from '@/lib/reading';
import { answerFromEvidence } from '@/lib/llm/offline/reason';
import { checkAnswer } from '@/lib/llm/offline/check';
import type { LinkedEntity } from '@/lib/llm/offline/types';
import { triple, type Node } from '../support/evidence-triples';

// Multiple-choice questions whose wording names no relation the reader knows: the options are tested
// against every entity the stem names, through whatever edges of the evidence join them.
const GOUT: Node = ['Disease::gout', 'gout', 'Disease'];
const PODAGRA: Node = ['Symptom::podagra', 'podagra', 'Symptom'];
const KIDNEY: Node = ['Anatomy::kidney', 'kidney', 'Anatomy'];
const COLCHICINE: Node = ['Compound::colchicine', 'Colchicine', 'Compound'];
const WARFARIN: Node = ['Compound::warfarin', 'Warfarin', 'Compound'];
const LEVOTHYROXINE: Node = ['Compound::levothyroxine', 'Levothyroxine', 'Compound'];
const TUBB: Node = ['Gene::tubb', 'TUBB', 'Gene'];

const link = ([nodeId, name, kind]: Node): LinkedEntity => ({ nodeId, kind, name, mention: name });

function read(text: string, stem: Node[], options: Record<string, Node>) {
  const links = stem.map(([nodeId, name, kind]) => {
    const start = text.indexOf(name);
    return { nodeId, kind, name, mention: name, start, end: start + name.length };
  });
  return readQuestion(text, {
    links,
    options: Object.fromEntries(Object.entries(options).map(([k, n]) => [k, n[1]])),
    optionLinks: Object.fromEntries(Object.entries(options).map(([k, n]) => [k, [link(n)]])),
  });
}

const OPTIONS = { A: WARFARIN, B: COLCHICINE, C: LEVOTHYROXINE };
const VIGNETTE =
  'A 58-year-old man wakes at night with a hot, swollen big toe (podagra); he has had gout before and his kidney function is normal. Which of the following is the most appropriate next step?';

describe('MCQ options tested against the stem', () => {
  it('every entity of a long stem counts, context sentences included', () => {
    const u = read(VIGNETTE, [PODAGRA, GOUT, KIDNEY], OPTIONS);
    expect(u.stemEntities.map((e) => e.name)).toEqual(['podagra', 'gout', 'kidney']);
    expect(u.options.map((o) => o.letter)).toEqual(['A', 'B', 'C']);
  });

  it('chooses the option joined to the most of the stem’s entities, by any metaedge in either direction, citing the edges', () => {
    const u = read(VIGNETTE, [PODAGRA, GOUT, KIDNEY], OPTIONS);
    const evidence = {
      triples: [
        triple('t1', COLCHICINE, 'CtD', GOUT),
        triple('t2', WARFARIN, 'CbG', TUBB),
        triple('t3', GOUT, 'DpS', PODAGRA),
        triple('t4', KIDNEY, 'AeG', TUBB),
        triple('t5', COLCHICINE, 'CbG', TUBB),
      ],
    };
    const r = answerFromEvidence(u, evidence);
    expect(r.chosenOption).toBe('B');
    expect(r.answers[0].supportIds).toContain('t1');
    // The stem's gene-level context (no relation the reading follows) still joins an option: TUBB named in the stem, Colchicine –binds→ TUBB.
    const genes = read('Tubulin TUBB is the target in question. Which of the following is the agent?', [TUBB], OPTIONS);
    const byGene = answerFromEvidence(genes, { triples: [triple('t5', COLCHICINE, 'CbG', TUBB), triple('t6', GOUT, 'DpS', PODAGRA)] });
    expect(byGene.chosenOption).toBe('B');
  });

  it('ranks by how many of the stem’s mentions an option is joined to before the number of edges', () => {
    const u = read(VIGNETTE, [PODAGRA, GOUT, KIDNEY], OPTIONS);
    const evidence = {
      triples: [
        triple('t1', WARFARIN, 'CtD', GOUT),
        triple('t2', WARFARIN, 'CpD', GOUT),
        triple('t3', LEVOTHYROXINE, 'CtD', GOUT),
        triple('t4', KIDNEY, 'AeG', TUBB),
      ],
    };
    const r = answerFromEvidence(u, evidence);
    expect(r.abstain).toBe(false);
    expect(r.chosenOption).toBe('A');
    expect(r.testedOptions).toBe(true);
    expect(r.answers[0].supportIds).toEqual(['t1', 't2']);
    // The check accepts an option so decided: it rests on the edges that join it to the stem.
    expect(checkAnswer(u, r, evidence).stop).toBe(true);
    const wide = answerFromEvidence(u, {
      triples: [
        triple('t1', WARFARIN, 'CtD', GOUT),
        triple('t2', WARFARIN, 'CpD', GOUT),
        triple('t3', LEVOTHYROXINE, 'CtD', GOUT),
        triple('t4', LEVOTHYROXINE, 'CcSE', PODAGRA),
      ],
    });
    expect(wide.chosenOption).toBe('C');
  });

  it('abstains when no option is joined, or two are joined equally', () => {
    const u = read(VIGNETTE, [PODAGRA, GOUT, KIDNEY], OPTIONS);
    const none = answerFromEvidence(u, { triples: [triple('t1', GOUT, 'DpS', PODAGRA)] });
    expect(none.abstain).toBe(true);
    expect(none.reason).toMatch(/no option is joined/);
    const tie = answerFromEvidence(u, { triples: [triple('t1', WARFARIN, 'CtD', GOUT), triple('t2', COLCHICINE, 'CtD', GOUT)] });
    expect(tie.abstain).toBe(true);
    expect(tie.optionTie).toEqual(['A', 'B']);
  });

  it('a negated ask takes the one linked option joined to nothing; a negation in the case told before does not', () => {
    const triples = [triple('t1', WARFARIN, 'CtD', GOUT), triple('t2', LEVOTHYROXINE, 'CtD', GOUT)];
    const except = read('Each of these drugs is used in gout EXCEPT which one?', [GOUT], OPTIONS);
    expect(answerFromEvidence(except, { triples }).chosenOption).toBe('B');
    const told = read('The patient does not smoke and has gout. Which drug is indicated?', [GOUT], { A: WARFARIN, B: COLCHICINE });
    expect(answerFromEvidence(told, { triples }).chosenOption).toBe('A');
  });

  it('leaves a question the derivation answers to the derivation', () => {
    const u = read('Which drug treats gout?', [GOUT], OPTIONS);
    const r = answerFromEvidence(u, { triples: [triple('t1', COLCHICINE, 'CtD', GOUT), triple('t2', WARFARIN, 'CcSE', PODAGRA)] });
    expect(r.chosenOption).toBe('B');
    expect(r.testedOptions).toBeUndefined();
  });
});
