import { NotFoundError } from '@/lib/base/errors';
import { newShareId } from './share-id';
import { existingRunIds } from './store/runs';
import { comparisonByShare, findComparison, insertComparison, type ComparisonLink } from './store/comparisons';

/**
 * The permalink of a comparison of two runs: one row per ordered pair, created
 * the first time the pair is compared, with an unguessable share id.
 */
export async function shareComparison(runAId: string, runBId: string, ownerId: string | null = null): Promise<ComparisonLink> {
  const runs = await existingRunIds([runAId, runBId]);
  for (const id of [runAId, runBId]) if (!runs.has(id)) throw new NotFoundError(`No run with id ${id}`);
  return (await findComparison(runAId, runBId)) ?? insertComparison({ shareId: newShareId(), runAId, runBId, ownerId });
}

export async function getComparison(shareId: string): Promise<ComparisonLink> {
  const row = await comparisonByShare(shareId);
  if (!row) throw new NotFoundError('No comparison behind this link');
  return row;
}
