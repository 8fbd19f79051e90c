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
