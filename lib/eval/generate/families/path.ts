import { samplePaths, type KgPath } from '@/lib/kg';
import { aKind, kindNoun, sentence } from '../lexicon';
import { choosePhrasing, type FamilyBuilder, type Instance } from '../instance';
import type { Rng } from '../random';
import { hiddenMiddleMetapaths, hopsOf, middleNodes, pathParts, type PathParts } from './hidden-middle';

/** Paths drawn per attempt; a few in ten have a unique middle (measured on Hetionet). */
const PATHS_PER_ATTEMPT = 16;

const PHRASINGS: readonly ((p: PathParts) => string)[] = [
  (p) => `Which ${kindNoun(p.x)} ${p.xm1} ${aKind(p.m1)} that ${p.m1s} ${p.s}, and ${p.xm2} ${aKind(p.m2)} that ${p.m2e} ${p.e}?`,
  (p) =>
    `${p.s} ${p.sm1} ${aKind(p.m1)} that ${p.m1x} a certain ${kindNoun(p.x)}. That ${kindNoun(p.x)} ${p.xm2} ${aKind(p.m2)} that ${p.m2e} ${p.e}. What is the ${kindNoun(p.x)}?`,
  (p) =>
    `${aKind(p.m1)} that ${p.m1s} ${p.s} ${p.m1x} ${aKind(p.x)}, and that ${kindNoun(p.x)} ${p.xm2} ${aKind(p.m2)} that ${p.m2e} ${p.e}. Name the ${kindNoun(p.x)}.`,
  (p) =>
    `${p.e} ${p.em2} ${aKind(p.m2)} that ${p.m2x} ${aKind(p.x)}; the same ${kindNoun(p.x)} ${p.xm1} ${aKind(p.m1)} that ${p.m1s} ${p.s}. Which ${kindNoun(p.x)} is it?`,
];

/** Path: a four-hop typed metapath with both ends named and the middle node asked for; the middle must be unique. */
export const pathFamily: FamilyBuilder = {
  family: 'path',
  renderings: ['mcq', 'open'],
  variants: (metaedges) => hiddenMiddleMetapaths().filter((mp) => hopsOf(mp).every((h) => metaedges.has(h.metaedge))),

  async instantiate(metapath: string, rng: Rng): Promise<Instance | null> {
    const hops = hopsOf(metapath);
    for (const path of await samplePaths(hops, PATHS_PER_ATTEMPT, rng.child('paths'))) {
      const [start, , middle, , end] = path.nodes;
      const answers = await middleNodes(hops, start.id, end.id);
      if (answers.length === 1 && answers[0].id === middle.id) return build(metapath, path);
    }
    return null;
  },
};

function build(metapath: string, path: KgPath): Instance {
  const hops = hopsOf(metapath);
  const [start, bridge1, middle, bridge2, end] = path.nodes;
  return {
    family: 'path',
    variant: metapath,
    pattern: { kind: 'hidden_middle', metapath: hops, startId: start.id, endId: end.id, answerKind: middle.kind },
    answers: [middle],
    goldGraph: {
      nodes: [
        { ...start, role: 'endpoint' },
        { ...bridge1, role: 'bridge' },
        { ...middle, role: 'answer' },
        { ...bridge2, role: 'bridge' },
        { ...end, role: 'endpoint' },
      ],
      edges: path.edges,
    },
    key: `path:${metapath}:${start.id}>${end.id}`,
    answerRelation: hops[1].metaedge,
    guardIds: [],
    phrase: (rng) => {
      const chosen = choosePhrasing(rng, 'path', PHRASINGS, pathParts(hops, path));
      return { ...chosen, text: sentence(chosen.text) };
    },
  };
}
