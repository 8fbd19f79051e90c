import net from 'node:net';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { describe, expect, it } from 'vitest';
import { mapError } from '@/lib/api/errors';
import { isConnectionLoss } from '@/lib/db/connection-loss';
import { PrismaClient } from '@/lib/db/generated/client';
import { InvalidInputError } from '@/lib/base/errors';

/** A port nothing listens on: bound, read, and closed again. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function errorOf(action: () => Promise<unknown>): Promise<unknown> {
  try {
    await action();
  } catch (error) {
    return error;
  }
  throw new Error('expected the action to fail');
}

describe('a database that does not answer', () => {
  it('is told apart from a wrong query, whether pg or Prisma reports it, and the API answers 503 asking to retry', async () => {
    const url = `postgres://nobody:nothing@127.0.0.1:${await closedPort()}/none`;
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    pool.on('error', () => {});
    const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 1 }) });
    try {
      const fromPg = await errorOf(() => pool.query('select 1'));
      const fromPrisma = await errorOf(() => prisma.run.findFirst());
      for (const error of [fromPg, fromPrisma]) {
        expect(isConnectionLoss(error)).toBe(true);
        const mapped = mapError(error);
        expect(mapped.status).toBe(503);
        expect(mapped.body.error).toMatch(/try again/);
        // The connection string (user, port) stays in the server log.
        expect(JSON.stringify(mapped.body)).not.toMatch(/nobody|127\.0\.0\.1/);
      }
    } finally {
      await Promise.all([pool.end(), prisma.$disconnect()]);
    }
  });

  it('is not claimed for other failures', () => {
    expect(isConnectionLoss(new InvalidInputError('bad'))).toBe(false);
    expect(isConnectionLoss(Object.assign(new Error('syntax error at or near "selct"'), { code: '42601' }))).toBe(false);
    expect(mapError(new Error('boom')).status).toBe(500);
  });
});
