import { getPool } from '@/lib/db/client';
import { normaliseAnswer } from '@/lib/eval/normalise';
import type { KgNode } from '@/lib/kg';

/** The few indexed SQL reads the generators need beside the KG library's traversals. */

/** Metaedges with at least one edge in the loaded graph: families adapt to what is there. */
export async function loadedMetaedges(): Promise<Set<string>> {
  const { rows } = await getPool().query<{ metaedge: string }>('select distinct metaedge from node_degrees');
  return new Set(rows.map((r) => r.metaedge));
}

/** Each node's aliases (node_aliases, when imported), minus spellings that normalise to its own name. */
export async function aliasesOf(nodes: KgNode[]): Promise<Map<string, string[]>> {
  const out = new Map(nodes.map((n) => [n.id, [] as string[]]));
  if (!nodes.length) return out;
  const { rows } = await getPool().query<{ node_id: string; alias: string }>(
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
export async function similarNodes(opts: {
  kind: string;
  metaedge: string;
  nameLength: number;
  excludeIds: string[];
  seed: string;
  limit: number;
}): Promise<KgNode[]> {
  const { rows } = await getPool().query<KgNode>(
    `select n.id, n.kind, n.name from nodes n
      where n.kind = $1 and n.id <> all($2::text[])
        and exists (select 1 from node_degrees d where d.node_id = n.id and d.metaedge = $3)
      order by abs(length(n.name) - $4), md5($5 || n.id), n.id
      limit $6`,
    [opts.kind, opts.excludeIds, opts.metaedge, opts.nameLength, opts.seed, opts.limit],
  );
  return rows;
}

/** The candidates joined by some edge (any metaedge, either direction) to every one of the anchors. */
export async function adjacentToAll(candidateIds: string[], anchorIds: string[]): Promise<Set<string>> {
  if (!candidateIds.length || !anchorIds.length) return new Set();
  const { rows } = await getPool().query<{ id: string }>(
    `select c.id from unnest($1::text[]) as c(id)
      where not exists (
        select 1 from unnest($2::text[]) as a(id)
         where not exists (select 1 from edges e where e.source_id = c.id and e.target_id = a.id)
           and not exists (select 1 from edges e where e.source_id = a.id and e.target_id = c.id))`,
    [candidateIds, anchorIds],
  );
  return new Set(rows.map((r) => r.id));
}
