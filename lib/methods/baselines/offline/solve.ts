/**
 * The offline engine's answer from the evidence lines a role was shown, and
 * nothing else: the rule kit's set operations over the KG lines
 * (answerFromEvidence) and, for a yes/no question the KG lines do not settle,
 * what the passages state. Parametric claims and profiles never answer.
 */

import { statedAnswer, type StatedAnswer } from '@/lib/llm/offline/passages';
import { answerFromEvidence, type ReasonResult } from '@/lib/llm/offline/reason';
import { normalise } from '@/lib/llm/offline/text';
import { understandQuestion } from '@/lib/llm/offline/understand';
import type { Understanding } from '@/lib/llm/offline/types';
import { bundleOf, type EvidenceLine } from '../evidence';
import type { QuestionFrame } from '../frame';
import type { Solution } from '../templates';

export function understand(frame: QuestionFrame): Understanding {
  return understandQuestion(frame.question, { links: frame.entities, options: frame.options ?? undefined, optionLinks: frame.optionLinks });
}

export interface Derivation {
  u: Understanding;
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
  return { u, result, stated: null, solution: fromReasoning(u, result, frame) };
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

export function abstention(reason: string, rationale: string[] = []): Solution {
  return { answer: '', optionKey: null, items: [], count: null, abstain: true, rationale: [...rationale, `Abstained: ${reason}.`].join(' '), claims: [] };
}

/** The evidence behind a chosen option: the answer it names, else (a count or a verdict) every answer behind the number. */
function optionSupport(u: Understanding, r: ReasonResult, letter: string): string[] {
  const option = u.options.find((o) => o.letter === letter);
  const named = option && r.answers.find((a) => normalise(option.text) === normalise(a.name) || option.links.some((l) => l.nodeId === a.nodeId || normalise(l.name) === normalise(a.name)));
  return named ? named.supportIds : [...new Set(r.answers.flatMap((a) => a.supportIds))];
}

/** The kit's derivation as a solution: option, count, verdict or entity list, each claim citing its evidence. */
function fromReasoning(u: Understanding, r: ReasonResult, frame: QuestionFrame): Solution {
  if (r.abstain) return abstention(r.reason, r.rationale);
  const rationale = r.rationale.join(' ');
  const top = r.answers[0];
  const base = { abstain: false, rationale, optionKey: null, items: [] as string[], count: null };
  if (r.chosenOption) {
    const text = frame.options?.[r.chosenOption] ?? r.chosenOption;
    return { ...base, answer: text, optionKey: r.chosenOption, claims: [{ text: `${r.chosenOption}. ${text}`, evidenceIds: optionSupport(u, r, r.chosenOption) }] };
  }
  if (r.count !== undefined) {
    const all = [...new Set(r.answers.flatMap((a) => a.supportIds))];
    return { ...base, answer: String(r.count), count: r.count, items: r.answers.map((a) => a.name), claims: [{ text: `${r.count} distinct ${u.answerKind ?? 'answers'}`, evidenceIds: all }] };
  }
  if (r.verdict) return { ...base, answer: r.verdict, claims: top ? [{ text: r.rationale.at(-1) ?? r.verdict, evidenceIds: top.supportIds }] : [] };
  const chosen = u.outputFormat === 'list' ? r.answers : r.answers.slice(0, 1);
  return {
    ...base,
    answer: chosen.map((a) => a.name).join('; '),
    items: u.outputFormat === 'list' ? chosen.map((a) => a.name) : [],
    claims: chosen.map((a) => ({ text: a.name, evidenceIds: a.supportIds })),
  };
}
