import pg from 'pg';
import type { PrismaClient } from './generated/client';
import { databaseUrl } from './url';

/**
 * One Prisma client and one raw pg pool per process. Hot KG queries use the pool
 * directly (plain parameterised SQL); everything else goes through Prisma.
 */
const globalForDb = globalThis as unknown as { hopscopePrisma?: Promise<PrismaClient>; hopscopePool?: pg.Pool; hopscopeCallPool?: pg.Pool };

export { databaseUrl };

/**
 * A connection the server dropped (PostgreSQL restarted, a network blip) is
 * logged and discarded; the pool opens new ones when asked. Without a handler
 * the error of an idle connection would end the process.
 */
function logConnectionError(err: Error) {
  console.error(`[db] connection lost: ${err.message} (new connections are opened as needed)`);
}

function openPool(max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl(), max });
  pool.on('error', logConnectionError);
  return pool;
}

export function getPool(): pg.Pool {
  globalForDb.hopscopePool ??= openPool(10);
  return globalForDb.hopscopePool;
}

/**
 * A small pool of its own for the model's response cache: a call's cache read stands between its prompt and its request,
 * and on the shared pool it queued behind the run's own graph reads (kg-rag reads its neighbourhood while its recall call
 * goes out), holding the request back by their length.
 */
export function getCallPool(): pg.Pool {
  globalForDb.hopscopeCallPool ??= openPool(4);
  return globalForDb.hopscopeCallPool;
}

/**
 * The Prisma client, made on first use with its modules: a process that only runs questions (`hopscope run`, whose
 * run rows are plain SQL) or reads what is stored in plain SQL never loads Prisma's runtime and adapter (~0.15 s).
 */
export function getPrisma(): Promise<PrismaClient> {
  globalForDb.hopscopePrisma ??= Promise.all([import('./generated/client'), import('@prisma/adapter-pg')]).then(
    ([{ PrismaClient }, { PrismaPg }]) =>
      new PrismaClient({
        adapter: new PrismaPg({ connectionString: databaseUrl(), max: 10 }, { onPoolError: logConnectionError, onConnectionError: logConnectionError }),
      }),
  );
  return globalForDb.hopscopePrisma;
}

/** Writes sent behind the work that made them (an ended run's trace pack): closing the database waits for them. */
const behind = new Set<Promise<void>>();

/** Sends a write behind: nobody waits for it but `writesBehind` and `closeDb`, and nobody sees its failure. */
export function sendBehind(write: Promise<void>): void {
  const settled = write.then(
    () => void behind.delete(settled),
    () => void behind.delete(settled),
  );
  behind.add(settled);
}

/** Resolves once every write sent behind so far has settled. */
export async function writesBehind(): Promise<void> {
  await Promise.allSettled([...behind]);
}

export async function closeDb(): Promise<void> {
  await writesBehind();
  const { hopscopePrisma, hopscopePool, hopscopeCallPool } = globalForDb;
  globalForDb.hopscopePrisma = undefined;
  globalForDb.hopscopePool = undefined;
  globalForDb.hopscopeCallPool = undefined;
  await Promise.all([hopscopePrisma?.then((client) => client.$disconnect()), hopscopePool?.end(), hopscopeCallPool?.end()]);
}

export type { PrismaClient };
