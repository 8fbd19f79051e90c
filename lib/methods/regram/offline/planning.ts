/**
 * Offline domain typing and decomposition, from the rule kit's reading of the
 * question: its relations pick the domain (domainOf), its anchors' chains give
 * the hop questions (writeSubquestions).
 */

import { domainOf } from '@/lib/llm/offline/domain';
import type { QuestionFrame } from '../templates';
import { understandFrame } from './reading';

export function classifyDomain(input: { frame: QuestionFrame }) {
  const u = understandFrame(input.frame);
  const category = domainOf(u);
  const relations = [...new Set([...u.anchors.flatMap((a) => a.chain), ...u.propositions.map((p) => p.hop)].map((h) => h.edges[0]?.metaedge).filter(Boolean))];
  const reason = relations.length
    ? `the question's relations (${relations.join(', ')}) fall in ${category}`
    : `no relation was read; the answer kind (${u.answerKind ?? 'unknown'}) gives ${category}`;
  return { category, reason };
}

/** Hop questions from the reading; none when the question could not be read, so the controller falls back to one hop. */
export function decomposeQuestion(input: { frame: QuestionFrame; maxHops: number }) {
  const u = understandFrame(input.frame);
  if (u.operator === 'unknown' && !u.propositions.length)
    return { analysis: `The question could not be read: ${u.notes.join('; ') || 'no anchor resolved'}.`, hops: [] };
  const anchors = u.anchors.map((a) => `${a.entity.name} via ${a.chain.map((h) => h.edges[0].metaedge).join(' → ') || '?'}`);
  const analysis = `A ${u.operator} question asking for ${u.answerKind ?? 'a yes/no verdict'}; anchors: ${anchors.join('; ') || 'none'}.`;
  // A hop that says "these …" works on the previous hop's answers.
  return { analysis, hops: u.subquestions.map((question, i) => ({ question, usesHop: i > 0 && /\bthese\b/i.test(question) ? i : null })) };
}
