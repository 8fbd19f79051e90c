/**
 * Offline proposer, corrector, HSR refiner, QAIR evaluator and ranker. Each
 * answers from the evidence records in its input and nothing else, with the
 * rule kit's set operations over the KG triples (answerFromEvidence) and, for
 * yes/no questions without KG support, the passages' stated answer.
 */

import { checkAnswer } from '@/lib/llm/offline/check';
import type { EvidenceBundle } from '@/lib/llm/offline/evidence';
import { statedAnswer } from '@/lib/llm/offline/passages';
import { answerFromEvidence, type ReasonResult } from '@/lib/llm/offline/reason';
import { normalise } from '@/lib/llm/offline/text';
import { solutionFromReasoning } from '@/lib/llm/offline/solution';
import { readingOf } from '@/lib/reading';
import type { QuestionReading } from '@/lib/llm/offline/types';
import { union } from '../candidate';
import type { EvidenceItem, QuestionFrame, Solution, SolutionView } from '../templates';

export function understand(frame: QuestionFrame): QuestionReading {
  return readingOf(frame);
}

function bundleOf(evidence: EvidenceItem[]): EvidenceBundle {
  const bundle: Required<EvidenceBundle> = { triples: [], paths: [], passages: [], sets: [], checks: [] };
  for (const item of evidence) {
    const triples = item.triples.map((t) => ({ ...t, id: item.id }));
    if (!triples.length) bundle.passages.push({ id: item.id, text: item.text });
    else if (triples.length === 1) bundle.triples.push(triples[0]);
    else if (triples.length > 1) bundle.paths.push({ id: item.id, triples });
  }
  return bundle;
}

/** The answer the evidence gives: KG set operations; for yes/no without KG support, what the passages state. */
function solve(frame: QuestionFrame, evidence: EvidenceItem[], lead: string[]): { solution: Solution; result: ReasonResult; u: QuestionReading } {
  const u = understand(frame);
  const result = answerFromEvidence(u, bundleOf(evidence));
  if (result.abstain && u.outputFormat === 'yesno') {
    const passages = evidence.filter((e) => !e.triples.length).map((e) => ({ id: e.id, text: e.text }));
    const stated = statedAnswer(u, passages);
    if (stated.decision !== 'maybe' || stated.supportIds.length) {
      const ids = [...new Set(stated.supportIds.map((s) => passages.find((p) => s.startsWith(`${p.id}:`))?.id).filter((id): id is string => !!id))];
      const solution: Solution = {
        answer: stated.decision,
        optionKey: null,
        items: [],
        count: null,
        abstain: false,
        rationale: [...lead, `KG: ${result.reason}.`, `Passages: ${stated.reason}.`].join(' '),
        claims: [{ text: stated.reason, evidenceIds: ids }],
      };
      return { solution, result, u };
    }
  }
  return { solution: solutionFromReasoning(u, result, frame.options, lead), result, u };
}

function sameAnswer(a: Solution, b: Solution): boolean {
  if (a.abstain || b.abstain) return a.abstain === b.abstain;
  // The stated answer, not `items`: a candidate may keep items its answer text no longer names.
  const set = (s: Solution) => [...new Set(s.answer.split(/;\s*/).map(normalise))].sort().join('|');
  return set(a) === set(b) && (a.optionKey ?? '') === (b.optionKey ?? '');
}

export function proposeSolution(input: { frame: QuestionFrame; evidence: EvidenceItem[] }): Solution {
  return solve(input.frame, input.evidence, [`Read the ${input.evidence.length} record(s) retrieved during the reasoning.`]).solution;
}

export function correctSolution(input: { frame: QuestionFrame; candidate: SolutionView; suggestion: string | null; retrieved: EvidenceItem[] }): Solution {
  const lead = input.suggestion ? [`Suggestion considered: ${input.suggestion}`] : [];
  const { solution } = solve(input.frame, union(input.candidate.evidence, input.retrieved), lead);
  const from = input.retrieved.length
    ? `the candidate's evidence and ${input.retrieved.length} record(s) retrieved while revising`
    : "the candidate's own evidence";
  const verdict = sameAnswer(solution, input.candidate.solution)
    ? `Re-derived from ${from}: the same answer.`
    : `Re-derived from ${from}: ${solution.abstain ? 'it supports no answer' : `it supports ${solution.answer}`}, not ${input.candidate.solution.abstain ? 'an abstention' : input.candidate.solution.answer}.`;
  return { ...solution, rationale: `${verdict} ${solution.rationale}` };
}

