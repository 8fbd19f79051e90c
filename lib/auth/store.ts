import type { OwnerFilter } from '@/lib/base/owners';
import { getPrisma } from '@/lib/db/client';

/**
 * The auth store: users, their API tokens, and the owner of a run or an evaluation
 * (what lib/auth/access checks a viewer against).
 */

/** The owner of a run: undefined when there is no such run, null when it has none. */
export async function runOwner(runId: string): Promise<string | null | undefined> {
  const prisma = await getPrisma();
  const run = await prisma.run.findUnique({ where: { id: runId }, select: { ownerId: true } });
  return run ? run.ownerId : undefined;
}

/** The owner of an evaluation: undefined when there is no such evaluation, null when it has none. */
export async function evalJobOwner(jobId: string): Promise<string | null | undefined> {
  const prisma = await getPrisma();
  const job = await prisma.evalJob.findUnique({ where: { id: jobId }, select: { ownerId: true } });
  return job ? job.ownerId : undefined;
}

/** How many of these runs the filter lets through. */
export async function countRuns(ids: string[], owners: OwnerFilter): Promise<number> {
  const prisma = await getPrisma();
  return prisma.run.count({ where: { id: { in: ids }, ...owners } });
}

/** How many evaluations with this id the filter lets through (0 or 1). */
export async function countEvalJobs(id: string, owners: OwnerFilter): Promise<number> {
  const prisma = await getPrisma();
  return prisma.evalJob.count({ where: { id, ...owners } });
}

export interface StoredUser {
  id: string;
  email: string;
  name: string | null;
  passwordHash: string;
}

export async function findUserByEmail(email: string): Promise<StoredUser | null> {
  const prisma = await getPrisma();
  return prisma.user.findUnique({ where: { email }, select: { id: true, email: true, name: true, passwordHash: true } });
}

export async function insertUser(user: { email: string; name?: string; passwordHash: string }): Promise<{ id: string; email: string }> {
  const prisma = await getPrisma();
  return prisma.user.create({ data: user, select: { id: true, email: true } });
}

export async function insertApiToken(token: { userId: string; name: string; tokenHash: string }): Promise<void> {
  const prisma = await getPrisma();
  await prisma.apiToken.create({ data: token });
}

/** The token with this digest (and its user), or null. */
export async function findApiToken(tokenHash: string): Promise<{ id: string; user: { id: string; email: string } } | null> {
  const prisma = await getPrisma();
  return prisma.apiToken.findUnique({ where: { tokenHash }, select: { id: true, user: { select: { id: true, email: true } } } });
}

export async function touchApiToken(id: string): Promise<void> {
  const prisma = await getPrisma();
  await prisma.apiToken.update({ where: { id }, data: { lastUsedAt: new Date() } });
}
