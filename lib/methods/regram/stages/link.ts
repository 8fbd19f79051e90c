import type { EntityLink } from '@/lib/kg';
import { normalise } from '@/lib/llm/offline/text';
import type { StepHandle } from '@/lib/trace/types';
import type { MethodContext } from '../../types';
import { instantiate } from '../anchors';
import type { HopMemory, QuestionFrame, RegionEntity } from '../templates';

/** A node of the hop's expanded entity set E_exp, and how it got there. */
export interface LinkedNode extends RegionEntity {
  /** The text that was linked; null for an earlier hop's answer. */
  mention: string | null;
  method: EntityLink['method'] | 'earlier hop answer';
  /** 1 exact, 0.9 alias, trigram similarity for fuzzy; null for an earlier hop's answer. */
  score: number | null;
  from: string;
}

export interface HopLinking {
  /** Links over the hop question (offsets into it), for the roles. */
  links: EntityLink[];
  nodes: LinkedNode[];
  /** Mentions written differently from the node's name, expanded to the name. */
  expansions: { mention: string; name: string; method: string }[];
  /** q_i as Sim sees it, with synonym expansion: once per earlier-hop anchor (see instantiate), and for MCQ once more with each option. */
  simQueries: string[];
  /** q_i for ranking a hub's relations: the hop question with synonym expansion. */
  relationQuery: string;
}

/**
 * Step 3a: exact and alias names and fuzzy (trigram) matches, through the
 * entity channel (off: exact names only); synonym expansion adds the node's
 * own name where the question wrote an alias or a misspelling. A hop that
 * builds on an earlier one takes that hop's answers as further anchors, and
 * every hop of a multiple-choice question takes the options': they are part
 * of the query, and the region should be able to hold the right one.
 */
export async function linkHop(
  ctx: MethodContext<unknown>,
  parent: StepHandle,
  frame: QuestionFrame,
  hop: { hop: number; question: string; prior: HopMemory | null },
): Promise<HopLinking> {
  return ctx.trace.step(
    { kind: 'regram.link', label: 'Link entities', input: { question: hop.question, buildsOn: hop.prior?.hop ?? null }, parent },
    async (step) => {
      const links = await ctx.channels.entity.link(step, hop.question, 'Link hop mentions');
      const nodes = new Map<string, LinkedNode>();
      const add = (n: LinkedNode) => nodes.has(n.nodeId) || nodes.set(n.nodeId, n);
      for (const l of links) add({ nodeId: l.nodeId, name: l.name, kind: l.kind, mention: l.mention, method: l.method, score: l.score, from: 'hop question' });
      const anchors = hop.prior && !hop.prior.abstained ? hop.prior.items : [];
      for (const a of anchors) add({ ...a, mention: null, method: 'earlier hop answer', score: null, from: `hop ${hop.prior!.hop} answer` });
      for (const [key, optionLinks] of Object.entries(frame.optionLinks)) {
        for (const l of optionLinks) add({ nodeId: l.nodeId, name: l.name, kind: l.kind, mention: l.mention, method: l.method, score: l.score, from: `option ${key}` });
      }
      const expansions = links.filter((l) => normalise(l.mention) !== normalise(l.name)).map((l) => ({ mention: l.mention, name: l.name, method: l.method }));
      const relationQuery = [hop.question, ...expansions.map((e) => e.name)].join(' ');
      // Each option is one candidate answer: q_i is also read with each option in turn, never with all at once, which would dilute every match.
      const readings = instantiate(relationQuery, anchors);
      const simQueries = [...readings, ...readings.flatMap((q) => Object.values(frame.options ?? {}).map((o) => `${q} ${o}`))];
      return { links, nodes: [...nodes.values()], expansions, simQueries, relationQuery };
    },
  );
}
