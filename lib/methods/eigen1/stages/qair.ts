import type { StepHandle } from '@/lib/trace/types';
import type { MethodContext } from '../../types';
import { viewOf, type Candidate } from '../candidate';
import type { Lineage } from '../lineage';
import type { Eigen1Params } from '../params';
import { qualityOf, type Quality } from '../quality';
import { evaluateTemplate, type QuestionFrame } from '../templates';
import { totalUsage, type StageUsage } from '../usage';
import { callRole } from './call';
import { correctOne } from './refine';

type Ctx = MethodContext<Eigen1Params>;

/** A candidate's latest evaluated version and its quality. */
export interface Assessed {
  candidate: Candidate;
  quality: Quality;
  suggestion: string;
  /** Lineage id of the evaluation that scored it. */
  evaluation: string;
  round: number;
}

/**
 * QAIR (EIGEN-1 §3.3): E_1 is every refined candidate. Round t scores E_t
 * (q = w_l·logic + w_a·answer + w_e·explanation); those under τ are corrected
 * with their suggestion and form E_{t+1}; passing ones are not evaluated again.
 * Stops when all pass or after tMax evaluation rounds.
 */
export async function qualityAwareIteration(
  ctx: Ctx,
  frame: QuestionFrame,
  refined: Candidate[],
  lineage: Lineage,
): Promise<{ assessed: Assessed[]; usage: StageUsage[] }> {
  const p = ctx.params;
  // Without QAIR the candidates are scored once, for the ranker, and never corrected.
  const tMax = p.qair ? p.tMax : 1;
  const label = p.qair ? 'Quality-aware iterative reasoning' : 'Quality evaluation only (QAIR off: no correction rounds)';
  // Each round's step holds its scores and corrections: stored, QAIR names them by id, and a resumed run makes it
  // again from its replayed rounds (`replayChildren`).
  const rounds: { scored: Assessed[]; corrected: Candidate[] }[] = [];
  const usage: StageUsage[] = [];
  await ctx.trace.step(
    { kind: 'eigen1.qair', label, input: { tau: p.tau, tMax, qair: p.qair, weights: [p.wLogic, p.wAnswer, p.wExplanation] }, replayChildren: true },
    async (step) => {
      let pending = refined;
      for (let round = 1; round <= tMax && pending.length; round++) {
        // Stored, the round names its candidates without their evidence (their steps hold it); a resumed run makes it
        // again from its replayed evaluations and corrections.
        let result: { scored: Assessed[]; corrected: Candidate[]; usage: StageUsage[] } | undefined;
        await ctx.trace.step(
          { kind: 'eigen1.qair-round', label: `Round ${round}`, input: { round, candidates: pending.map((c) => c.id) }, parent: step, replayChildren: true },
          async (r) => {
            const scored = await Promise.all(pending.map((c) => evaluate(ctx, r, frame, c, round)));
            const failed = scored.filter((s) => !s.assessed.quality.passed);
            // A correction after the last round could not be scored, so none is made.
            const corrected =
              round < tMax
                ? await Promise.all(
                    failed.map((s) =>
                      correctOne(ctx, r, frame, s.assessed.candidate, {
                        id: `Q${s.assessed.candidate.lane}.${round}`,
                        stage: 'qair-correction',
                        suggestion: s.assessed.suggestion,
                      }),
                    ),
                  )
                : [];
            result = {
              scored: scored.map((s) => s.assessed),
              corrected: corrected.map((c) => c.candidate),
              usage: [...scored.map((s) => s.usage), ...corrected.flatMap((c) => c.usage)],
            };
            return {
              scored: result.scored.map((a) => ({ ...a, candidate: named(a.candidate) })),
              corrected: result.corrected.map(named),
              usage: result.usage,
            };
          },
        );
        rounds.push({ scored: result!.scored, corrected: result!.corrected });
        usage.push(...result!.usage);
        pending = result!.corrected;
      }
      const ids = (cs: Candidate[]) => cs.map((c) => c.id);
      return { rounds: rounds.map((r) => ({ scored: ids(r.scored.map((a) => a.candidate)), corrected: ids(r.corrected) })), usage: totalUsage(usage).stages };
    },
  );
  const latest = new Map<number, Assessed>();
  for (const { scored, corrected } of rounds) {
    for (const s of scored) {
      const { candidate: c, quality } = s;
      latest.set(c.lane, s);
      lineage.add({
        id: s.evaluation,
        stage: 'qair-evaluation',
        lane: c.lane,
        round: s.round,
        answer: c.solution.answer,
        abstained: c.solution.abstain,
        q: quality.q,
        scores: quality.scores,
        passed: quality.passed,
      });
      lineage.link(c.id, s.evaluation, 'evaluates');
    }
    for (const c of corrected) {
      const failed = latest.get(c.lane)!;
      lineage.add({ id: c.id, stage: 'qair-correction', lane: c.lane, round: failed.round, answer: c.solution.answer, abstained: c.solution.abstain });
      lineage.link(failed.evaluation, c.id, 'revises');
    }
  }
  return { assessed: [...latest.values()].sort((a, b) => a.candidate.lane - b.candidate.lane), usage };
}

function named(c: Candidate): Omit<Candidate, 'evidence'> {
  return { id: c.id, lane: c.lane, solution: c.solution };
}

async function evaluate(ctx: Ctx, parent: StepHandle, frame: QuestionFrame, c: Candidate, round: number): Promise<{ assessed: Assessed; usage: StageUsage }> {
  // The step names the candidate it scored: the step that made it holds it.
  const { assessed, usage } = await ctx.trace.step(
    { kind: 'eigen1.evaluate', label: `Evaluate ${c.id}`, input: { candidate: c.id, round }, parent },
    async (step) => {
      const { output, usage } = await callRole(ctx, step, 'evaluation', evaluateTemplate, { frame, candidate: viewOf(c) });
      const quality = qualityOf(output, ctx.params, ctx.params.tau);
      return { assessed: { candidate: c.id, quality, suggestion: output.suggestion, evaluation: `E${c.lane}.${round}`, round }, usage };
    },
  );
  return { assessed: { ...assessed, candidate: c }, usage };
}
