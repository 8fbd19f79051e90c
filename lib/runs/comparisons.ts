import { getPrisma } from '@/lib/db/client';
import { NotFoundError } from '@/lib/base/errors';
import { newShareId } from './share-id';

export interface ComparisonLink {
  shareId: string;
  runAId: string;
  runBId: string;
}

/**
 * The permalink of a comparison of two runs: one row per ordered pair, created
 * the first time the pair is compared, with an unguessable share id.
 */
export async function shareComparison(runAId: string, runBId: string, ownerId: string | null = null): Promise<ComparisonLink> {
  const prisma = getPrisma();
  const runs = await prisma.run.findMany({ where: { id: { in: [runAId, runBId] } }, select: { id: true } });
  for (const id of [runAId, runBId]) if (!runs.some((r) => r.id === id)) throw new NotFoundError(`No run with id ${id}`);
  const existing = await prisma.comparison.findFirst({ where: { runAId, runBId }, orderBy: { createdAt: 'asc' } });
  if (existing) return pick(existing);
  return pick(await prisma.comparison.create({ data: { shareId: newShareId(), runAId, runBId, ownerId } }));
}

export async function getComparison(shareId: string): Promise<ComparisonLink> {
  const row = await getPrisma().comparison.findUnique({ where: { shareId } });
  if (!row) throw new NotFoundError('No comparison behind this link');
  return pick(row);
}

function pick(row: ComparisonLink): ComparisonLink {
  return { shareId: row.shareId, runAId: row.runAId, runBId: row.runBId };
}
