import type { MethodContext } from '../../types';
import { viewOf } from '../candidate';
import type { Lineage } from '../lineage';
import type { Eigen1Params } from '../params';
import { rankTemplate, type QuestionFrame } from '../templates';
import type { StageUsage } from '../usage';
import { callRole } from './call';
import type { Assessed } from './qair';

export interface Selection {
  chosen: Assessed;
  reason: string;
  usage: StageUsage;
}

/** The Ranker picks the final solution among each line's latest evaluated version. */
export async function selectBest(ctx: MethodContext<Eigen1Params>, frame: QuestionFrame, assessed: Assessed[], lineage: Lineage): Promise<Selection> {
  const picked = await ctx.trace.step(
    { kind: 'eigen1.rank', label: 'Ranker', input: { candidates: assessed.map((a) => ({ id: a.candidate.id, q: a.quality.q })) } },
    async (step) => {
      const candidates = assessed.map((a) => ({ label: a.candidate.id, q: a.quality.q, view: viewOf(a.candidate) }));
      const { output, usage } = await callRole(ctx, step, 'ranking', rankTemplate, { frame, candidates });
      const named = assessed.findIndex((a) => a.candidate.id === output.best.trim());
      // A ranker that names no candidate does not get to end the run: the best q stands in, and the trace says so.
      const index = named >= 0 ? named : assessed.reduce((best, a, i) => (a.quality.q > assessed[best].quality.q ? i : best), 0);
      const reason = named >= 0 ? output.reason : `the ranker named '${output.best}', which is no candidate; took the highest q instead`;
      return { index, chosen: assessed[index].candidate.id, reason, usage };
    },
  );
  const chosen = assessed[picked.index];
  const { candidate: c, quality } = chosen;
  lineage.add({
    id: 'S',
    stage: 'selection',
    lane: c.lane,
    answer: c.solution.answer,
    abstained: c.solution.abstain,
    q: quality.q,
    scores: quality.scores,
    passed: quality.passed,
  });
  lineage.link(chosen.evaluation, 'S', 'selects');
  return { chosen, reason: picked.reason, usage: picked.usage };
}
