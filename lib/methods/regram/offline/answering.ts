/**
 * Offline hop answers and final synthesis: the rule kit's set operations
 * (answerFromEvidence) over the facts in the role's input and nothing else.
 * LLM-GUESS has nothing to go on: the engine has no general knowledge.
 */

import { answerFromEvidence, type ReasonedAnswer, type ReasonResult } from '@/lib/llm/offline/reason';
import type { QuestionReading } from '@/lib/llm/offline/types';
import { solutionFromReasoning } from '@/lib/llm/offline/solution';
import { GENERAL_KNOWLEDGE } from '../boundary';
import type { AbsenceFact, EvidenceMapEntry, Fact, FinalAnswer, HopAnswer, HopQuestion, QuestionFrame } from '../templates';
import { bundleOf, readHop, understandFrame } from './reading';
import { bundleOf as linesBundle, type EvidenceLine } from '../../baselines/evidence';

function abstainHop(rationale: string[]): HopAnswer {
  return { answer: '', items: [], evidenceIds: [], abstain: true, rationale: rationale.join(' ') };
}

/** KG-STRICT and HYBRID: the hop question answered from the facts (and accepted hypotheses) given. */
export function answerHopFromFacts(input: { hop: HopQuestion; facts: Fact[]; hypotheses?: Fact[]; absences?: AbsenceFact[] }): HopAnswer {
  const { readings, keep, note } = readHop(input.hop);
  const bundle = bundleOf([...input.facts, ...(input.hypotheses ?? [])], input.absences);
  const results = readings.map((u) => answerFromEvidence(u, bundle));
  const rationale = [...(note ? [`Read: ${note}.`] : []), ...results.flatMap((r) => r.rationale)];
  const answered = results.filter((r) => !r.abstain);
  if (!answered.length) return abstainHop([...rationale, `Abstained: ${results[0].reason}.`]);
  const verdict = answered.length === 1 ? answered[0].verdict : undefined;
  const pooled = new Map<string, ReasonedAnswer>();
  for (const a of answered.flatMap((r) => r.answers)) {
    const seen = pooled.get(a.nodeId);
    pooled.set(
      a.nodeId,
      seen ? { ...seen, supportIds: [...new Set([...seen.supportIds, ...a.supportIds])], supportCount: seen.supportCount + a.supportCount } : a,
    );
  }
  const answers = [...pooled.values()]
    .filter((a) => !keep || keep.has(a.nodeId))
    .sort((a, b) => b.supportCount - a.supportCount || a.name.localeCompare(b.name));
  if (keep) rationale.push(`Kept ${answers.length} of ${pooled.size} among the earlier hop's answers.`);
  if (!answers.length && !verdict) return abstainHop([...rationale, "Abstained: no answer the facts give is among the earlier hop's answers."]);
  const names = answers.map((a) => a.name);
  return {
    answer: verdict ?? names.join('; '),
    items: names,
    evidenceIds: [...new Set([...answers.flatMap((a) => a.supportIds), ...answered.flatMap((r) => r.verdictIds ?? [])])],
    abstain: false,
    rationale: rationale.join(' '),
  };
}

/** LLM-GUESS: there is no general knowledge to answer from, and the engine says so. */
export function guessWithoutKnowledge(): HopAnswer {
  return abstainHop([
    `${GENERAL_KNOWLEDGE}: none; the offline engine (no language model) has no general knowledge, so a hop without region facts stays unanswered.`,
  ]);
}

/** The final answer: the whole question over every triple of the evidence map; the last hop's answer when the whole does not derive. */
export function synthesizeFromMap(input: { frame: QuestionFrame; map: EvidenceMapEntry[]; answerSet?: EvidenceLine[] }): FinalAnswer {
  const u = understandFrame(input.frame);
  const facts = input.map.flatMap((e) => [...e.facts, ...e.hypotheses]);
  const lead = input.map.map((e) => `Hop ${e.hop} (${e.mode}): ${e.abstained ? 'no answer' : e.answer}.`);
  const own = bundleOf(
    facts,
    input.map.flatMap((e) => e.absences ?? []),
  );
  // Aid `answer-set`: the complete answer set beside the map, read like any method's (its members, the edges behind them).
  const aid = linesBundle(input.answerSet ?? []);
  const r = answerFromEvidence(u, {
    triples: [...own.triples, ...aid.triples],
    paths: aid.paths,
    sets: aid.sets,
    checks: [...(own.checks ?? []), ...(aid.checks ?? [])],
  });
  if (!r.abstain) return solutionFromReasoning(u, r, input.frame.options, lead);
  const last = input.map.at(-1);
  if (last && !last.abstained && last.items.length && !input.frame.options) {
    const support = (nodeId: string) =>
      [...last.facts, ...last.hypotheses].filter((f) => f.triple.sourceId === nodeId || f.triple.targetId === nodeId).map((f) => f.id);
    return {
      answer: last.items.map((i) => i.name).join('; '),
      optionKey: null,
      items: last.items.map((i) => i.name),
      count: null,
      abstain: false,
      rationale: [...lead, ...r.rationale, `The question as a whole does not derive from the map (${r.reason}); the last hop's answer stands.`].join(' '),
      claims: last.items.map((i) => ({ text: i.name, evidenceIds: support(i.nodeId) })),
    };
  }
  const guessed = input.map.filter((e) => e.mode === 'LLM-GUESS').map((e) => e.hop);
  const why = guessed.length
    ? `${GENERAL_KNOWLEDGE}: none; hop ${guessed.join(', ')} found no region facts and the offline engine has no general knowledge`
    : r.reason;
  return {
    answer: '',
    optionKey: null,
    items: [],
    count: null,
    abstain: true,
    rationale: [...lead, ...r.rationale, `Abstained: ${why}.`].join(' '),
    claims: [],
  };
}
