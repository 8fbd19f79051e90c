import type OpenAI from 'openai';
import { z } from 'zod';
import { textHash, type EmbeddingCache } from './embedding-cache';
import { ModelCallError } from './errors';
import { openaiClient } from './http';
import { estimateTokens } from './tokens';
import type { CallRecorder, ModelCallRecord } from './types';
import { responseHeaders, toModelCallError } from './openai-errors';
import { backoffDelayMs, DEFAULT_RETRY_POLICY, retryAfterMs, sleep, type RetryPolicy } from './retry';

/**
 * Text embeddings from an OpenAI-compatible /v1/embeddings endpoint through
 * the official client: batched, under the same timeout and retry policy as
 * chat calls, and cached by endpoint, model and text so no text is embedded
 * twice. Each request is a model call: given a recorder, it is recorded with
 * its texts, tokens, latency and attempts (never the key or the endpoint's
 * credentials).
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

/** The endpoint as a cache namespace: scheme, host and path, never credentials or query. */
function endpointOf(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return baseUrl.replace(/\/\/[^/@]*@/, '//').replace(/[?#].*$/, '');
  }
}

export const DEFAULT_EMBEDDING_BATCH = 64;

const EmbeddingResponseSchema = z.object({
  data: z.array(z.object({ index: z.number().int().min(0), embedding: z.array(z.number()) })),
  usage: z.object({ prompt_tokens: z.number().int().min(0) }).nullish(),
});

export class EmbeddingClient {
  private readonly client: Promise<OpenAI>;
  private readonly retry: RetryPolicy;
  private readonly timeoutMs: number;
  private readonly batchSize: number;
  private readonly cache: EmbeddingCache | null;

  constructor(private readonly options: EmbeddingClientOptions) {
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.client = openaiClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, timeoutMs: this.timeoutMs });
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.batchSize = options.batchSize ?? DEFAULT_EMBEDDING_BATCH;
    this.cache = options.cache ?? null;
  }

  get model(): string {
    return this.options.model;
  }

  /** Where cached vectors are filed: the same model name at another endpoint may be another model. */
  get cacheKey(): string {
    return `${endpointOf(this.options.baseUrl)} ${this.model}`;
  }

  async embed(texts: string[], recorder?: CallRecorder | null): Promise<Embedded> {
    const hashes = texts.map(textHash);
    const wanted = new Map<string, string>();
    texts.forEach((t, i) => t.trim() && wanted.set(hashes[i], t));
    const known = this.cache ? await this.cache.get(this.cacheKey, [...wanted.keys()]) : new Map<string, Float32Array>();
    const missing = [...wanted].filter(([h]) => !known.has(h));
    const fresh = new Map<string, Float32Array>();
    let requests = 0;
    for (let at = 0; at < missing.length; at += this.batchSize) {
      const batch = missing.slice(at, at + this.batchSize);
      const input = batch.map(([, t]) => t);
      const started = Date.now();
      let result: Awaited<ReturnType<EmbeddingClient['request']>>;
      try {
        result = await this.request(input);
      } catch (err) {
        const error = err instanceof ModelCallError ? err : null;
        await recorder?.(
          this.callRecord(input, {
            started,
            attempts: error?.details.attempts ?? 1,
            tokens: null,
            error: error ? `${error.kind}: ${error.message}` : String(err),
          }),
        );
        throw err;
      }
      requests += result.attempts;
      await recorder?.(
        this.callRecord(input, { started, attempts: result.attempts, tokens: result.tokens, error: null, dims: result.vectors[0]?.length ?? 0 }),
      );
      batch.forEach(([h], i) => fresh.set(h, result.vectors[i]));
    }
    await this.cache?.set(this.cacheKey, fresh);
    const dims = [...known.values(), ...fresh.values()][0]?.length ?? 0;
    return {
      vectors: hashes.map((h) => known.get(h) ?? fresh.get(h) ?? new Float32Array(dims)),
      cached: known.size,
      embedded: fresh.size,
      requests,
    };
  }

  /** One request as the run's model-call record: the texts sent, the tokens the endpoint counted (else estimated). */
  private callRecord(input: string[], r: { started: number; attempts: number; tokens: number | null; error: string | null; dims?: number }): ModelCallRecord {
    const text = input.join('\n');
    return {
      role: 'embed',
      template: 'embeddings',
      templateVersion: 1,
      backend: 'openai',
      model: this.model,
      messages: [{ role: 'user', content: text }],
      output: r.error ? null : `${input.length} vector(s) of ${r.dims} dimensions`,
      parsed: null,
      tokensIn: r.tokens ?? estimateTokens(text),
      tokensOut: 0,
      tokensEstimated: r.tokens === null,
      latencyMs: Date.now() - r.started,
      startedAt: new Date(r.started),
      cached: false,
      attempts: r.attempts,
      finishReason: null,
      error: r.error,
    };
  }

  /** One batch, retried on transient failures as chat calls are. */
  private async request(input: string[]): Promise<{ vectors: Float32Array[]; attempts: number; tokens: number | null }> {
    for (let attempts = 1; ; attempts++) {
      const outcome = await this.attempt(input);
      if (outcome.ok) return { vectors: outcome.vectors, attempts, tokens: outcome.tokens };
      if (!outcome.error.transient || attempts >= this.retry.maxAttempts) throw outcome.error.withDetails({ attempts, model: this.model });
      await sleep(backoffDelayMs(this.retry, attempts, outcome.retryAfterMs));
    }
  }

  /** One request under a timeout of its own: the SDK's stops at the response headers, while a server can hang in the body. */
  private async attempt(
    input: string[],
  ): Promise<{ ok: true; vectors: Float32Array[]; tokens: number | null } | { ok: false; error: ModelCallError; retryAfterMs: number | null }> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.timeoutMs);
    try {
      const client = await this.client;
      // 'float' explicitly: the client otherwise asks for base64, which not every compatible server speaks.
      const response = await client.embeddings.create({ model: this.model, input, encoding_format: 'float' }, { signal: controller.signal, maxRetries: 0 });
      const parsed = EmbeddingResponseSchema.safeParse(response);
      if (!parsed.success)
        return {
          ok: false,
          error: new ModelCallError('server', `the embedding response is not a list of vectors: ${parsed.error.issues[0]?.message}`),
          retryAfterMs: null,
        };
      const byIndex = new Map(parsed.data.data.map((d) => [d.index, d.embedding]));
      const vectors = input.map((_, i) => byIndex.get(i));
      const dims = vectors[0]?.length ?? 0;
      if (vectors.some((v) => !v || v.length !== dims || !dims)) {
        return {
          ok: false,
          error: new ModelCallError('server', `the embedding response holds ${byIndex.size} vectors of mixed or zero length for ${input.length} texts`),
          retryAfterMs: null,
        };
      }
      return { ok: true, vectors: vectors.map((v) => Float32Array.from(v!)), tokens: parsed.data.usage?.prompt_tokens ?? null };
    } catch (err) {
      const error = timedOut ? new ModelCallError('timeout', `no embedding response within ${this.timeoutMs} ms`) : toModelCallError(err, this.options.apiKey);
      return { ok: false, error, retryAfterMs: retryAfterMs(responseHeaders(err)) };
    } finally {
      clearTimeout(timer);
    }
  }
}
