import type { CacheEntry, ResponseCache } from './cache';
import type { EmbeddingCache } from './embedding-cache';

/**
 * The model caches' store: model responses (ModelCache) and embedding vectors
 * (EmbeddingCache) in PostgreSQL, shared by all workers. Prisma loads on first
 * use, not at import, so the model layer can be imported without a database.
 */
let client: Promise<typeof import('../db/client')> | null = null;
async function prisma() {
  // The module is kept: an import() per cache read costs a module-loader round.
  const { getPrisma } = await (client ??= import('../db/client'));
  return getPrisma();
}

/** Model responses by cache key (see cacheKey). */
export class PrismaResponseCache implements ResponseCache {
  async get(key: string): Promise<CacheEntry | null> {
    const row = await (await prisma()).modelCache.findUnique({ where: { key } });
    return row && { model: row.model, output: row.output, tokensIn: row.tokensIn, tokensOut: row.tokensOut };
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    // Two calls may answer the same prompt at once (one run's parallel calls, two workers); the first stored answer wins.
    // An upsert races there (both miss, both insert): insert … on conflict do nothing does not.
    await (await prisma()).modelCache.createMany({ data: [{ key, ...entry }], skipDuplicates: true });
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
