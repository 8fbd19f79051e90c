import { explainAnswer, type AnswerExplanation } from '@/lib/runs/answer-explanation';
import type { EvidenceView, RunView, StepSummary } from '@/lib/runs/view';

/**
 * What a run page's first screen shows, taken from the run's view (pure): the
 * header, the answer box and the evidence the answer cites. The page's first
 * response carries only this (components/runs/load.ts); the whole view (the
 * trace, every evidence record, the graph's elements, the model calls) is
 * fetched after hydration. Once it has come, the first screen is rebuilt from
 * it by this same function, so nothing on it moves or changes.
 */

/** The run's fields the first screen reads as they are (not the trace, the evidence, the calls or the graph's hypotheses). */
export type RunBase = Omit<RunView, 'steps' | 'evidence' | 'calls' | 'rejectedHypotheses'>;

/** A record as the first screen lists it: its text and where it came from (its data and scores are in the view). */
export type ListedRecord = Omit<EvidenceView, 'data' | 'scores'>;

export interface RunHead extends RunBase {
  /** The records the first screen lists: those the answer cites, or (it cites none) the first selected ones. */
  evidence: ListedRecord[];
  /** The steps that recorded them (a record links to its step). */
  steps: StepSummary[];
  /** Of the whole run: every evidence record, and those a method used. */
  evidenceCount: number;
  selectedCount: number;
  /** Why the answer is what it is, read from the whole trace. */
  explanation: AnswerExplanation;
}

/** Selected records listed when the answer cites none (the rest are in the full evidence list). */
export const GIVEN_SHOWN = 30;

/** The evidence ids the answer cites: in its claims, then cited beside them. */
export function citedIds(answer: RunView['answer']): { inClaims: Set<string>; alsoCited: string[] } {
  const inClaims = new Set((answer?.claims ?? []).flatMap((c) => c.evidenceIds));
  return { inClaims, alsoCited: (answer?.evidenceIds ?? []).filter((id) => !inClaims.has(id)) };
}

export function firstScreenOf(view: RunView): RunHead {
  const { steps, evidence, calls: _c, rejectedHypotheses: _r, ...base } = view;
  const { inClaims, alsoCited } = citedIds(view.answer);
  const cited = new Set([...inClaims, ...alsoCited]);
  const selected = evidence.filter((e) => e.selected);
  const listed = cited.size ? evidence.filter((e) => cited.has(e.id)) : view.answer?.claims.length ? [] : selected.slice(0, GIVEN_SHOWN);
  const records = listed.map(({ data: _d, scores: _s, ...record }) => record);
  const listedSteps = new Set(listed.flatMap((e) => (e.stepId ? [e.stepId] : [])));
  return {
    ...base,
    evidence: records,
    steps: steps.filter((s) => listedSteps.has(s.id)),
    evidenceCount: evidence.length,
    selectedCount: selected.length,
    explanation: explainAnswer({
      method: view.method,
      status: view.status,
      question: view.question,
      answerType: view.input.answerType,
      answer: view.answer,
      switches: view.config?.switches ?? null,
      params: view.config?.params ?? null,
      seeds: view.seeds,
      steps,
      evidence,
    }),
  };
}
