/**
 * The offline engine's answer from the evidence lines a role was shown, and
 * nothing else: the rule kit's set operations over the KG lines
 * (answerFromEvidence) and, for a yes/no question the KG lines do not settle,
 * what the passages state. Parametric claims and profiles never answer.
 */

import { statedAnswer, type StatedAnswer } from '@/lib/llm/offline/passages';
import { answerFromEvidence, type ReasonResult } from '@/lib/llm/offline/reason';
import { solutionFromReasoning } from '@/lib/llm/offline/solution';
import { readingOf } from '@/lib/reading';
import type { QuestionReading } from '@/lib/llm/offline/types';
import { bundleOf, type EvidenceLine } from '../evidence';
import type { QuestionFrame } from '../frame';
import type { Solution } from '../templates';

export function understand(frame: QuestionFrame): QuestionReading {
  return readingOf(frame);
}

export interface Derivation {
  u: QuestionReading;
  result: ReasonResult;
  /** What the passages state, when they decided a yes/no question. */
  stated: StatedAnswer | null;
  solution: Solution;
}

const TEXT_KINDS = new Set(['passage', 'web']);

export function solveFromEvidence(frame: QuestionFrame, lines: EvidenceLine[]): Derivation {
  const u = understand(frame);
  const result = answerFromEvidence(u, bundleOf(lines));
  if (result.abstain && u.outputFormat === 'yesno') {
    const passages = lines.filter((l) => TEXT_KINDS.has(l.kind)).map((l) => ({ id: l.id, text: l.text }));
    const candidates = frame.entities.map((e) => ({ nodeId: e.nodeId, name: e.name, kind: e.kind, aliases: [e.mention] }));
    const stated = statedAnswer(u, passages, candidates);
    if (stated.decision !== 'maybe') return { u, result, stated, solution: fromPassages(result, stated, passages) };
  }
  return { u, result, stated: null, solution: solutionFromReasoning(u, result, frame.options) };
}

function fromPassages(result: ReasonResult, stated: StatedAnswer, passages: { id: string }[]): Solution {
  // Support ids are sentence spans "passageId:start-end"; the answer cites the passage lines.
  const ids = [...new Set(stated.supportIds.flatMap((s) => passages.filter((p) => s.startsWith(`${p.id}:`)).map((p) => p.id)))];
  return {
    answer: stated.decision,
    optionKey: null,
    items: [],
    count: null,
    abstain: false,
    rationale: `KG: ${result.reason}. Passages: ${stated.reason}.`,
    claims: [{ text: stated.reason, evidenceIds: ids }],
  };
}
