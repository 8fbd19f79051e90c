import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { closeDb } from '@/lib/db/client';
import { MemoryEmbeddingCache } from '@/lib/llm/embedding-cache';
import { PrismaEmbeddingCache } from '@/lib/llm/store';
import { EmbeddingClient } from '@/lib/llm/embeddings';
import { ModelCallError } from '@/lib/llm/errors';
import type { ModelCallRecord } from '@/lib/llm/types';
import { lexicalSimilarity } from '@/lib/llm/offline/lexical';
import { EmbeddingSimilarity, vectorCosine } from '@/lib/llm/similarity';
import { createSimilarity, describeBackend } from '@/lib/runs/backend';
import { bagOfWordsVector, reply, startScriptedOpenAIServer, setScriptedModelEnv, type ScriptedServer } from '../support/scripted-openai-server';

afterAll(closeDb);

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const embeddingRequests = (s: ScriptedServer) => s.requests.filter((r) => r.path.endsWith('/embeddings'));
const TEXTS = ['multiple sclerosis associates IL7R', 'Crohn disease associates NOD2', 'IL7R', 'metformin treats type 2 diabetes', 'NOD2 interacts with RIPK2'];

describe('EmbeddingClient against the scripted server', () => {
  it('embeds through the openai client in batches, and a rerun takes every vector from Postgres', async () => {
    server = await startScriptedOpenAIServer([]);
    const model = `emb-${randomUUID()}`;
    const client = () => new EmbeddingClient({ baseUrl: server!.baseUrl, apiKey: 'sk-emb-test', model, batchSize: 2, cache: new PrismaEmbeddingCache() });

    const first = await client().embed([...TEXTS, TEXTS[0]]);
    expect(first).toMatchObject({ cached: 0, embedded: 5, requests: 3 });
    const sent = embeddingRequests(server);
    expect(sent.map((r) => r.body.input)).toEqual([TEXTS.slice(0, 2), TEXTS.slice(2, 4), TEXTS.slice(4)]);
    expect(sent.every((r) => r.body.model === model && r.body.encoding_format === 'float' && r.headers.authorization === 'Bearer sk-emb-test')).toBe(true);
    TEXTS.forEach((t, i) => expect([...first.vectors[i]]).toEqual([...Float32Array.from(bagOfWordsVector(t))]));
    expect(first.vectors[5]).toEqual(first.vectors[0]);

    const again = await client().embed(TEXTS);
    expect(again).toMatchObject({ cached: 5, embedded: 0, requests: 0 });
    expect(embeddingRequests(server)).toHaveLength(3);
    again.vectors.forEach((v, i) => expect(v).toEqual(first.vectors[i]));
  });

  it('gives a blank text the zero vector without asking the endpoint', async () => {
    server = await startScriptedOpenAIServer([]);
    const got = await new EmbeddingClient({ baseUrl: server.baseUrl, model: `emb-${randomUUID()}` }).embed(['IL7R', '  ']);
    expect(embeddingRequests(server).map((r) => r.body.input)).toEqual([['IL7R']]);
    expect(got.vectors[1]).toHaveLength(got.vectors[0].length);
    expect(got.vectors[1].every((x) => x === 0)).toBe(true);
  });

  it('retries a transient failure, and fails at once on a refusal, the key kept out of the message', async () => {
    server = await startScriptedOpenAIServer([], {
      embeddings: { replies: [reply.status(503, { retryAfter: 0 }), { kind: 'vectors' }, reply.status(401, { message: 'bad key sk-emb-secret' })] },
    });
    const client = new EmbeddingClient({ baseUrl: server.baseUrl, apiKey: 'sk-emb-secret', model: `emb-${randomUUID()}`, retry: { baseDelayMs: 1 } });
    expect(await client.embed(['IL7R'])).toMatchObject({ embedded: 1, requests: 2 });
    const error = await client.embed(['NOD2']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ kind: 'config', details: { attempts: 1 } });
    expect((error as Error).message).not.toContain('sk-emb-secret');
    expect(embeddingRequests(server)).toHaveLength(3);
  });

  it('records each request as a model call with the tokens the endpoint counted, the key kept out', async () => {
    server = await startScriptedOpenAIServer([]);
    const calls: ModelCallRecord[] = [];
    const client = new EmbeddingClient({ baseUrl: server.baseUrl, apiKey: 'sk-emb-recorded', model: `emb-${randomUUID()}`, batchSize: 3 });
    await client.embed(TEXTS, async (call) => void calls.push(call));
    expect(calls.map((c) => [c.role, c.template, c.backend, c.attempts, c.error])).toEqual([
      ['embed', 'embeddings', 'openai', 1, null],
      ['embed', 'embeddings', 'openai', 1, null],
    ]);
    // The scripted server counts a token per word, as its usage says.
    const words = (texts: string[]) => texts.reduce((n, t) => n + t.split(/\s+/).length, 0);
    expect(calls.map((c) => [c.tokensIn, c.tokensEstimated])).toEqual([
      [words(TEXTS.slice(0, 3)), false],
      [words(TEXTS.slice(3)), false],
    ]);
    expect(calls[0].messages).toEqual([{ role: 'user', content: TEXTS.slice(0, 3).join('\n') }]);
    expect(JSON.stringify(calls)).not.toContain('sk-emb-recorded');
  });

  it('files cached vectors by endpoint as well as model name: the same name elsewhere is embedded anew', async () => {
    server = await startScriptedOpenAIServer([]);
    const other = await startScriptedOpenAIServer([]);
    try {
      const cache = new MemoryEmbeddingCache();
      const model = `emb-${randomUUID()}`;
      await new EmbeddingClient({ baseUrl: server.baseUrl, model, cache }).embed(TEXTS);
      expect(await new EmbeddingClient({ baseUrl: other.baseUrl, model, cache }).embed(TEXTS)).toMatchObject({ cached: 0, embedded: 5 });
      expect(embeddingRequests(other)).toHaveLength(1);
      expect(await new EmbeddingClient({ baseUrl: `${server.baseUrl}/`, model, cache }).embed(TEXTS)).toMatchObject({ cached: 5, embedded: 0 });
    } finally {
      await other.close();
    }
  });

  it('gives up on a request that hangs after its timeout, and retries it', async () => {
    server = await startScriptedOpenAIServer([], { embeddings: { replies: [reply.hang(), { kind: 'vectors' }] } });
    const client = new EmbeddingClient({ baseUrl: server.baseUrl, model: `emb-${randomUUID()}`, timeoutMs: 200, retry: { baseDelayMs: 1 } });
    expect(await client.embed(['IL7R'])).toMatchObject({ embedded: 1, requests: 2 });
  });
});

