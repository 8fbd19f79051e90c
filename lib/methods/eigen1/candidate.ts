import type { EvidenceItem, Solution, SolutionView } from './templates';
import { distinctBy } from '@/lib/base/distinct';

/** One version of a candidate solution: its lineage id, its proposer line, and the evidence it may cite. */
export interface Candidate {
  id: string;
  lane: number;
  solution: Solution;
  evidence: EvidenceItem[];
}

/**
 * A role's solution as the method keeps it: citations limited to the
 * candidate's evidence (a model may cite ids it was never shown), and an empty
 * answer counted as an abstention.
 */
export function admit(solution: Solution, evidence: EvidenceItem[]): Solution {
  const known = new Set(evidence.map((e) => e.id));
  const claims = solution.claims.map((c) => ({ text: c.text, evidenceIds: c.evidenceIds.filter((id) => known.has(id)) }));
  const abstain = solution.abstain || !solution.answer.trim();
  return { ...solution, abstain, answer: abstain ? '' : solution.answer.trim(), claims: abstain ? [] : claims };
}

export function viewOf(c: Candidate): SolutionView {
  return { solution: c.solution, evidence: c.evidence };
}

/** Evidence lists merged by id, in first-seen order (distinctBy). */
export function union(...lists: EvidenceItem[][]): EvidenceItem[] {
  return distinctBy(lists.flat(), (e) => e.id);
}

/** Evidence ids the solution's claims cite. */
export function citedIds(solution: Solution): string[] {
  return [...new Set(solution.claims.flatMap((c) => c.evidenceIds))];
}
