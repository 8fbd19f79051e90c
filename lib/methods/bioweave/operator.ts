import { checkAnswer, type CheckVerdict } from '@/lib/llm/offline/check';
import { EvidenceGraph, type EvidenceBundle } from '@/lib/llm/offline/evidence';
import { reverseHop } from '@/lib/reading/attach';
import { statedAnswer, type StatedAnswer } from '@/lib/llm/offline/passages';
import { answerFromEvidence, walkChain, type ReasonResult } from '@/lib/llm/offline/reason';
import type { QuestionReading } from '@/lib/llm/offline/types';
import { understandingOf, type QuestionFrame } from './frame';
import { bundleOf, textPassages, type RefinedGraph } from './graph';
import type { Plan } from './plan';

/**
 * SatisfyOperator and BacktraceMissingHop, programmatic in both backends: the
 * kit's set operations run over the refined graph along the plan's hops. The
 * offline answer role reads the same derivation, so what the check accepts is
 * what the offline engine answers.
 */

/** The hop id used when the question has no typed hop: its claim as a whole (PubMedQA-style). */
export const WHOLE_QUESTION = 'question';

export interface Derivation {
  u: QuestionReading;
  result: ReasonResult;
  verdict: CheckVerdict;
  /** Yes/no read from the text units, when the KG does not decide the question. */
  stated: StatedAnswer | null;
  /** The refined graph as the kit's evidence. */
  bundle: EvidenceBundle;
}

export function derive(plan: Plan, frame: QuestionFrame, graph: RefinedGraph): Derivation {
  const u = understandingOf(plan, frame);
  const bundle = bundleOf(graph);
  const result = answerFromEvidence(u, bundle);
  const verdict = checkAnswer(u, result, bundle);
  const candidates = graph.nodes.map((n) => ({ nodeId: n.nodeId, name: n.name, kind: n.kind, aliases: n.surfaces }));
  const stated = plan.answerType === 'yes_no' && result.abstain ? statedAnswer(u, textPassages(graph), candidates) : null;
  return { u, result, verdict, stated, bundle };
}

export interface OperatorCheck {
  satisfied: boolean;
  reason: string;
  /** Gaps in words (the kit's check). */
  missing: string[];
  /** BacktraceMissingHop: hops to repair, most likely first. */
  missingHops: string[];
  derivation: string[];
  answers: { nodeId: string; name: string; supportIds: string[] }[];
  count: number | null;
  verdict: 'yes' | 'no' | null;
  stated: StatedAnswer | null;
}

/**
 * `unfollowed`: constraints of the question the plan could not follow
 * (validatePlan). While any is, the operator is not satisfied, however well the
 * followed ones are covered: an intersection over one side is not the answer.
 */
export function checkOperator(plan: Plan, frame: QuestionFrame, graph: RefinedGraph, unfollowed: string[] = []): OperatorCheck {
  const { u, result, verdict, stated, bundle } = derive(plan, frame, graph);
  const typed = plan.constraints.length > 0 || plan.claims.length > 0;
  const fromText = !!stated && stated.decision !== 'maybe';
  // An MCQ decided by testing its options against the stem's entities is met by the edges that join them, typed hop or not.
  const met = ((typed || !!result.testedOptions) && verdict.stop) || fromText;
  const satisfied = met && !unfollowed.length;
  const checked = fromText
    ? `the text units state ${stated!.decision}: ${stated!.reason}`
    : typed || result.testedOptions
      ? verdict.reason
      : 'the plan has no typed hop and no text unit states the claim';
  const reason = unfollowed.length ? `the plan could not follow ${unfollowed.join('; ')}, so no evidence meets it; of the rest: ${checked}` : checked;
  return {
    satisfied,
    reason,
    missing: [...unfollowed, ...verdict.missing],
    // An unfollowed constraint has no hop to retry: only the question's text can still be searched for it.
    missingHops: satisfied ? [] : met ? [WHOLE_QUESTION] : backtrace(plan, u, bundle),
    derivation: [...result.rationale, ...(stated ? [`text: ${stated.reason}`] : [])],
    answers: result.answers.map((a) => ({ nodeId: a.nodeId, name: a.name, supportIds: a.supportIds })),
    count: result.count ?? null,
    verdict: fromText ? (stated!.decision as 'yes' | 'no') : (result.verdict ?? null),
    stated,
  };
}

/**
 * The hop whose walk comes up empty is the missing one; when every walk
 * reaches something but the constraints meet nowhere, each constraint's last
 * hop is a candidate, the thinnest first.
 */
function backtrace(plan: Plan, u: QuestionReading, bundle: EvidenceBundle): string[] {
  const evidence = new EvidenceGraph(bundle);
  const empty: string[] = [];
  const thin: { id: string; reached: number }[] = [];
  // A validated plan's constraints all start at linked entities: anchors and constraints align one to one.
  for (const [i, anchor] of u.anchors.entries()) {
    const constraint = plan.constraints[i];
    const walk = walkChain(evidence, anchor, true);
    if (walk.emptyAt !== null) empty.push(constraint.hops[walk.emptyAt].id);
    else thin.push({ id: constraint.hops.at(-1)!.id, reached: walk.reach.size });
  }
  for (const [i, p] of u.propositions.entries()) {
    if (!evidence.touches(p.subject.nodeId, p.hop.edges) && !evidence.touches(p.object.nodeId, reverseHop(p.hop).edges)) empty.push(plan.claims[i].hop.id);
  }
  if (empty.length) return empty;
  if (thin.length) return thin.sort((a, b) => a.reached - b.reached).map((t) => t.id);
  return [WHOLE_QUESTION];
}