describe('EmbeddingSimilarity', () => {
  it('compares by the cosine of the endpoint vectors and says so', async () => {
    server = await startScriptedOpenAIServer([]);
    const model = `emb-${randomUUID()}`;
    const similarity = new EmbeddingSimilarity(new EmbeddingClient({ baseUrl: server.baseUrl, model }));
    const query = 'Which genes are associated with multiple sclerosis?';
    const c = await similarity.compare(TEXTS, [query]);
    expect(c.used).toMatchObject({ kind: `embedding:${model}`, vectors: { texts: 6, embedded: 6, requests: 1 } });
    const cos = (a: string, b: string) => vectorCosine(Float32Array.from(bagOfWordsVector(a)), Float32Array.from(bagOfWordsVector(b)));
    c.relevance(query).forEach((s, i) => expect(s).toBeCloseTo(cos(query, TEXTS[i]), 6));
    expect(c.between(TEXTS[0], TEXTS[2])).toBeCloseTo(cos(TEXTS[0], TEXTS[2]), 6);
    // The run's vectors are kept: comparing the same texts again asks for nothing.
    expect((await similarity.compare(TEXTS.slice(0, 2))).used.vectors).toEqual({ texts: 2, cached: 0, embedded: 0, requests: 0 });
    expect(embeddingRequests(server)).toHaveLength(1);
  });

  it('falls back to lexical for the rest of the run when the endpoint fails, and records why', async () => {
    server = await startScriptedOpenAIServer([], { embeddings: { replies: () => reply.status(500, { message: 'embedding model not loaded' }) } });
    const similarity = new EmbeddingSimilarity(
      new EmbeddingClient({ baseUrl: server.baseUrl, model: `emb-${randomUUID()}`, retry: { maxAttempts: 2, baseDelayMs: 1 } }),
    );
    const c = await similarity.compare(TEXTS);
    expect(c.used.kind).toBe('lexical');
    expect(c.used.why).toMatch(/^fallback: the embedding endpoint failed \(server: .*embedding model not loaded.*\); lexical for the rest of this run$/);
    expect(c.between(TEXTS[0], TEXTS[2])).toBeCloseTo(lexicalSimilarity(TEXTS[0], TEXTS[2]), 9);
    expect(embeddingRequests(server)).toHaveLength(2);
    expect((await similarity.compare(['NOD2'])).used.why).toContain('fallback: the embedding endpoint failed');
    expect(embeddingRequests(server)).toHaveLength(2);
  });
});

describe('a run’s similarity from the configuration', () => {
  it('records the embedding model with an openai run, and labels lexical where there is none', async () => {
    server = await startScriptedOpenAIServer([]);
    const model = `emb-${randomUUID()}`;
    let restore = setScriptedModelEnv(server, { embeddingModel: model, apiKey: 'sk-run-key' });
    try {
      const described = describeBackend('openai');
      expect(described).toMatchObject({ backend: 'openai', embeddingModel: model });
      expect(JSON.stringify(described)).not.toContain('sk-run-key');
      expect(createSimilarity(described).current().kind).toBe(`embedding:${model}`);
      expect(createSimilarity(describeBackend('offline')).current()).toMatchObject({ kind: 'lexical', why: 'offline engine: no embedding endpoint' });
    } finally {
      restore();
    }
    restore = setScriptedModelEnv(server);
    try {
      expect(describeBackend('openai').embeddingModel).toBeUndefined();
      expect(createSimilarity(describeBackend('openai')).current()).toMatchObject({ kind: 'lexical', why: 'fallback: no HOPSCOPE_EMBEDDING_MODEL' });
      // A run started with an embedding model that is gone now says so rather than silently going lexical.
      expect(createSimilarity({ backend: 'openai', model: 'm', embeddingModel: model }).current().why).toContain(`started with embedding model ${model}`);
    } finally {
      restore();
    }
  });
});
