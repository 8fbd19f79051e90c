import { defineMethod } from '../types';
import { toMethodAnswer } from './answer';
import './offline';
import { Xr2ParamsSchema } from './params';
import { check } from './stages/check';
import { decompose } from './stages/decompose';
import { extract } from './stages/extract';
import { readQuestion } from './stages/read';
import { reason } from './stages/reason';
import { recallParametric } from './stages/recall';
import { retrieveKG } from './stages/retrieve';
import { advance, establishedLines, isDone, START } from './state';
import { evidenceOf, linesOf, type ReasonInput } from './templates';
import type { EvidenceLine } from '../baselines/evidence';

/**
 * X-R2 (xr2.txt, Algorithm 1; METHODS.md §2): for t = 1..T_max, Decompose →
 * Extract → RetrieveKG ∥ RecallParametric → Reason → Check; stop returns A_t,
 * else re-decompose on the gap the check named. Each iteration is one
 * 'xr2.iteration' step with the six stages as its children.
 */
export const xr2 = defineMethod({
  id: 'xr2',
  name: 'X-R2',
  source: 'Explainable research reasoning with knowledge graphs',
  description:
    'Iterative reasoning with mandatory decomposition: per step, extract entities (entity channel) and relation cues, retrieve the top-K KG triples ' +
    'and recall parametric claims apart from them, answer the whole question, self-check, and re-decompose on what is missing.',
  params: Xr2ParamsSchema,
  // Option coverage in the unit score is the aid `option-coverage` (docs/aids.md), declared with the aids when they are on.
  deviations: (p) => (p.optionBonus > 0 ? [`not in the paper: option bonus ${p.optionBonus} (optionBonus)`] : []),
  async run(ctx) {
    const { tMax } = ctx.params;
    const frame = await readQuestion(ctx);
    let state = START;
    let t = 0;
    while (t < tMax && !isDone(state)) {
      t += 1;
      const prior = state;
      state = await ctx.trace.step({ kind: 'xr2.iteration', label: `Iteration ${t}`, input: { t, tMax } }, async (step) => {
        const decomposition = await decompose(ctx, step, frame, prior, t);
        const current = decomposition.current;
        const extraction = await extract(ctx, step, frame, current);
        const [kg, recall] = await Promise.all([retrieveKG(ctx, step, frame, current, extraction, prior), recallParametric(ctx, step, current, extraction)]);
        const established = establishedLines(prior, ctx.params.establishedCap, kg.asked ?? []);
        const input: ReasonInput = {
          frame,
          t,
          current,
          entities: extraction.linked,
          relations: extraction.relations,
          cues: kg.cues,
          constraints: extraction.constraints,
          kg: kg.units,
          kgShown: kg.shown,
          kgTotals: kg.totals ?? [],
          answerSet: kg.answerSet,
          profiles: extraction.profiles,
          claims: recall.claims,
          established: established.lines,
          establishedOmitted: established.omitted,
          previous: prior.previous?.answer ?? null,
          background: ctx.channels.switches.param,
        };
        const answer = await reason(ctx, step, input);
        const lines = linesOf(input);
        const fresh = (ls: EvidenceLine[]) => ls.filter((l) => !prior.seenRefs.includes(l.ref)).length;
        const newEvidence = fresh(evidenceOf(input));
        const newMemory = fresh(input.claims);
        const { verdict, action } = await check(ctx, step, {
          frame,
          t,
          tMax,
          answer,
          evidence: evidenceOf(input),
          memory: input.claims,
          unexamined: kg.completeness ? kg.unexamined : 0,
          completeness: kg.completeness,
          kgShown: kg.shown,
          kgTotals: kg.totals ?? [],
          newEvidence,
          newMemory,
        });
        return advance(prior, {
          t,
          current,
          kgLines: kg.units.flatMap((u) => u.lines),
          asked: kg.asked ?? [],
          sets: kg.answerSet,
          lines,
          answer,
          verdict,
          unexamined: kg.completeness ? kg.unexamined : 0,
          action,
        });
      });
    }
    return toMethodAnswer(state, t);
  },
});
