import type { MethodContext } from '../../types';
import { admit, union, type Candidate } from '../candidate';
import type { Lineage } from '../lineage';
import type { Eigen1Params } from '../params';
import { generateTemplate, proposeTemplate, type QuestionFrame } from '../templates';
import type { StageUsage } from '../usage';
import { callRole } from './call';
import { evidenceOf, monitoredGeneration } from './generate';

export interface Proposal {
  candidate: Candidate;
  injections: number;
  usage: StageUsage[];
}

/** K proposers in parallel, each a monitored generation read into a candidate solution. */
export async function propose(ctx: MethodContext<Eigen1Params>, frame: QuestionFrame, lineage: Lineage): Promise<Proposal[]> {
  const lanes = Array.from({ length: ctx.params.k }, (_, i) => i + 1);
  const proposals = await Promise.all(lanes.map((lane) => proposer(ctx, frame, lane)));
  for (const { candidate: c } of proposals)
    lineage.add({ id: c.id, stage: 'proposal', lane: c.lane, answer: c.solution.answer, abstained: c.solution.abstain });
  return proposals;
}

async function proposer(ctx: MethodContext<Eigen1Params>, frame: QuestionFrame, lane: number): Promise<Proposal> {
  return ctx.trace.step({ kind: 'eigen1.proposer', label: `Proposer ${lane}`, input: { lane, seed: ctx.params.seed + lane - 1 } }, async (step) => {
    const spec = { stage: 'generation' as const, lane, template: generateTemplate, input: { frame, proposer: lane - 1, proposers: ctx.params.k } };
    const generation = await monitoredGeneration(ctx, step, spec, frame);
    // The attached context, what was retrieved up front and what the asides brought in: everything the reasoning saw.
    const evidence = union(frame.context, frame.retrieved, evidenceOf(generation));
    const proposal = await ctx.trace.step(
      { kind: 'eigen1.propose', label: 'Proposal', input: { evidenceIds: evidence.map((e) => e.id) }, parent: step },
      async (s) => {
        const { output, usage } = await callRole(ctx, s, 'proposal', proposeTemplate, { frame, reasoning: generation.text, evidence });
        return { solution: admit(output, evidence), usage };
      },
    );
    return {
      candidate: { id: `P${lane}`, lane, solution: proposal.solution, evidence },
      injections: generation.injections.length,
      usage: [...generation.usage, proposal.usage],
    };
  });
}
