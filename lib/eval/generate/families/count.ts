import { samplePaths, type KgNode, type KgPath, type MetapathHop } from '@/lib/kg';
import { aKind, kindNoun, pluralVerb, sentence } from '../lexicon';
import { choosePhrasing, type FamilyBuilder, type Instance } from '../instance';
import type { Rng } from '../random';
import { hiddenMiddleMetapaths, hopsOf, middleNodes, pathParts, uniqueEdges, type PathParts, witnessPath } from './hidden-middle';

/**
 * Counts outside this range are left out: one is a path question, and past a
 * few dozen the number stops testing reasoning and starts testing recall of a
 * long list.
 */
export const COUNT_RANGE = { min: 2, max: 30 } as const;
const PATHS_PER_ATTEMPT = 8;

const PHRASINGS: readonly ((p: PathParts) => string)[] = [
  (p) =>
    `How many ${kindNoun(p.x, true)} ${pluralVerb(p.xm1)} ${aKind(p.m1)} that ${p.m1s} ${p.s}, and ${pluralVerb(p.xm2)} ${aKind(p.m2)} that ${p.m2e} ${p.e}?`,
  (p) =>
    `Count the distinct ${kindNoun(p.x, true)} that ${pluralVerb(p.xm1)} ${aKind(p.m1)} that ${p.m1s} ${p.s} and also ${pluralVerb(p.xm2)} ${aKind(p.m2)} that ${p.m2e} ${p.e}.`,
  (p) =>
    `${p.s} ${p.sm1} ${kindNoun(p.m1, true)} that ${pluralVerb(p.m1x)} a number of ${kindNoun(p.x, true)}. How many of those ${kindNoun(p.x, true)} ${pluralVerb(p.xm2)} ${aKind(p.m2)} that ${p.m2e} ${p.e}?`,
  (p) =>
    `What is the number of distinct ${kindNoun(p.x, true)} that ${pluralVerb(p.xm1)} ${aKind(p.m1)} that ${p.m1s} ${p.s}, and ${pluralVerb(p.xm2)} ${aKind(p.m2)} that ${p.m2e} ${p.e}?`,
];

/** Count: the same four-hop metapaths as the path family, asking how many distinct middle nodes satisfy them. */
export const countFamily: FamilyBuilder = {
  family: 'count',
  renderings: ['count'],
  variants: (metaedges) => hiddenMiddleMetapaths().filter((mp) => hopsOf(mp).every((h) => metaedges.has(h.metaedge))),

  async instantiate(metapath: string, rng: Rng): Promise<Instance | null> {
    const hops = hopsOf(metapath);
    for (const path of await samplePaths(hops, PATHS_PER_ATTEMPT, rng.child('paths'))) {
      const start = path.nodes[0];
      const end = path.nodes[4];
      const answers = await middleNodes(hops, start.id, end.id);
      if (answers.length < COUNT_RANGE.min || answers.length > COUNT_RANGE.max) continue;
      const witnesses = await Promise.all(answers.map((a) => witnessPath(hops, start.id, a.id, end.id)));
      if (witnesses.some((w) => !w)) continue;
      return build(metapath, hops, path, answers, witnesses as KgPath[]);
    }
    return null;
  },
};

function build(metapath: string, hops: MetapathHop[], sampled: KgPath, answers: KgNode[], witnesses: KgPath[]): Instance {
  const [start, , middle, , end] = sampled.nodes;
  const answerIds = new Set(answers.map((a) => a.id));
  const bridges = new Map<string, KgNode>();
  for (const w of witnesses) for (const n of [w.nodes[1], w.nodes[3]]) if (!answerIds.has(n.id)) bridges.set(n.id, n);
  return {
    family: 'count',
    variant: metapath,
    pattern: { kind: 'hidden_middle', metapath: hops, startId: start.id, endId: end.id, answerKind: middle.kind },
    answers,
    goldGraph: {
      nodes: [
        { ...start, role: 'endpoint' },
        { ...end, role: 'endpoint' },
        ...answers.map((a) => ({ ...a, role: 'answer' as const })),
        ...[...bridges.values()].map((b) => ({ ...b, role: 'bridge' as const })),
      ],
      edges: uniqueEdges(witnesses),
    },
    key: `count:${metapath}:${start.id}>${end.id}`,
    answerRelation: hops[1].metaedge,
    guardIds: [],
    phrase: (rng) => {
      const chosen = choosePhrasing(rng, 'count', PHRASINGS, pathParts(hops, sampled));
      return { ...chosen, text: sentence(chosen.text) };
    },
  };
}
