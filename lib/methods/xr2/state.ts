import type { EvidenceLine } from '../baselines/evidence';
import type { CheckOutput, PreviousStep, ReasonOutput } from './templates';

/** What one iteration decides to do next. */
export type Action = 'stop' | 'stop: nothing new to find' | 'stop: T_max reached' | 're-decompose';

/** The loop's state between iterations; plain JSON, so a resumed run replays finished iterations. */
export interface LoopState {
  /** A_{t−1} with the check that judged it. */
  previous: PreviousStep | null;
  /** KG lines shown in earlier steps: carried forward as findings, never re-ranked. */
  established: EvidenceLine[];
  /** Complete answer sets shown so far: every later step shows them again, uncapped (an intersection or count needs the whole set). */
  sets?: EvidenceLine[];
  /** KG edges already put in a prompt, so later steps examine further candidates. */
  shownEdges: number[];
  /** References of every line any reason call has seen. */
  seenRefs: string[];
  action: Action | null;
  /** Lines the last answer was given, so its names can be tied to node ids. */
  lastLines: EvidenceLine[];
}

export const START: LoopState = { previous: null, established: [], sets: [], shownEdges: [], seenRefs: [], action: null, lastLines: [] };

/**
 * The "established" block: earlier steps' KG findings, at most `cap` lines, the
 * lines the previous answer cited first, then the most recent.
 */
export function establishedLines(state: LoopState, cap: number): { lines: EvidenceLine[]; omitted: number } {
  const cited = new Set(state.previous?.answer.evidenceIds ?? []);
  const byPriority = [...state.established.filter((l) => cited.has(l.id)), ...[...state.established].reverse().filter((l) => !cited.has(l.id))];
  const lines = byPriority.slice(0, cap);
  const kept = new Set(lines.map((l) => l.id));
  return { lines: state.established.filter((l) => kept.has(l.id)), omitted: state.established.length - lines.length };
}

export function isDone(state: LoopState): boolean {
  return state.action !== null && state.action !== 're-decompose';
}

export function actionOf(verdict: CheckOutput, t: number, tMax: number): Action {
  if (verdict.stop) return verdict.sufficient && verdict.consistent ? 'stop' : 'stop: nothing new to find';
  return t >= tMax ? 'stop: T_max reached' : 're-decompose';
}

/** The state after iteration t. */
export function advance(
  state: LoopState,
  step: {
    t: number;
    current: string;
    kgLines: EvidenceLine[];
    sets: EvidenceLine[];
    lines: EvidenceLine[];
    answer: ReasonOutput;
    verdict: CheckOutput;
    unexamined: number;
    action: Action;
  },
): LoopState {
  return {
    previous: { t: step.t, current: step.current, answer: step.answer, check: step.verdict, unexamined: step.unexamined },
    established: [...state.established, ...step.kgLines],
    sets: step.sets,
    shownEdges: [...new Set([...state.shownEdges, ...step.kgLines.flatMap((l) => l.triples.map((t) => t.edgeId))])],
    seenRefs: [...new Set([...state.seenRefs, ...step.lines.map((l) => l.ref)])],
    action: step.action,
    lastLines: step.lines,
  };
}
