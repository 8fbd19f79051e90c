import type { ReasonResult } from './reason';
import { normalise } from './text';
import type { QuestionReading } from './types';

/** The answer fields every method's answer schema shares. */
export interface DerivedSolution {
  answer: string;
  optionKey: string | null;
  items: string[];
  /** What the answer sets aside (a model's answer may name it; the rule kit's never lists it). */
  excluded?: string[];
  count: number | null;
  abstain: boolean;
  rationale: string;
  claims: { text: string; evidenceIds: string[] }[];
}

export function abstainedSolution(reason: string, rationale: string[] = []): DerivedSolution {
  return { answer: '', optionKey: null, items: [], count: null, abstain: true, rationale: [...rationale, `Abstained: ${reason}.`].join(' '), claims: [] };
}

/**
 * The rule kit's derivation as an answer: option, count, verdict or entities,
 * each claim citing the evidence it rests on. `lead` opens the rationale (a
 * method's own preamble, e.g. which hop or proposer).
 */
export function solutionFromReasoning(
  u: QuestionReading,
  r: ReasonResult,
  options: Record<string, string> | null | undefined,
  lead: string[] = [],
): DerivedSolution {
  if (r.abstain) return abstainedSolution(r.reason, [...lead, ...r.rationale]);
  const base = { abstain: false, rationale: [...lead, ...r.rationale].join(' '), optionKey: null, items: [] as string[], count: null };
  if (r.chosenOption) {
    // An option written inline has no options record: the reading holds its text.
    const text = options?.[r.chosenOption] ?? u.options.find((o) => o.letter === r.chosenOption)?.text ?? r.chosenOption;
    return {
      ...base,
      answer: text,
      optionKey: r.chosenOption,
      claims: [{ text: `${r.chosenOption}. ${text}`, evidenceIds: optionSupport(u, r, r.chosenOption) }],
    };
  }
  if (r.count !== undefined) {
    const all = [...new Set(r.answers.flatMap((a) => a.supportIds))];
    return {
      ...base,
      answer: String(r.count),
      count: r.count,
      items: r.answers.map((a) => a.name),
      claims: [{ text: `${r.count} distinct ${u.answerKind ?? 'answers'}`, evidenceIds: all }],
    };
  }
  const top = r.answers[0];
  if (r.verdict) {
    const ids = r.verdictIds ?? top?.supportIds ?? [];
    return { ...base, answer: r.verdict, claims: ids.length || top ? [{ text: r.rationale.at(-1) ?? r.verdict, evidenceIds: ids }] : [] };
  }
  const chosen = u.outputFormat === 'list' ? r.answers : r.answers.slice(0, 1);
  return {
    ...base,
    answer: chosen.map((a) => a.name).join('; '),
    items: chosen.map((a) => a.name),
    claims: chosen.map((a) => ({ text: a.name, evidenceIds: a.supportIds })),
  };
}

/** The evidence behind a chosen option: the answer it names, else (a count or a verdict) every answer behind the number. */
function optionSupport(u: QuestionReading, r: ReasonResult, letter: string): string[] {
  const option = u.options.find((o) => o.letter === letter);
  const named =
    option &&
    r.answers.find(
      (a) => normalise(option.text) === normalise(a.name) || option.links.some((l) => l.nodeId === a.nodeId || normalise(l.name) === normalise(a.name)),
    );
  return named ? named.supportIds : [...new Set(r.answers.flatMap((a) => a.supportIds))];
}
