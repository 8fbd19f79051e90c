import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { InvalidInputError, NotFoundError } from '@/lib/base/errors';
import { findApiToken, findUserByEmail, insertApiToken, insertUser, touchApiToken } from './store';
import { hashPassword, newApiToken, tokenDigest, verifyPassword } from './passwords';

/** Users and their API tokens, in PostgreSQL. Created from the CLI (`npm run hopscope -- users …`). */

const NewUserSchema = z.object({
  email: z.string().trim().toLowerCase().email().max(320),
  name: z.string().trim().max(200).optional(),
  password: z.string().min(10, 'a password needs at least 10 characters').max(1000),
});

export async function createUser(input: unknown): Promise<{ id: string; email: string }> {
  const parsed = NewUserSchema.safeParse(input);
  if (!parsed.success) throw new InvalidInputError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  const { email, name, password } = parsed.data;
  const existing = await findUserByEmail(email);
  if (existing) throw new InvalidInputError(`a user ${email} exists already`);
  return insertUser({ email, name, passwordHash: await hashPassword(password) });
}

/**
 * The user these credentials belong to, or null: the same answer, in the same
 * time, for an unknown email and a wrong password (an unknown email is checked
 * against a stand-in hash, so scrypt runs either way).
 */
export async function checkCredentials(email: string, password: string): Promise<{ id: string; email: string; name: string | null } | null> {
  const user = await findUserByEmail(email.trim().toLowerCase());
  const matches = await verifyPassword(password, user?.passwordHash ?? (await standInHash()));
  if (!user || !matches) return null;
  return { id: user.id, email: user.email, name: user.name };
}

let standIn: Promise<string> | null = null;
/** A hash of a random password with the same parameters as real ones: what an unknown email is checked against. */
function standInHash(): Promise<string> {
  return (standIn ??= hashPassword(randomUUID() + randomUUID()));
}

/** A new API token for a user: shown once, stored as its digest. */
export async function createApiToken(email: string, name = 'cli'): Promise<string> {
  const user = await findUserByEmail(email.trim().toLowerCase());
  if (!user) throw new NotFoundError(`No user ${email}`);
  const { token, digest } = newApiToken();
  await insertApiToken({ userId: user.id, name, tokenHash: digest });
  return token;
}

export async function userForToken(token: string): Promise<{ id: string; email: string } | null> {
  const row = await findApiToken(tokenDigest(token));
  if (!row) return null;
  void touchApiToken(row.id).catch(() => undefined);
  return row.user;
}
