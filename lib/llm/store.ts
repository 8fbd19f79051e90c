import type { CacheEntry, ResponseCache } from './cache';
import type { EmbeddingCache } from './embedding-cache';
import { z } from 'zod';
import { execute, prepared, queryRow } from '../db/rows';

/**
 * The model caches' store: model responses (ModelCache) and embedding vectors
 * (EmbeddingCache) in PostgreSQL, shared by all workers. The database client loads
 * on first use, not at import, so the model layer can be imported without a database.
 */
let dbClient: Promise<typeof import('../db/client')> | null = null;

/** The database client, imported once: under tsx every `import()` asks its loader thread again, even for a loaded module. */
function database(): Promise<typeof import('../db/client')> {
  return (dbClient ??= import('../db/client'));
}

async function prisma() {
  return (await database()).getPrisma();
}

const READ_RESPONSE = prepared(`select model, output, tokens_in "tokensIn", tokens_out "tokensOut" from model_cache where key = $1`);
const STORE_RESPONSE = prepared(`insert into model_cache (key, model, output, tokens_in, tokens_out) values ($1, $2, $3, $4, $5) on conflict (key) do nothing`);

const CacheRowSchema = z.object({ model: z.string(), output: z.string(), tokensIn: z.number(), tokensOut: z.number() });

/** Model responses by cache key (see cacheKey). Plain SQL: a read before every call and a write after it, kept off the ORM's per-query compile. */
export class PostgresResponseCache implements ResponseCache {
  async get(key: string): Promise<CacheEntry | null> {
    const { getCallPool } = await database();
    return queryRow(getCallPool(), CacheRowSchema, READ_RESPONSE, [key]);
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    // Two calls may answer the same prompt at once (one run's parallel calls, two workers); the first stored answer wins.
    // An upsert races there (both miss, both insert): insert … on conflict do nothing does not.
    const { getCallPool } = await database();
    await execute(getCallPool(), STORE_RESPONSE, [key, entry.model, entry.output, entry.tokensIn, entry.tokensOut]);
  }
}

/** Float32 little-endian bytes: 4 bytes a dimension, a quarter of the JSON text. */
function vectorBytes(vector: Float32Array): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  vector.forEach((x, i) => view.setFloat32(i * 4, x, true));
  return bytes;
}

function bytesVector(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Float32Array.from({ length: bytes.byteLength / 4 }, (_, i) => view.getFloat32(i * 4, true));
}

/** Embedding vectors by model and text hash. */
export class PrismaEmbeddingCache implements EmbeddingCache {
  async get(model: string, hashes: string[]): Promise<Map<string, Float32Array>> {
    if (!hashes.length) return new Map();
    const rows = await (await prisma()).embeddingCache.findMany({ where: { model, textHash: { in: hashes } }, select: { textHash: true, vector: true } });
    return new Map(rows.map((r) => [r.textHash, bytesVector(r.vector)]));
  }

  async set(model: string, vectors: Map<string, Float32Array>): Promise<void> {
    if (!vectors.size) return;
    // Two workers may embed the same text at once; the first stored vector wins.
    await (
      await prisma()
    ).embeddingCache.createMany({
      data: [...vectors].map(([textHash, v]) => ({ model, textHash, vector: vectorBytes(v), dims: v.length })),
      skipDuplicates: true,
    });
  }
}
