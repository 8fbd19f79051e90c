import { createHash } from 'node:crypto';

/**
 * Embedding vectors by model and sha256 of the text: a text embedded once is
 * never sent again, so rerunning a question (or an evaluation set) makes no new
 * embedding requests.
 */
export interface EmbeddingCache {
  /** The stored vectors among `hashes`, by hash. */
  get(model: string, hashes: string[]): Promise<Map<string, Float32Array>>;
  set(model: string, vectors: Map<string, Float32Array>): Promise<void>;
}

export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Float32 little-endian bytes: 4 bytes a dimension, a quarter of the JSON text. */
export function vectorBytes(vector: Float32Array): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  vector.forEach((x, i) => view.setFloat32(i * 4, x, true));
  return bytes;
}

export function bytesVector(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Float32Array.from({ length: bytes.byteLength / 4 }, (_, i) => view.getFloat32(i * 4, true));
}

export class MemoryEmbeddingCache implements EmbeddingCache {
  private readonly entries = new Map<string, Float32Array>();

  async get(model: string, hashes: string[]): Promise<Map<string, Float32Array>> {
    const found = new Map<string, Float32Array>();
    for (const h of hashes) {
      const v = this.entries.get(`${model}\n${h}`);
      if (v) found.set(h, v);
    }
    return found;
  }

  async set(model: string, vectors: Map<string, Float32Array>): Promise<void> {
    for (const [h, v] of vectors) this.entries.set(`${model}\n${h}`, v);
  }
}

/** The cache in Postgres (EmbeddingCache), shared by all workers. Prisma loads on first use, not at import. */
export class PrismaEmbeddingCache implements EmbeddingCache {
  private async prisma() {
    const { getPrisma } = await import('../db/client');
    return getPrisma();
  }

  async get(model: string, hashes: string[]): Promise<Map<string, Float32Array>> {
    if (!hashes.length) return new Map();
    const rows = await (await this.prisma()).embeddingCache.findMany({ where: { model, textHash: { in: hashes } }, select: { textHash: true, vector: true } });
    return new Map(rows.map((r) => [r.textHash, bytesVector(r.vector)]));
  }

  async set(model: string, vectors: Map<string, Float32Array>): Promise<void> {
    if (!vectors.size) return;
    // Two workers may embed the same text at once; the first stored vector wins.
    await (await this.prisma()).embeddingCache.createMany({
      data: [...vectors].map(([textHash, v]) => ({ model, textHash, vector: vectorBytes(v), dims: v.length })),
      skipDuplicates: true,
    });
  }
}
