import { getPrisma } from '@/lib/db/client';

/** Comparisons of two runs: one permalink row per ordered pair. */

export interface ComparisonLink {
  shareId: string;
  runAId: string;
  runBId: string;
}

const link = { select: { shareId: true, runAId: true, runBId: true } };

/** The first comparison of this ordered pair; null when the pair was never compared. */
export async function findComparison(runAId: string, runBId: string): Promise<ComparisonLink | null> {
  const prisma = await getPrisma();
  return prisma.comparison.findFirst({ where: { runAId, runBId }, orderBy: { createdAt: 'asc' }, ...link });
}

export async function insertComparison(row: ComparisonLink & { ownerId: string | null }): Promise<ComparisonLink> {
  const prisma = await getPrisma();
  return prisma.comparison.create({ data: row, ...link });
}

export async function comparisonByShare(shareId: string): Promise<ComparisonLink | null> {
  const prisma = await getPrisma();
  return prisma.comparison.findUnique({ where: { shareId }, ...link });
}
