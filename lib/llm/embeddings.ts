import OpenAI from 'openai';
import { z } from 'zod';
import { textHash, type EmbeddingCache } from './embedding-cache';
import { ModelCallError } from './errors';
import { responseHeaders, toModelCallError } from './openai-errors';
import { backoffDelayMs, DEFAULT_RETRY_POLICY, retryAfterMs, sleep, type RetryPolicy } from './retry';

/**
 * Text embeddings from an OpenAI-compatible /v1/embeddings endpoint through
 * the official client: batched, under the same timeout and retry policy as
 * chat calls, and cached by model and text so no text is embedded twice.
 */

export interface EmbeddingClientOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** One request, from sending to the whole response. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  cache?: EmbeddingCache | null;
  /** Texts per request. */
  batchSize?: number;
}

export interface Embedded {
  /** One vector per text, in order; a blank text gets the zero vector (similar to nothing) without a request. */
  vectors: Float32Array[];
  /** Distinct texts answered by the cache. */
  cached: number;
  /** Distinct texts sent to the endpoint. */
  embedded: number;
  /** HTTP requests made, retries included. */
  requests: number;
}

export const DEFAULT_EMBEDDING_BATCH = 64;

const EmbeddingResponseSchema = z.object({
  data: z.array(z.object({ index: z.number().int().min(0), embedding: z.array(z.number()) })),
});

export class EmbeddingClient {
  private readonly client: OpenAI;
  private readonly retry: RetryPolicy;
  private readonly timeoutMs: number;
  private readonly batchSize: number;
  private readonly cache: EmbeddingCache | null;

  constructor(private readonly options: EmbeddingClientOptions) {
    // maxRetries 0: retries happen here, under the model layer's policy.
    this.client = new OpenAI({ baseURL: options.baseUrl, apiKey: options.apiKey || 'unused', maxRetries: 0 });
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.batchSize = options.batchSize ?? DEFAULT_EMBEDDING_BATCH;
    this.cache = options.cache ?? null;
  }

  get model(): string {
    return this.options.model;
  }

  async embed(texts: string[]): Promise<Embedded> {
    const hashes = texts.map(textHash);
    const wanted = new Map<string, string>();
    texts.forEach((t, i) => t.trim() && wanted.set(hashes[i], t));
    const known = this.cache ? await this.cache.get(this.model, [...wanted.keys()]) : new Map<string, Float32Array>();
    const missing = [...wanted].filter(([h]) => !known.has(h));
    const fresh = new Map<string, Float32Array>();
    let requests = 0;
    for (let at = 0; at < missing.length; at += this.batchSize) {
      const batch = missing.slice(at, at + this.batchSize);
      const { vectors, attempts } = await this.request(batch.map(([, t]) => t));
      requests += attempts;
      batch.forEach(([h], i) => fresh.set(h, vectors[i]));
    }
    await this.cache?.set(this.model, fresh);
    const dims = [...known.values(), ...fresh.values()][0]?.length ?? 0;
    return {
      vectors: hashes.map((h) => known.get(h) ?? fresh.get(h) ?? new Float32Array(dims)),
      cached: known.size,
      embedded: fresh.size,
      requests,
    };
  }

  /** One batch, retried on transient failures as chat calls are. */
  private async request(input: string[]): Promise<{ vectors: Float32Array[]; attempts: number }> {
    for (let attempts = 1; ; attempts++) {
      const outcome = await this.attempt(input);
      if (outcome.ok) return { vectors: outcome.vectors, attempts };
      if (!outcome.error.transient || attempts >= this.retry.maxAttempts) throw outcome.error.withDetails({ attempts, model: this.model });
      await sleep(backoffDelayMs(this.retry, attempts, outcome.retryAfterMs));
    }
  }

  /** One request under a timeout of its own: the SDK's stops at the response headers, while a server can hang in the body. */
  private async attempt(input: string[]): Promise<{ ok: true; vectors: Float32Array[] } | { ok: false; error: ModelCallError; retryAfterMs: number | null }> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.timeoutMs);
    try {
      // 'float' explicitly: the client otherwise asks for base64, which not every compatible server speaks.
      const response = await this.client.embeddings.create({ model: this.model, input, encoding_format: 'float' }, { signal: controller.signal, maxRetries: 0 });
      const parsed = EmbeddingResponseSchema.safeParse(response);
      if (!parsed.success) return { ok: false, error: new ModelCallError('server', `the embedding response is not a list of vectors: ${parsed.error.issues[0]?.message}`), retryAfterMs: null };
      const byIndex = new Map(parsed.data.data.map((d) => [d.index, d.embedding]));
      const vectors = input.map((_, i) => byIndex.get(i));
      const dims = vectors[0]?.length ?? 0;
      if (vectors.some((v) => !v || v.length !== dims || !dims)) {
        return { ok: false, error: new ModelCallError('server', `the embedding response holds ${byIndex.size} vectors of mixed or zero length for ${input.length} texts`), retryAfterMs: null };
      }
      return { ok: true, vectors: vectors.map((v) => Float32Array.from(v!)) };
    } catch (err) {
      const error = timedOut ? new ModelCallError('timeout', `no embedding response within ${this.timeoutMs} ms`) : toModelCallError(err, this.options.apiKey);
      return { ok: false, error, retryAfterMs: retryAfterMs(responseHeaders(err)) };
    } finally {
      clearTimeout(timer);
    }
  }
}