/** HSR: keep a sound anchor; otherwise repair it with the references' evidence and what the refiner's reasoning retrieved. */
export function refineSolution(input: { frame: QuestionFrame; anchor: SolutionView; references: SolutionView[]; retrieved: EvidenceItem[] }): Solution {
  const own = solve(input.frame, input.anchor.evidence, []);
  const check = checkAnswer(own.u, own.result, bundleOf(input.anchor.evidence));
  if (check.stop && sameAnswer(own.solution, input.anchor.solution)) {
    return {
      ...input.anchor.solution,
      rationale: `The anchor's answer follows from its evidence for every constraint; no repair needed. ${input.anchor.solution.rationale}`,
    };
  }
  const pool = union(input.anchor.evidence, ...input.references.map((r) => r.evidence), input.retrieved);
  const { solution } = solve(input.frame, pool, [`Weak point of the anchor: ${check.reason}.`]);
  const cited = new Set(solution.claims.flatMap((c) => c.evidenceIds));
  const fresh = (list: EvidenceItem[]) => list.some((e) => cited.has(e.id) && !input.anchor.evidence.some((a) => a.id === e.id));
  const helpers = [
    ...input.references.flatMap((r, i) => (fresh(r.evidence) ? [`Student ${i + 1}`] : [])),
    ...(fresh(input.retrieved) ? ['the retrieval during this refinement'] : []),
  ];
  const repair = helpers.length
    ? `Logic completion with evidence from ${helpers.join(', ')}.`
    : 'Neither the references nor retrieval add evidence that repairs it.';
  return { ...solution, rationale: `${repair} ${solution.rationale}` };
}

/** QAIR's evaluator, programmatic: does the stated answer follow from the cited evidence, for every constraint? */
export function evaluateSolution(input: { frame: QuestionFrame; candidate: SolutionView }): {
  logic: number;
  answer: number;
  explanation: number;
  suggestion: string;
} {
  const { solution: derived, result, u } = solve(input.frame, input.candidate.evidence, []);
  const check = checkAnswer(u, result, bundleOf(input.candidate.evidence));
  const s = input.candidate.solution;
  if (s.abstain) {
    return {
      logic: derived.abstain ? 3 : 1,
      answer: 0,
      explanation: s.rationale.trim() ? 2 : 0,
      suggestion: derived.abstain ? `Find the missing facts: ${check.missing[0] ?? check.reason}` : `The evidence supports an answer: ${derived.answer}`,
    };
  }
  const follows = sameAnswer(s, derived);
  const grounded = s.claims.length ? s.claims.filter((c) => c.evidenceIds.length).length / s.claims.length : 0;
  return {
    logic: follows ? 5 : 2,
    answer: follows ? (check.sufficient && check.consistent ? 5 : 3) : 1,
    explanation: Math.round(grounded * 50) / 10,
    suggestion: !follows
      ? `State the answer the evidence supports: ${derived.abstain ? 'none (abstain)' : derived.answer}`
      : check.stop
        ? 'None: the answer follows from the evidence for every constraint.'
        : `Cover the gap: ${check.missing[0] ?? check.reason}`,
  };
}

/** The ranker: highest q; ties go to an answer over an abstention, then to more cited evidence, then to the earlier candidate. */
export function rankCandidates(input: { candidates: { label: string; q: number; view: SolutionView }[] }): { best: string; reason: string } {
  const cited = (v: SolutionView) => new Set(v.solution.claims.flatMap((c) => c.evidenceIds)).size;
  const ranked = [...input.candidates].sort(
    (a, b) => b.q - a.q || Number(a.view.solution.abstain) - Number(b.view.solution.abstain) || cited(b.view) - cited(a.view),
  );
  const best = ranked[0];
  return {
    best: best.label,
    reason: `highest quality q = ${best.q.toFixed(2)}${ranked.length > 1 ? ` (next: ${ranked[1].label}, q = ${ranked[1].q.toFixed(2)})` : ''}, ${cited(best.view)} evidence record(s) cited`,
  };
}
