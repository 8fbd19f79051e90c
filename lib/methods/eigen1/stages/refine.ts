import type { StepHandle } from '@/lib/trace/types';
import type { MethodContext } from '../../types';
import { admit, citedIds, union, viewOf, type Candidate } from '../candidate';
import type { Lineage } from '../lineage';
import type { Eigen1Params } from '../params';
import { correctReasoningTemplate, correctTemplate, refineReasoningTemplate, refineTemplate, type QuestionFrame } from '../templates';
import { totalUsage, type Stage, type StageUsage } from '../usage';
import { callRole } from './call';
import { evidenceOf, monitoredGeneration } from './generate';

type Ctx = MethodContext<Eigen1Params>;

export interface Revised {
  candidates: Candidate[];
  usage: StageUsage[];
}

/**
 * One candidate revised on its own, optionally following a suggestion (the
 * Corrector): a monitored reasoning stream, then the revised solution stated
 * from it, citing the candidate's evidence and what the stream retrieved.
 */
export async function correctOne(
  ctx: Ctx,
  parent: StepHandle,
  frame: QuestionFrame,
  c: Candidate,
  revision: { id: string; stage: Stage; suggestion: string | null },
): Promise<{ candidate: Candidate; usage: StageUsage[] }> {
  return ctx.trace.step(
    { kind: 'eigen1.correct', label: `Correct ${c.id}`, input: { candidate: c.id, suggestion: revision.suggestion }, parent },
    async (step) => {
      const task = { frame, candidate: viewOf(c), suggestion: revision.suggestion };
      const reasoning = await monitoredGeneration(ctx, step, { stage: revision.stage, lane: c.lane, template: correctReasoningTemplate, input: task }, frame);
      const retrieved = evidenceOf(reasoning);
      const { output, usage } = await callRole(ctx, step, revision.stage, correctTemplate, { ...task, reasoning: reasoning.text, retrieved });
      const evidence = union(c.evidence, retrieved);
      return { candidate: { id: revision.id, lane: c.lane, solution: admit(output, evidence), evidence }, usage: [...reasoning.usage, usage] };
    },
  );
}

/** The Corrector before HSR: each proposal fixed locally, without seeing the others. */
export async function correctProposals(ctx: Ctx, frame: QuestionFrame, proposals: Candidate[], lineage: Lineage): Promise<Revised> {
  const out = await revisedStage(ctx, { kind: 'eigen1.correction', label: 'Corrector', input: { candidates: proposals.map((c) => c.id) } }, async (step) => {
    const fixed = await Promise.all(proposals.map((c) => correctOne(ctx, step, frame, c, { id: `C${c.lane}`, stage: 'correction', suggestion: null })));
    return { candidates: fixed.map((f) => f.candidate), usage: fixed.flatMap((f) => f.usage) };
  });
  for (const [i, c] of out.candidates.entries()) {
    lineage.add({ id: c.id, stage: 'correction', lane: c.lane, answer: c.solution.answer, abstained: c.solution.abstain });
    lineage.link(proposals[i].id, c.id, 'revises');
  }
  return out;
}

/**
 * HSR (EIGEN-1 §3.2): each candidate in turn is the anchor and the others its
 * references; per anchor, all in parallel, a monitored reasoning stream and
 * the refined solution stated from it. The refined candidate may cite the
 * anchor's evidence, whatever of the references' evidence it took, and what
 * its stream retrieved.
 */
export async function refineHierarchically(ctx: Ctx, frame: QuestionFrame, candidates: Candidate[], lineage: Lineage): Promise<Revised> {
  if (!ctx.params.hsr) {
    await ctx.trace.skipped(
      { kind: 'eigen1.hsr', label: 'Hierarchical solution refinement', input: { candidates: candidates.map((c) => c.id) } },
      'ablation (hsr off): candidates go to QAIR unrefined',
    );
    return { candidates, usage: [] };
  }
  const out = await revisedStage(
    ctx,
    { kind: 'eigen1.hsr', label: 'Hierarchical solution refinement', input: { candidates: candidates.map((c) => c.id) } },
    async (step) => {
      const refined = await Promise.all(
        candidates.map((anchor) => {
          const references = candidates.filter((c) => c !== anchor);
          return ctx.trace.step(
            { kind: 'eigen1.refine', label: `Anchor ${anchor.id}`, input: { anchor: anchor.id, references: references.map((r) => r.id) }, parent: step },
            async (s) => {
              const task = { frame, anchor: viewOf(anchor), references: references.map(viewOf) };
              const reasoning = await monitoredGeneration(
                ctx,
                s,
                { stage: 'refinement', lane: anchor.lane, template: refineReasoningTemplate, input: task },
                frame,
              );
              const retrieved = evidenceOf(reasoning);
              const pool = union(...[anchor, ...references].map((c) => c.evidence), retrieved);
              const { output, usage } = await callRole(ctx, s, 'refinement', refineTemplate, { ...task, reasoning: reasoning.text, retrieved });
              const solution = admit(output, pool);
              const taken = new Set(citedIds(solution));
              const kept = new Set([...anchor.evidence, ...retrieved].map((e) => e.id));
              const evidence = pool.filter((e) => kept.has(e.id) || taken.has(e.id));
              return { candidate: { id: `R${anchor.lane}`, lane: anchor.lane, solution, evidence }, usage: [...reasoning.usage, usage] };
            },
          );
        }),
      );
      return { candidates: refined.map((r) => r.candidate), usage: refined.flatMap((r) => r.usage) };
    },
  );
  for (const c of out.candidates) lineage.add({ id: c.id, stage: 'refinement', lane: c.lane, answer: c.solution.answer, abstained: c.solution.abstain });
  for (const [i, c] of out.candidates.entries()) {
    for (const input of candidates) lineage.link(input.id, c.id, input === candidates[i] ? 'anchor' : 'reference');
  }
  return out;
}

/**
 * A stage whose candidates are its children's outputs (each correction's or refinement's step holds its candidate):
 * stored, it names the versions it made and sums its usage per stage, and a resumed run makes it again from its
 * replayed children (`replayChildren`) instead of reading the candidates back from it.
 */
async function revisedStage(
  ctx: Ctx,
  spec: { kind: 'eigen1.correction' | 'eigen1.hsr'; label: string; input: { candidates: string[] } },
  revise: (step: StepHandle) => Promise<Revised>,
): Promise<Revised> {
  let revised: Revised | undefined;
  await ctx.trace.step({ ...spec, replayChildren: true }, async (step) => {
    revised = await revise(step);
    return { candidates: revised.candidates.map((c) => c.id), usage: totalUsage(revised.usage).stages };
  });
  return revised!;
}
