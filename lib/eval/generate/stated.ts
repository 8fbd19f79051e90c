import { cachedRead } from '@/lib/db/cached-read';
import { getPool } from '@/lib/db/client';
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
  const size = await getPool().query<{ n: string }>(source === 'doc' ? `select count(*) n from passages` : `select count(*) n from entity_profiles`);
  const key = `${source}:${size.rows[0].n}`;
  // Only the current text size's pool is kept: documents attached over a long-lived process would otherwise leave one pool each.
  for (const old of cache.keys()) if (old.startsWith(`${source}:`) && old !== key) cache.delete(old);
  return cachedRead(cache, key, () => scan(source));
}

async function scan(source: 'doc' | 'web'): Promise<Pools> {
  const surfaces = await surfaceIndex();
  const pairs: [string, string][] = [];
  if (source === 'doc') {
    const { rows } = await getPool().query<{ text: string }>(
      `select p.text from passages p join documents d on d.id = p.document_id where d.source not in ('question', 'attached')`,
    );
    for (const { text } of rows) {
      const named = [...mentioned(text, surfaces)];
      for (const a of named) for (const b of named) if (a < b) pairs.push([a, b]);
    }
  } else {
    const { rows } = await getPool().query<{ node_id: string; text: string }>('select node_id, text from entity_profiles');
    for (const { node_id, text } of rows) for (const other of mentioned(text, surfaces)) if (other !== node_id) pairs.push([node_id, other]);
  }
  const pools: Pools = new Map();
  if (!pairs.length) return pools;
  const { rows } = await getPool().query<{ id: number; metaedge: string }>(
    `select distinct e.id, e.metaedge from unnest($1::text[], $2::text[]) p(a, b)
       join edges e on (e.source_id = p.a and e.target_id = p.b) or (e.source_id = p.b and e.target_id = p.a)
      order by e.id`,
    [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
  );
  for (const r of rows) pools.set(r.metaedge, [...(pools.get(r.metaedge) ?? []), r.id]);
  return pools;
}

/** Normalised word sequence → node ids, for names and aliases of 4+ characters. */
async function surfaceIndex(): Promise<Map<string, string[]>> {
  const { rows } = await getPool().query<{ node_id: string; surface: string }>(
    `select id node_id, name surface from nodes where length(name) >= $1
     union select node_id, alias from node_aliases where length(alias) >= $1`,
    [MIN_ALIAS],
  );
  const index = new Map<string, string[]>();
  for (const { node_id, surface } of rows) {
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

async function triplesOf(ids: number[]): Promise<KgTriple[]> {
  const { rows } = await getPool().query<{
    id: number;
    metaedge: string;
    sid: string;
    sname: string;
    skind: string;
    tid: string;
    tname: string;
    tkind: string;
  }>(
    `select e.id, e.metaedge, s.id sid, s.name sname, s.kind skind, t.id tid, t.name tname, t.kind tkind
       from edges e join nodes s on s.id = e.source_id join nodes t on t.id = e.target_id
      where e.id = any($1::int[]) order by array_position($1::int[], e.id)`,
    [ids],
  );
  return rows.map((r) => ({
    edge: { id: r.id, sourceId: r.sid, metaedge: r.metaedge, targetId: r.tid },
    source: { id: r.sid, name: r.sname, kind: r.skind },
    target: { id: r.tid, name: r.tname, kind: r.tkind },
  }));
}
