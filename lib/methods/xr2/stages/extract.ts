import { normalise } from '@/lib/llm/offline/text';
import { sameKind } from '@/lib/llm/offline/metaedges';
import type { LinkedEntity } from '@/lib/llm/offline/types';
import type { StepHandle } from '@/lib/trace/types';
import type { MethodContext } from '../../types';
import { toLine, type EvidenceLine } from '../../baselines/evidence';
import { asLinked, everyReading } from '@/lib/llm/offline/linked';
import { extractTemplate, type Extraction, type StepEntity, type Xr2Frame } from '../templates';
import { callRole } from './call';

export interface StepExtraction extends Extraction {
  /** E_t: the extracted mentions linked to KG nodes through the entity channel. */
  linked: StepEntity[];
  /** Mentions no KG node could be linked to. */
  unresolved: string[];
  /** Entity profiles of E_t (entity channel). */
  profiles: EvidenceLine[];
}

/**
 * (E_t, R_t) ← Extract(Q_t, D). The entity channel spots and links mentions in
 * Q_t; the extract role picks the step entities and the relation/constraint
 * cues; a mention the linker had not recognised is linked on its own. With the
 * entity switch off, linking is exact-name only and no profile is read.
 */
export async function extract(ctx: MethodContext<unknown>, parent: StepHandle, frame: Xr2Frame, current: string): Promise<StepExtraction> {
  return ctx.trace.step({ kind: 'xr2.extract', label: 'Extract entities and cues', input: { current }, parent }, async (step) => {
    const recognised = asLinked(await ctx.channels.entity.link(step, current, 'Link step question'));
    const out = await callRole(ctx, step, extractTemplate, { frame, current, recognised });
    const linked: StepEntity[] = [];
    const unresolved: string[] = [];
    for (const e of out.entities) {
      const link = pick(everyReading(recognised), e) ?? pick(asLinked(await ctx.channels.entity.link(step, e.mention, `Link "${e.mention}"`)), e, true);
      if (!link) unresolved.push(e.mention);
      else if (!linked.some((l) => l.nodeId === link.nodeId)) linked.push({ ...link, mention: e.mention });
    }
    const profiles = await ctx.channels.entity.profiles(
      step,
      linked.map((l) => l.nodeId),
    );
    await ctx.trace.markSelected(profiles.items.map((p) => p.id));
    return { ...out, linked, unresolved, profiles: profiles.items.map(toLine) };
  });
}

/** The link for an extracted mention: same mention (and kind, when the role gave one); a fresh lookup may take any mention. */
function pick(links: LinkedEntity[], e: { mention: string; kind: string | null }, anyMention = false): LinkedEntity | undefined {
  const fits = links.filter((l) => anyMention || normalise(l.mention) === normalise(e.mention));
  return fits.find((l) => !e.kind || sameKind(l.kind, e.kind)) ?? fits[0];
}
