import type { StepHandle } from '@/lib/trace/types';
import type { MethodContext } from '../../types';
import { toLine, type EvidenceLine } from '../../baselines/evidence';
import type { StepExtraction } from './extract';
import { metaedgeVerbs } from '@/lib/channels/kg-text';
import { cueText } from '../templates';

export interface Recall {
  /** M_t: claims with confidences, never merged with KG or document evidence. */
  claims: EvidenceLine[];
  note: string | null;
}

/** M_t ← RecallParametric(E_t, R_t), when the param switch is on: the param channel's controlled recall prompt. */
export async function recallParametric(ctx: MethodContext<unknown>, parent: StepHandle, current: string, extraction: StepExtraction): Promise<Recall> {
  return ctx.trace.step({ kind: 'xr2.recall', label: 'Recall parametric knowledge', input: { current }, parent }, async (step) => {
    // The relation cues go apart from the entities, each in its metaedge's direction with the KG's verb, as retrieval writes them.
    const verbs = await metaedgeVerbs();
    const cues = extraction.relations.map((r) => cueText(r, verbs));
    const recalled = await ctx.channels.param.recall(
      step,
      current,
      extraction.linked.map((e) => `${e.name} (${e.kind})`),
      cues,
    );
    await ctx.trace.markSelected(recalled.items.map((c) => c.id));
    return { claims: recalled.items.map(toLine), note: recalled.note ?? null };
  });
}
