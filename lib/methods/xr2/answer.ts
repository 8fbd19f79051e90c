import { normalise } from '@/lib/llm/offline/text';
import { withoutExcluded } from '@/lib/llm/templates/answer-fields';
import { nodeIdsFor } from '../answer';
import type { MethodAnswer } from '../types';
import type { LoopState } from './state';

const VERDICTS = new Set(['yes', 'no', 'maybe']);

/** The last A_t as the run's answer; its names are tied to KG node ids through the triples the loop was shown. */
export function toMethodAnswer(state: LoopState, iterations: number): MethodAnswer {
  const last = state.previous!;
  const a = last.answer;
  const verdict = a.answer.length === 1 && VERDICTS.has(normalise(a.answer[0]));
  const named = withoutExcluded(a.answer, a.excluded);
  const text = a.abstain ? '' : a.optionKey ? (a.answer[0] ?? a.optionKey) : a.count !== null ? String(a.count) : named.join('; ');
  const items = a.optionKey || verdict ? [] : named;
  const lines = [...state.established, ...state.lastLines];
  return {
    text,
    optionKey: a.optionKey,
    items,
    nodeIds: nodeIdsFor(
      items,
      lines.flatMap((l) => l.triples),
    ),
    count: a.count,
    abstained: a.abstain,
    evidenceIds: a.evidenceIds,
    claims: a.claims,
    rationale: a.rationale,
    extra: { iterations, action: state.action, check: last.check, stepQuestion: last.current },
  };
}
