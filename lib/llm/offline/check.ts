/**
 * X-R2's check step without a model: is the evidence enough for every
 * constraint of the question (sufficient), and does the answer agree with the
 * evidence and the question (consistent)? `missing` names each gap in words
 * the next decomposition can act on.
 */

import { EvidenceGraph, type EvidenceBundle, type EvidenceSet } from './evidence';
import { sameKind } from './metaedges';
import { questionSet, walkChain, type ReasonResult } from './reason';
import type { QuestionReading } from './types';

export interface CheckVerdict {
  stop: boolean;
  sufficient: boolean;
  consistent: boolean;
  reason: string;
  missing: string[];
}

function relation(edges: { metaedge: string }[]): string {
  return edges.map((e) => e.metaedge).join('|');
}

/** Gaps between what the question needs and what the evidence holds. */
function missingEvidence(u: QuestionReading, graph: EvidenceGraph): string[] {
  const missing: string[] = [];
  // A claim between two linked entities (a yes/no plan) anchors the question as well as a constraint does.
  if (!u.anchors.length && !u.propositions.length) missing.push('no linked entity anchors the question');
  if (!u.answerKind && !u.propositions.length) missing.push('the kind of the answer is not determined');
  for (const p of u.propositions) {
    if (graph.connecting(p.subject.nodeId, p.object.nodeId, p.hop.edges).length || graph.checkedAbsent(p.subject.nodeId, p.object.nodeId, p.hop.edges).length)
      continue;
    // Without the pair's own edges read, a neighbourhood is a cut list: it can state the claim, never refute it.
    missing.push(`the edges between ${p.subject.name} and ${p.object.name} with relation ${relation(p.hop.edges)} were not read`);
  }
  if (u.propositions.length) return missing;
  for (const anchor of u.anchors) {
    if (!anchor.chain.length) {
      missing.push(`no relation links anchor ${anchor.entity.name} (${anchor.entity.kind}) to the ${u.answerKind ?? 'answer'}`);
      continue;
    }
    const walk = walkChain(graph, anchor, true);
    if (walk.emptyAt === null) continue;
    const hop = anchor.chain[walk.emptyAt];
    missing.push(
      walk.emptyAt === 0
        ? `no KG evidence for anchor ${anchor.entity.name} with relation ${relation(hop.edges)}`
        : `no KG evidence for hop ${walk.emptyAt + 1} (${relation(hop.edges)}: ${hop.from} → ${hop.to}) on the chain from ${anchor.entity.name}`,
    );
  }
  return missing;
}

/** Ways the answer disagrees with the evidence or the question. */
function inconsistencies(u: QuestionReading, answer: ReasonResult, graph: EvidenceGraph, set: EvidenceSet | null): string[] {
  const problems: string[] = [];
  const walks = u.propositions.length || answer.testedOptions ? [] : u.anchors.filter((a) => a.chain.length).map((a) => walkChain(graph, a, true));
  for (const a of answer.answers) {
    if (!a.supportIds.length) problems.push(`answer ${a.name} cites no evidence`);
    if (u.operator === 'yesno' || answer.testedOptions) continue;
    if (u.answerKind && !sameKind(a.kind, u.answerKind)) problems.push(`answer ${a.name} is a ${a.kind}, not a ${u.answerKind}`);
    // A member of the question's complete answer set meets every chain whole, however few of its edges the evidence carries.
    if (set && a.supportIds.includes(set.id)) continue;
    for (const w of walks) {
      const reached = w.reach.has(a.nodeId);
      if (reached === w.anchor.negated) problems.push(`answer ${a.name} ${reached ? 'is' : 'is not'} reached by ${w.label}`);
    }
  }
  if (answer.count !== undefined && answer.count !== answer.answers.length) {
    problems.push(`count ${answer.count} differs from the ${answer.answers.length} distinct answers behind it`);
  }
  if (answer.verdict === 'yes' && u.operator === 'yesno' && !answer.answers.length) problems.push('a yes with no supporting answer');
  if (answer.chosenOption && !u.options.some((o) => o.letter === answer.chosenOption)) problems.push(`option ${answer.chosenOption} does not exist`);
  return problems;
}

/** What the check found the answer to be: a chosen option is one letter, whatever number of nodes the evidence reached. */
function supported(answer: ReasonResult): string {
  if (answer.chosenOption) return `option ${answer.chosenOption} follows from it`;
  const n = answer.answers.length;
  return `the answer follows from it (${n} answer${n === 1 ? '' : 's'})`;
}

export function checkAnswer(u: QuestionReading, answer: ReasonResult, evidence: EvidenceBundle): CheckVerdict {
  const graph = new EvidenceGraph(evidence);
  // An option chosen by testing the options against the stem's entities rests on the edges that join them, not on a chain of the reading.
  const tested = answer.testedOptions && !answer.abstain;
  const missing = tested ? [] : missingEvidence(u, graph);
  const problems = answer.abstain ? [] : inconsistencies(u, answer, graph, questionSet(u, evidence.sets ?? []));
  const sufficient = !answer.abstain && !missing.length;
  const consistent = !problems.length;
  const reason = answer.abstain ? `abstained: ${answer.reason}` : (problems[0] ?? missing[0] ?? `every constraint has evidence and ${supported(answer)}`);
  return { stop: sufficient && consistent, sufficient, consistent, reason, missing };
}
