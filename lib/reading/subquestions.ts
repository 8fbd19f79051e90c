/**
 * A question's decomposition into hop questions in plain English, written from
 * its understanding: the first anchor's chain hop by hop, then one narrowing
 * question per further anchor ("Which of these genes are associated with
 * Crohn's disease?"). At most three, as ReGraM decomposes into 1–3 hops.
 */

import { kindPlural, metaedgeInfo } from '@/lib/llm/offline/metaedges';
import type { Anchor, Hop, QuestionReading } from '@/lib/llm/offline/types';

const MAX_SUBQUESTIONS = 3;

/** The hop's relation said with the far end as subject: "are treated by {x}", "bind {x}". */
export function clause(hop: Hop, x: string): string {
  const edge = hop.edges[0];
  const m = metaedgeInfo(edge.metaedge)!;
  // The hop starts at x; the subject of the clause sits at the other end.
  return (edge.fromEnd === 'source' ? m.targetClause : m.sourceClause).replace('{x}', x);
}

function negate(text: string): string {
  return text.startsWith('are ') ? `are not ${text.slice(4)}` : `do not ${text}`;
}

/** An anchor's whole chain as one clause about the answer: "are associated with diseases that are treated by metformin". */
function chainClause(anchor: Anchor): string {
  let x = anchor.entity.name;
  for (const hop of anchor.chain.slice(0, -1)) x = `${kindPlural(hop.to)} that ${clause(hop, x)}`;
  const last = clause(anchor.chain.at(-1)!, x);
  return anchor.negated ? negate(last) : last;
}

export function writeSubquestions(u: QuestionReading): string[] {
  if (u.propositions.length) {
    // A claim's hop names both ends, so both seed it and the pair's own edges decide it.
    return u.propositions.map((p) => `Is ${p.object.name} among the ${kindPlural(p.object.kind)} that ${clause(p.hop, p.subject.name)}?`);
  }
  const resolved = u.anchors.filter((a) => a.chain.length);
  if (!resolved.length || !u.answerKind) return [u.stem];
  // Start from an anchor that says what the answer is, not what it is not.
  const first = resolved.find((a) => !a.negated) ?? resolved[0];
  const rest = resolved.filter((a) => a !== first);
  const answers = kindPlural(u.answerKind);

  const questions = first.chain.map((hop, i) => {
    const x = i === 0 ? first.entity.name : `these ${kindPlural(hop.from)}`;
    const text = clause(hop, x);
    return `Which ${kindPlural(hop.to)} ${first.negated && i === first.chain.length - 1 ? negate(text) : text}?`;
  });
  const narrowing = rest.map(chainClause);
  if (questions.length + narrowing.length <= MAX_SUBQUESTIONS) {
    questions.push(...narrowing.map((c) => `Which of these ${answers} ${c}?`));
  } else if (narrowing.length) {
    questions.push(`Which of these ${answers} ${narrowing.join(' and ')}?`);
  }
  if (u.operator === 'count') questions.push(questions.pop()!.replace(/^Which/, 'How many'));
  return questions;
}
