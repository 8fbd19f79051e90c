import type { RegramParams } from '../params';
import type { EntityLink } from '@/lib/kg';
import { insideOptions, splitInlineOptions } from '@/lib/reading/options';
import { normalise } from '@/lib/llm/offline/text';
import type { StepHandle } from '@/lib/trace/types';
import type { MethodContext } from '../../types';
import { instantiate } from '../anchors';
import { levenshteinRatio } from '../fuzzy';
import type { HopMemory, QuestionFrame, RegionEntity } from '../templates';

/** A node of the hop's expanded entity set E_exp, and how it got there. */
export interface LinkedNode extends RegionEntity {
  /** The text that was linked; null for an earlier hop's answer. */
  mention: string | null;
  method: EntityLink['method'] | typeof EARLIER_HOP;
  /** 1 exact, 0.9 alias, trigram similarity for fuzzy; null for an earlier hop's answer. */
  score: number | null;
  /** For a fuzzy link: the Levenshtein ratio (0–100) of mention to matched name that kept it. */
  ratio?: number;
  from: string;
}

/** How a hop's node was linked when it is an answer of the hop it builds on. */
export const EARLIER_HOP = 'earlier hop answer';

export interface HopLinking {
  /** Links over the hop question (offsets into it), for the roles. */
  links: EntityLink[];
  /** Fuzzy links of the shared linker dropped below the Levenshtein-ratio threshold. */
  rejectedFuzzy: { mention: string; matched: string; ratio: number }[];
  nodes: LinkedNode[];
  /** Mentions written differently from the node's name, expanded to the name. */
  expansions: { mention: string; name: string; method: string }[];
  /** q_i as Sim sees it, with synonym expansion: once per earlier-hop anchor (see instantiate), and for MCQ once more with each option. */
  simQueries: string[];
  /** q_i for ranking a hub's relations: the hop question with synonym expansion. */
  relationQuery: string;
}

/**
 * Step 3a: exact and alias names and fuzzy matches, through the entity
 * channel (off: exact names only). The shared linker proposes fuzzy
 * candidates by trigram similarity; ReGraM keeps those at a Levenshtein ratio
 * ≥ fuzzyRatio (the paper's RapidFuzz ≥ 90). Synonym expansion adds the
 * node's own name where the question wrote an alias or a misspelling. A hop
 * that builds on an earlier one takes that hop's answers as further anchors.
 * The MCQ options seed the hop only with `optionSeeds` on (not in the paper);
 * either way Sim reads the hop question once with each option.
 */
export async function linkHop(
  ctx: MethodContext<RegramParams>,
  parent: StepHandle,
  frame: QuestionFrame,
  hop: { hop: number; question: string; prior: HopMemory | null },
): Promise<HopLinking> {
  return ctx.trace.step(
    {
      kind: 'regram.link',
      label: 'Link entities',
      input: { question: hop.question, buildsOn: hop.prior?.hop ?? null, fuzzyRatio: ctx.params.fuzzyRatio, optionSeeds: ctx.params.optionSeeds },
      parent,
    },
    async (step) => {
      // Options written into the question are candidates, never anchors: only the stem's mentions seed the hop.
      const inline = splitInlineOptions(hop.question);
      const proposed = (await ctx.channels.entity.link(step, hop.question, 'Link hop mentions')).filter((l) => !insideOptions(l, inline.options));
      const ratioOf = (l: EntityLink) => levenshteinRatio(l.mention, l.matched);
      const links = proposed.filter((l) => l.method !== 'fuzzy' || ratioOf(l) >= ctx.params.fuzzyRatio);
      const rejectedFuzzy = proposed.filter((l) => !links.includes(l)).map((l) => ({ mention: l.mention, matched: l.matched, ratio: ratioOf(l) }));
      const nodes = new Map<string, LinkedNode>();
      const add = (n: LinkedNode) => nodes.has(n.nodeId) || nodes.set(n.nodeId, n);
      for (const l of links) {
        const ratio = l.method === 'fuzzy' ? { ratio: ratioOf(l) } : {};
        add({ nodeId: l.nodeId, name: l.name, kind: l.kind, mention: l.mention, method: l.method, score: l.score, from: 'hop question', ...ratio });
      }
      const anchors = hop.prior && !hop.prior.abstained ? hop.prior.items : [];
      for (const a of anchors) add({ ...a, mention: null, method: EARLIER_HOP, score: null, from: `hop ${hop.prior!.hop} answer` });
      for (const [key, optionLinks] of ctx.params.optionSeeds ? Object.entries(frame.optionLinks) : []) {
        for (const l of optionLinks)
          add({ nodeId: l.nodeId, name: l.name, kind: l.kind, mention: l.mention, method: l.method, score: l.score, from: `option ${key}` });
      }
      const expansions = links.filter((l) => normalise(l.mention) !== normalise(l.name)).map((l) => ({ mention: l.mention, name: l.name, method: l.method }));
      const relationQuery = [hop.question, ...expansions.map((e) => e.name)].join(' ');
      // Each option is one candidate answer: q_i is also read with each option in turn, never with all at once, which would dilute every match.
      const readings = instantiate(relationQuery, anchors);
      const options = frame.options ? Object.values(frame.options) : splitInlineOptions(frame.question).options.map((o) => o.text);
      const simQueries = [...readings, ...readings.flatMap((q) => options.map((o) => `${q} ${o}`))];
      return { links, rejectedFuzzy, nodes: [...nodes.values()], expansions, simQueries, relationQuery };
    },
  );
}
