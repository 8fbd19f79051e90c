import { normaliseAnswer } from '@/lib/eval/normalise';
import type { KgNode } from '@/lib/kg';
import type { Instance } from './instance';
import { adjacentToAll, similarNodes } from '@/lib/eval/store/generation';

export const DISTRACTORS_PER_QUESTION = 4;
/** Candidates read per question: enough to survive the filters below. */
const CANDIDATES = 40;

/**
 * MCQ distractors (BioMedHop: type-compatible, lexically close): nodes of the
 * answer's kind that take part in the same relation, closest in name length.
 * None is a valid answer: not in the pattern's full answer set, not joined by
 * any edge to all of the question's anchors, not named in the question, and
 * not spelled like the answer or one of its aliases.
 */
export async function pickDistractors(instance: Instance, answerAliases: string[], seed: string): Promise<KgNode[]> {
  const answer = instance.answers[0];
  const candidates = await similarNodes({
    kind: answer.kind,
    metaedge: instance.answerRelation,
    nameLength: answer.name.length,
    excludeIds: instance.goldGraph.nodes.map((n) => n.id),
    seed,
    limit: CANDIDATES,
  });
  const ambiguous = await adjacentToAll(
    candidates.map((c) => c.id),
    instance.guardIds,
  );
  const answerIds = new Set(instance.answers.map((a) => a.id));
  const spellings = new Set([answer.name, ...answerAliases].map(normaliseAnswer));
  const picked: KgNode[] = [];
  for (const c of candidates) {
    const spelling = normaliseAnswer(c.name);
    if (answerIds.has(c.id) || ambiguous.has(c.id) || spellings.has(spelling)) continue;
    spellings.add(spelling);
    picked.push(c);
    if (picked.length === DISTRACTORS_PER_QUESTION) break;
  }
  return picked;
}
