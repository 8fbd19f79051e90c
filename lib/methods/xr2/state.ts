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
  /** Ids of established lines any earlier answer cited: a later step relies on them, so they are shown whatever the cap. */
  cited?: string[];
  /** The relations the last step asked (R_t at its entities): the next decomposition is shown every finding of them. */
  asked?: StepRelation[];
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

export const START: LoopState = { previous: null, established: [], cited: [], asked: [], sets: [], shownEdges: [], seenRefs: [], action: null, lastLines: [] };

/** One relation a step asked: R_t's metaedges at one step entity. */
export interface StepRelation {
  nodeId: string;
  metaedges: string[];
}

/**
 * The "established" block: earlier steps' KG findings. What a step relies on is
 * always shown, so it can be cited: every line an earlier answer cited, and every
 * finding of the relations the step asks (`asked`: a count or list paged over
 * several steps is whole); the cap bounds the rest, the most recent first.
 */
export function establishedLines(state: LoopState, cap: number, asked: StepRelation[] = state.asked ?? []): { lines: EvidenceLine[]; omitted: number } {
  const cited = new Set([...(state.cited ?? []), ...citedBy(state.previous?.answer)]);
  const relied = (l: EvidenceLine) =>
    cited.has(l.id) || l.triples.some((t) => asked.some((r) => r.metaedges.includes(t.metaedge) && (t.sourceId === r.nodeId || t.targetId === r.nodeId)));
  const rest = [...state.established].reverse().filter((l) => !relied(l));
  const lines = [...state.established.filter(relied), ...rest.slice(0, cap)];
  const kept = new Set(lines.map((l) => l.id));
  return { lines: state.established.filter((l) => kept.has(l.id)), omitted: state.established.length - lines.length };
}

/** Every id an answer cites, in its evidence list and its claims. */
function citedBy(answer: ReasonOutput | undefined): string[] {
  return answer ? [...answer.evidenceIds, ...answer.claims.flatMap((c) => c.evidenceIds)] : [];
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
    asked: StepRelation[];
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
    cited: [...new Set([...(state.cited ?? []), ...citedBy(step.answer)])],
    asked: step.asked,
    sets: step.sets,
    shownEdges: [...new Set([...state.shownEdges, ...step.kgLines.flatMap((l) => l.triples.map((t) => t.edgeId))])],
    seenRefs: [...new Set([...state.seenRefs, ...step.lines.map((l) => l.ref)])],
    action: step.action,
    lastLines: step.lines,
  };
}
