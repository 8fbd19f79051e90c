import { z } from 'zod';
import { getPool } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import { normaliseAnswer } from '@/lib/eval/normalise';
import type { KgNode, KgTriple } from '@/lib/kg';
import { latestImport, type ImportRecord } from '@/lib/kg/import/records';

/**
 * The question generators' store (lib/eval/generate): the indexed SQL reads of the
 * graph, its profiles and the corpus they need beside the KG library's traversals.
 * Rows come back parsed.
 */

const NodeRow = z.object({ id: z.string(), kind: z.string(), name: z.string() });
const IdRow = z.object({ id: z.string() });

/** Metaedges with at least one edge in the loaded graph: families adapt to what is there. */
export async function loadedMetaedges(): Promise<Set<string>> {
  const rows = await queryRows(getPool(), z.object({ metaedge: z.string() }), 'select distinct metaedge from node_degrees');
  return new Set(rows.map((r) => r.metaedge));
}

/** Each node's aliases (node_aliases, when imported), minus spellings that normalise to its own name. */
export async function aliasesOf(nodes: KgNode[]): Promise<Map<string, string[]>> {
  const out = new Map(nodes.map((n) => [n.id, [] as string[]]));
  if (!nodes.length) return out;
  const rows = await queryRows(
    getPool(),
    z.object({ node_id: z.string(), alias: z.string() }),
    'select node_id, alias from node_aliases where node_id = any($1::text[]) order by node_id, source, alias',
    [nodes.map((n) => n.id)],
  );
  const names = new Map(nodes.map((n) => [n.id, normaliseAnswer(n.name)]));
  for (const { node_id, alias } of rows) {
    const list = out.get(node_id)!;
    const key = normaliseAnswer(alias);
    if (key && key !== names.get(node_id) && !list.some((a) => normaliseAnswer(a) === key)) list.push(alias);
  }
  return out;
}

/**
 * Distractor candidates: nodes of the answer's kind that take part in the same
 * relation (so they are plausible), closest in name length first, ties broken
 * by a seeded hash so every set draws its own.
 */
export function similarNodes(opts: {
  kind: string;
  metaedge: string;
  nameLength: number;
  excludeIds: string[];
  seed: string;
  limit: number;
}): Promise<KgNode[]> {
  return queryRows(
    getPool(),
    NodeRow,
    `select n.id, n.kind, n.name from nodes n
      where n.kind = $1 and n.id <> all($2::text[])
        and exists (select 1 from node_degrees d where d.node_id = n.id and d.metaedge = $3)
      order by abs(length(n.name) - $4), md5($5 || n.id), n.id
      limit $6`,
    [opts.kind, opts.excludeIds, opts.metaedge, opts.nameLength, opts.seed, opts.limit],
  );
}

/** The candidates joined by some edge (any metaedge, either direction) to every one of the anchors. */
export async function adjacentToAll(candidateIds: string[], anchorIds: string[]): Promise<Set<string>> {
  if (!candidateIds.length || !anchorIds.length) return new Set();
  const rows = await queryRows(
    getPool(),
    IdRow,
    `select c.id from unnest($1::text[]) as c(id)
      where not exists (
        select 1 from unnest($2::text[]) as a(id)
         where not exists (select 1 from edges e where e.source_id = c.id and e.target_id = a.id)
           and not exists (select 1 from edges e where e.source_id = a.id and e.target_id = c.id))`,
    [candidateIds, anchorIds],
  );
  return new Set(rows.map((r) => r.id));
}

/** The graph the database holds now (its latest graph import), or null. */
export function latestGraphImport(): Promise<ImportRecord | null> {
  return latestImport(getPool(), 'graph');
}

const PassageHitRow = z.object({ id: z.string(), document_id: z.string(), external_id: z.string().nullable(), text: z.string() });
export type PassageHit = z.infer<typeof PassageHitRow>;

/**
 * Corpus passages matching the tsquery, best ranked first. Corpus passages only: documents
 * attached to questions or runs are their own context, not the corpus.
 */
export function corpusPassages(tsquery: string, limit: number): Promise<PassageHit[]> {
  return queryRows(
    getPool(),
    PassageHitRow,
    `select p.id, p.document_id, d.external_id, p.text
       from passages p join documents d on d.id = p.document_id
      where d.source not in ('question', 'attached') and p.tsv @@ to_tsquery('english', $1)
      order by ts_rank_cd(p.tsv, to_tsquery('english', $1)) desc, p.id limit $2`,
    [tsquery, limit],
  );
}

const ProfileRowSchema = z.object({ id: z.number(), node_id: z.string(), source: z.string(), text: z.string() });
export type ProfileRow = z.infer<typeof ProfileRowSchema>;

/** The reference records (entity_profiles) of these nodes. */
export function profilesOf(nodeIds: string[]): Promise<ProfileRow[]> {
  return queryRows(
    getPool(),
    ProfileRowSchema,
    'select id, node_id, source, text from entity_profiles where node_id = any($1::text[]) order by node_id, source, id',
    [nodeIds],
  );
}

/** How many texts a source holds: corpus passages (`doc`) or reference records (`web`). */
export async function textCount(source: 'doc' | 'web'): Promise<number> {
  const [row] = await queryRows(
    getPool(),
    z.object({ n: z.number() }),
    source === 'doc' ? `select count(*)::int n from passages` : `select count(*)::int n from entity_profiles`,
  );
  return row.n;
}

/** Every corpus passage's text (not those of documents attached to questions or runs). */
export async function corpusTexts(): Promise<string[]> {
  const rows = await queryRows(
    getPool(),
    z.object({ text: z.string() }),
    `select p.text from passages p join documents d on d.id = p.document_id where d.source not in ('question', 'attached')`,
  );
  return rows.map((r) => r.text);
}

/** Every reference record's node and text. */
export function profileTexts(): Promise<{ node_id: string; text: string }[]> {
  return queryRows(getPool(), z.object({ node_id: z.string(), text: z.string() }), 'select node_id, text from entity_profiles');
}

/** The edges (either direction) joining each pair of nodes, in id order. */
export function edgesJoining(pairs: [string, string][]): Promise<{ id: number; metaedge: string }[]> {
  return queryRows(
    getPool(),
    z.object({ id: z.number(), metaedge: z.string() }),
    `select distinct e.id, e.metaedge from unnest($1::text[], $2::text[]) p(a, b)
       join edges e on (e.source_id = p.a and e.target_id = p.b) or (e.source_id = p.b and e.target_id = p.a)
      order by e.id`,
    [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
  );
}

/** Every node name and alias of at least `minLength` characters, with its node. */
export function nodeSurfaces(minLength: number): Promise<{ node_id: string; surface: string }[]> {
  return queryRows(
    getPool(),
    z.object({ node_id: z.string(), surface: z.string() }),
    `select id node_id, name surface from nodes where length(name) >= $1
     union select node_id, alias from node_aliases where length(alias) >= $1`,
    [minLength],
  );
}

const TripleRow = z.object({
  id: z.number(),
  metaedge: z.string(),
  sid: z.string(),
  sname: z.string(),
  skind: z.string(),
  tid: z.string(),
  tname: z.string(),
  tkind: z.string(),
});

/** These edges with their ends, in the order asked. */
export async function triplesOf(ids: number[]): Promise<KgTriple[]> {
  const rows = await queryRows(
    getPool(),
    TripleRow,
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
