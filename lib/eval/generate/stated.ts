import { cachedRead } from '@/lib/db/cached-read';
import { corpusTexts, edgesJoining, nodeSurfaces, profileTexts, textCount, triplesOf } from '@/lib/eval/store/generation';
import { MIN_ALIAS } from '@/lib/channels/doc-relevance';
import { sampleEdges, type KgTriple } from '@/lib/kg';
import { wordTokens } from '@/lib/llm/offline/text';
import { seededRandom } from '@/lib/kg/query/prng';

/**
 * Source-aware drawing for `--coverage require`: the KG edges whose two ends a
 * text source names together (a corpus passage, or one end's reference record
 * naming the other), found by scanning the text for node names and aliases
 * (4+ characters, longest first). The pool only proposes: the bundle built for
 * the drawn question is still checked hop by hop (./evidence.ts), so a proposal
 * the mention check does not confirm is a rejected draw like any other.
 */

const MAX_NGRAM = 6;

type Pools = Map<string, number[]>;
const cache = new Map<string, Promise<Pools>>();

/** Edge ids per metaedge that the source names both ends of; computed once per process and text size. */
async function statedPools(source: 'doc' | 'web'): Promise<Pools> {
  const key = `${source}:${await textCount(source)}`;
  // Only the current text size's pool is kept: documents attached over a long-lived process would otherwise leave one pool each.
  for (const old of cache.keys()) if (old.startsWith(`${source}:`) && old !== key) cache.delete(old);
  return cachedRead(cache, key, () => scan(source));
}

async function scan(source: 'doc' | 'web'): Promise<Pools> {
  const surfaces = await surfaceIndex();
  const pairs: [string, string][] = [];
  if (source === 'doc') {
    for (const text of await corpusTexts()) {
      const named = [...mentioned(text, surfaces)];
      for (const a of named) for (const b of named) if (a < b) pairs.push([a, b]);
    }
  } else {
    for (const { node_id, text } of await profileTexts()) for (const other of mentioned(text, surfaces)) if (other !== node_id) pairs.push([node_id, other]);
  }
  const pools: Pools = new Map();
  if (!pairs.length) return pools;
  for (const r of await edgesJoining(pairs)) pools.set(r.metaedge, [...(pools.get(r.metaedge) ?? []), r.id]);
  return pools;
}

/** Normalised word sequence → node ids, for names and aliases of 4+ characters. */
async function surfaceIndex(): Promise<Map<string, string[]>> {
  const index = new Map<string, string[]>();
  for (const { node_id, surface } of await nodeSurfaces(MIN_ALIAS)) {
    const words = wordTokens(surface).map((t) => t.text);
    if (!words.length || words.length > MAX_NGRAM) continue;
    const key = words.join(' ');
    const ids = index.get(key) ?? [];
    if (!ids.includes(node_id)) ids.push(node_id);
    index.set(key, ids);
  }
  return index;
}

function mentioned(text: string, index: Map<string, string[]>): Set<string> {
  const words = wordTokens(text).map((t) => t.text);
  const found = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    for (let n = Math.min(MAX_NGRAM, words.length - i); n >= 1; n--) {
      const ids = index.get(words.slice(i, i + n).join(' '));
      if (ids) for (const id of ids) found.add(id);
    }
  }
  return found;
}

/**
 * How a family draws its seed edges of a metaedge: uniformly from the KG, or
 * among those the condition's text sources state (`stated`: the family then
 * keeps the drawn edge in its gold graph).
 */
export interface EdgeDraw {
  stated: boolean;
  edges(metaedge: string, n: number, seed: string): Promise<KgTriple[]>;
}

export const drawFromKg: EdgeDraw = { stated: false, edges: (metaedge, n, seed) => sampleEdges(metaedge, n, seed) };

/**
 * Draws seed edges among those every text source of the condition names both
 * ends of (a seeded sample), so the question's first hop is stated in each; a
 * metaedge no source states draws nothing.
 */
export async function drawStated(sources: ('doc' | 'web')[]): Promise<EdgeDraw> {
  const pools = await Promise.all(sources.map(statedPools));
  return {
    stated: true,
    edges: async (metaedge, n, seed) => {
      const [first, ...rest] = pools.map((p) => p.get(metaedge) ?? []);
      const ids = (first ?? []).filter((id) => rest.every((r) => r.includes(id)));
      const random = seededRandom(seed);
      const picked = [...ids]
        .map((id) => ({ id, key: random() }))
        .sort((a, b) => a.key - b.key)
        .slice(0, n)
        .map((x) => x.id);
      return picked.length ? triplesOf(picked) : [];
    },
  };
}
