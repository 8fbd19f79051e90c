import { instantiateMetapath, metapathEndpoints, parseMetapath, type KgEdge, type KgNode, type KgPath, type MetapathHop } from '@/lib/kg';
import { flip, mention, relationPhrase } from '../lexicon';
import { resolveChain } from '../relations';

/**
 * The typed four-hop metapaths of the path and count families (BioMedHop's
 * Table 17), written as kinds and relation senses and resolved against the
 * loaded metagraph: the question names both ends, the middle node is asked for
 * (path) or counted (count). Chosen so that a useful share of sampled paths has
 * a unique middle or a small closed set; a graph serves those its relations allow.
 */
const HIDDEN_MIDDLE_CHAINS: readonly string[][] = [
  ['pathway', 'participate', 'gene', 'associate', 'disease', 'treat', 'compound', 'include', 'pharmacologicClass'],
  ['pharmacologicClass', 'include', 'compound', 'treat', 'disease', 'localize', 'anatomy', 'localize', 'disease'],
  ['pharmacologicClass', 'include', 'compound', 'treat', 'disease', 'present', 'symptom', 'present', 'disease'],
  ['gene', 'bind', 'compound', 'treat', 'disease', 'localize', 'anatomy', 'upregulate', 'gene'],
  ['sideEffect', 'cause', 'compound', 'treat', 'disease', 'localize', 'anatomy', 'upregulate', 'gene'],
  ['pathway', 'participate', 'gene', 'bind', 'compound', 'treat', 'disease', 'present', 'symptom'],
  ['pharmacologicClass', 'include', 'compound', 'resemble', 'compound', 'treat', 'disease', 'present', 'symptom'],
  ['pathway', 'participate', 'gene', 'bind', 'compound', 'include', 'pharmacologicClass', 'include', 'compound'],
  ['pharmacologicClass', 'include', 'compound', 'bind', 'gene', 'associate', 'disease', 'present', 'symptom'],
  ['symptom', 'present', 'disease', 'associate', 'gene', 'bind', 'compound', 'include', 'pharmacologicClass'],
  ['exposure', 'associate', 'disease', 'treat', 'compound', 'bind', 'gene', 'participate', 'pathway'],
];

/** The hidden-middle metapaths the loaded graph has every relation of ("GpPW:in|DaG:in|CtD:in|PCiC:in"). */
export function hiddenMiddleMetapaths(): string[] {
  return HIDDEN_MIDDLE_CHAINS.map(resolveChain).filter((mp): mp is string => !!mp);
}

export function hopsOf(metapath: string): MetapathHop[] {
  return parseMetapath(metapath);
}

function reversed(hops: MetapathHop[]): MetapathHop[] {
  return [...hops].reverse().map((h) => ({ metaedge: h.metaedge, direction: flip(h.direction) }));
}

/**
 * Every node the pattern admits, from the whole KG: reached from `startId` over
 * the first two hops and reaching `endId` over the last two. Computed as full
 * node sets, so it is a closed set; the ends themselves never count.
 */
export async function middleNodes(hops: MetapathHop[], startId: string, endId: string): Promise<KgNode[]> {
  const all = { limit: Number.MAX_SAFE_INTEGER };
  const [forward, backward] = await Promise.all([metapathEndpoints(startId, hops.slice(0, 2), all), metapathEndpoints(endId, reversed(hops.slice(2)), all)]);
  const reached = new Set(forward.nodes.map((n) => n.id));
  return backward.nodes.filter((n) => reached.has(n.id) && n.id !== startId).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** One concrete path start → … → middle → … → end, as evidence that `middle` satisfies the pattern. */
export async function witnessPath(hops: MetapathHop[], startId: string, middleId: string, endId: string): Promise<KgPath | null> {
  const [head, tail] = await Promise.all([
    instantiateMetapath(startId, hops.slice(0, 2), { targetId: middleId, limit: 1 }),
    instantiateMetapath(middleId, hops.slice(2), { targetId: endId, limit: 1 }),
  ]);
  const [a, b] = [head.paths[0], tail.paths[0]];
  if (!a || !b) return null;
  return { nodes: [...a.nodes, ...b.nodes.slice(1)], edges: [...a.edges, ...b.edges], metapath: `${a.metapath}|${b.metapath}` };
}

/** Path edges without repeats, for gold graphs built from several witnesses. */
export function uniqueEdges(paths: KgPath[]): KgEdge[] {
  const byId = new Map<number, KgEdge>();
  for (const p of paths) for (const e of p.edges) byId.set(e.id, e);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/**
 * What the phrasings of a hidden-middle question are filled with: the named
 * ends, the kinds of the unnamed nodes, and the verb phrases (third person
 * singular), each read from the node named first: s=start, m1=first bridge,
 * x=middle, m2=second bridge, e=end.
 */
export type PathParts = ReturnType<typeof pathParts>;

export function pathParts(hops: MetapathHop[], path: KgPath) {
  const [start, bridge1, middle, bridge2, end] = path.nodes;
  const read = (i: number, backwards: boolean) => relationPhrase(hops[i].metaedge, backwards ? flip(hops[i].direction) : hops[i].direction);
  return {
    s: mention(start),
    e: mention(end),
    m1: bridge1.kind,
    x: middle.kind,
    m2: bridge2.kind,
    sm1: read(0, false),
    m1s: read(0, true),
    m1x: read(1, false),
    xm1: read(1, true),
    xm2: read(2, false),
    m2x: read(2, true),
    m2e: read(3, false),
    em2: read(3, true),
  };
}
