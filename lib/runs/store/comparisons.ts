import { getPrisma } from '@/lib/db/client';

/** Comparisons of two runs: one permalink row per ordered pair. */

export interface ComparisonLink {
  shareId: string;
  runAId: string;
  runBId: string;
}

const link = { select: { shareId: true, runAId: true, runBId: true } };

/** The first comparison of this ordered pair; null when the pair was never compared. */
export function findComparison(runAId: string, runBId: string): Promise<ComparisonLink | null> {
  return getPrisma().comparison.findFirst({ where: { runAId, runBId }, orderBy: { createdAt: 'asc' }, ...link });
}

export function insertComparison(row: ComparisonLink & { ownerId: string | null }): Promise<ComparisonLink> {
  return getPrisma().comparison.create({ data: row, ...link });
}

export function comparisonByShare(shareId: string): Promise<ComparisonLink | null> {
  return getPrisma().comparison.findUnique({ where: { shareId }, ...link });
}
