import { getPool } from '@/lib/db/client';
import type { KgNode } from '@/lib/kg';

/**
 * X-R2's shuffled-KG control: the anchor is replaced by a node of the same kind
 * picked by a seeded hash, so the run sees the same amount of KG evidence about
 * an unrelated question. Deterministic for (anchor, seed).
 */
export async function shuffledAnchor(anchor: KgNode, seed: number): Promise<KgNode> {
  const { rows } = await getPool().query<KgNode>(
    `select id, kind, name from nodes
      where kind = $1 and degree > 0 and id <> $2
      order by md5(id || $3) limit 1`,
    [anchor.kind, anchor.id, `${seed}:${anchor.id}`],
  );
  return rows[0] ?? anchor;
}
