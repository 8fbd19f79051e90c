import type { RegramParams } from '../params';
import type { StepHandle } from '@/lib/trace/types';
import type { MethodContext } from '../../types';
import { asGeneralKnowledge, GENERAL_KNOWLEDGE, holdToRegion, type Outside } from '../boundary';
import type { Region } from '../region';
import {
  answerGuessTemplate,
  answerHybridTemplate,
  answerStrictTemplate,
  type Fact,
  type HopAnswer,
  type HopQuestion,
  type Mode,
  type RegionEntity,
} from '../templates';
import { callRole } from './call';

export interface HopOutcome {
  answer: HopAnswer;
  /** The entities the sub-answer names, as region nodes (none for LLM-GUESS). */
  entities: RegionEntity[];
  /** Evidence the sub-answer rests on: region facts and accepted hypotheses only. */
  cited: string[];
  outside: Outside;
}

/**
 * The hop's sub-answer in its mode: KG-STRICT from the region's facts only,
 * HYBRID from them plus accepted hypotheses, LLM-GUESS from general knowledge
 * (said so; with the param switch off there is none to use). The region
 * boundary is applied to whatever comes back.
 */
export async function answerHop(
  ctx: MethodContext<RegramParams>,
  parent: StepHandle,
  hop: HopQuestion,
  mode: Mode,
  region: Region,
  hypotheses: Fact[],
): Promise<HopOutcome> {
  return ctx.trace.step(
    { kind: 'regram.hop-answer', label: `Hop answer (${mode})`, input: { mode, facts: region.facts.length, hypotheses: hypotheses.length }, parent },
    async (step) => {
      if (mode === 'LLM-GUESS') return guess(ctx, step, hop);
      const out =
        mode === 'KG-STRICT'
          ? await callRole(ctx, step, answerStrictTemplate, { hop, facts: region.facts, absences: region.absences })
          : await callRole(ctx, step, answerHybridTemplate, { hop, facts: region.facts, hypotheses, absences: region.absences });
      const bounded = holdToRegion(out, out.evidenceIds, {
        entities: region.nodes,
        evidenceIds: new Set([...region.facts, ...hypotheses, ...region.absences].map((f) => f.id)),
      });
      const answer = { ...bounded.answer, evidenceIds: bounded.cited };
      return { answer, entities: bounded.entities, cited: bounded.cited, outside: bounded.outside };
    },
  );
}

async function guess(ctx: MethodContext<RegramParams>, step: StepHandle, hop: HopQuestion): Promise<HopOutcome> {
  const none: Outside = { items: [], evidenceIds: [] };
  if (!ctx.channels.param.enabled) {
    const reason = 'param switch is off: LLM-GUESS would answer from general knowledge, which this run may not use';
    await ctx.trace.skipped({ kind: 'regram.guess', label: 'General knowledge', input: { question: hop.question }, parent: step }, reason);
    return {
      answer: { answer: '', items: [], evidenceIds: [], abstain: true, rationale: `${GENERAL_KNOWLEDGE}: none used; ${reason}.` },
      entities: [],
      cited: [],
      outside: none,
    };
  }
  const out = asGeneralKnowledge(await callRole(ctx, step, answerGuessTemplate, { hop }));
  // There is no region to cite from: whatever the model cites is outside it.
  return { answer: { ...out, evidenceIds: [] }, entities: [], cited: [], outside: { items: [], evidenceIds: out.evidenceIds } };
}
