import { COUNT_RANGE } from './families/count';
import type { Instance } from './instance';

/**
 * BioMedHop's ValidateGraphAnswer, applied to every instance before it is kept:
 * the answer set (computed by the family over the whole KG) has the right type
 * and size, and the gold graph is a connected witness of it. Returns why an
 * instance fails, or null.
 */
export function rejectionReason(instance: Instance): string | null {
  const { answers, goldGraph, pattern } = instance;
  if (!answers.length) return 'no answer';
  if ('answerKind' in pattern && answers.some((a) => a.kind !== pattern.answerKind)) return 'an answer of the wrong kind';
  if (instance.family === 'count') {
    if (answers.length < COUNT_RANGE.min || answers.length > COUNT_RANGE.max) return `count ${answers.length} outside ${COUNT_RANGE.min}–${COUNT_RANGE.max}`;
  } else if (answers.length !== 1) return `${answers.length} answers where one is required`;

  const roles = new Map(goldGraph.nodes.map((n) => [n.id, n.role]));
  if (answers.some((a) => roles.get(a.id) !== 'answer')) return 'an answer missing from the gold graph';
  if (goldGraph.edges.some((e) => !roles.has(e.sourceId) || !roles.has(e.targetId))) return 'a gold edge leaves the gold graph';
  const touched = new Set(goldGraph.edges.flatMap((e) => [e.sourceId, e.targetId]));
  if (goldGraph.nodes.some((n) => !touched.has(n.id))) return 'a gold node without a gold edge';
  return null;
}
