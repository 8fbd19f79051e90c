import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryResponseCache } from '../../lib/llm/cache';
import { ModelClient } from '../../lib/llm/client';
import { ModelCallError } from '../../lib/llm/errors';
import { OpenAIBackend, type OpenAIBackendOptions } from '../../lib/llm/openai-backend';
import { defineTemplate, generateTemplate, judgeTemplate } from '../../lib/llm/templates';
import type { CallRecorder, ModelCallRecord } from '../../lib/llm/types';
import { reply, startScriptedOpenAIServer, type Script, type ScriptedServer, type ScriptedServerOptions } from '../support/scripted-openai-server';

const API_KEY = 'sk-test-4f9a1c-never-show-me';
const judgeInput = { question: 'Does aspirin treat headache?', criterion: 'names a drug', reasoning: 'Aspirin is a drug.' };
const goodVerdict = '{"verdict":"yes","reason":"aspirin is named"}';

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function setup(script: Script, options: Partial<OpenAIBackendOptions> = {}, serverOptions: ScriptedServerOptions = {}) {
  server = await startScriptedOpenAIServer(script, serverOptions);
  const records: ModelCallRecord[] = [];
  const backend = new OpenAIBackend({
    baseUrl: server.baseUrl,
    apiKey: API_KEY,
    model: 'test-model',
    timeoutMs: 2_000,
    retry: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 5_000 },
    ...options,
  });
  const client = new ModelClient(backend, { recorder: async (record) => void records.push(record) });
  return { server, client, records };
}

async function failure(promise: Promise<unknown>): Promise<ModelCallError> {
  const error = await promise.then(
    () => null,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(ModelCallError);
  return error as ModelCallError;
}

describe('OpenAIBackend against a scripted OpenAI-compatible server', () => {
  it('returns parsed JSON output with the usage the server reported, and records the call', async () => {
    const { server, client, records } = await setup([reply.ok(goodVerdict, { usage: { prompt_tokens: 42, completion_tokens: 7 } })]);

    const result = await client.call(judgeTemplate, judgeInput);

    expect(result.parsed).toEqual({ verdict: 'yes', reason: 'aspirin is named' });
    expect(result).toMatchObject({
      tokensIn: 42,
      tokensOut: 7,
      tokensEstimated: false,
      attempts: 1,
      cached: false,
      backend: 'openai',
      model: 'test-model',
      finishReason: 'stop',
    });
    const body = server.requests[0].body;
    expect(body.model).toBe('test-model');
    expect(body.temperature).toBe(0);
    expect(body).not.toHaveProperty('top_p');
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'generic_judge', strict: false } });
    expect(body.response_format.json_schema.schema.properties.verdict.enum).toEqual(['yes', 'no']);
    expect(body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
    expect(body.messages[1].content).toContain('Criterion: names a drug');
    expect(body.messages[1].content).toContain('Answer in JSON matching this schema');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      role: 'judge',
      template: 'generic.judge',
      templateVersion: 1,
      output: goodVerdict,
      parsed: result.parsed,
      attempts: 1,
      error: null,
    });
  });

  it('estimates tokens when the server reports no usage, and says so', async () => {
    const { client } = await setup([reply.ok(goodVerdict, { usage: null })]);
    const result = await client.call(judgeTemplate, judgeInput);
    expect(result.tokensEstimated).toBe(true);
    expect(result.tokensOut).toBe(Math.ceil(goodVerdict.length / 4));
    expect(result.tokensIn).toBeGreaterThan(20);
  });

  it('assembles a streamed answer and hands each delta to onDelta', async () => {
    const chunks = ['Aspirin inhibits ', 'COX enzymes. ', 'Answer: aspirin'];
    const { server, client } = await setup([reply.stream(chunks, { delayMs: 5, usage: { prompt_tokens: 30, completion_tokens: 9 } })]);
    const deltas: string[] = [];

    const result = await client.call(generateTemplate, { question: 'What treats headache?' }, { stream: { onDelta: (d) => deltas.push(d) } });

    expect(deltas).toEqual(chunks);
    expect(result.text).toBe(chunks.join(''));
    expect(result).toMatchObject({ parsed: null, finishReason: 'stop', tokensIn: 30, tokensOut: 9, tokensEstimated: false });
    expect(server.requests[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(server.requests[0].body).not.toHaveProperty('response_format');
  });

  it('repairs malformed JSON with one more request that shows the model its mistake', async () => {
    const bad = 'Sure! {"verdict": "maybe", reason: no quotes}';
    const { server, client, records } = await setup([reply.ok(bad), reply.ok('```json\n{"verdict":"no","reason":"fixed"}\n```')]);

    const result = await client.call(judgeTemplate, judgeInput);

    expect(result.parsed).toEqual({ verdict: 'no', reason: 'fixed' });
    expect(result.attempts).toBe(2);
    const repair = server.requests[1].body.messages;
    expect(repair).toHaveLength(4);
    expect(repair[2]).toEqual({ role: 'assistant', content: bad });
    expect(repair[3].role).toBe('user');
    expect(repair[3].content).toContain('could not be used');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ attempts: 2, error: null, tokensIn: 20, tokensOut: 10 });
    expect(records[0].messages).toHaveLength(4);
  });

  it('fails with invalid_output, keeping the raw text, when the repair is invalid too', async () => {
    const { client, records } = await setup([reply.ok('not json at all'), reply.ok('{"verdict":"perhaps","reason":"x"}')]);

    const error = await failure(client.call(judgeTemplate, judgeInput));

    expect(error.kind).toBe('invalid_output');
    expect(error.details.rawText).toBe('{"verdict":"perhaps","reason":"x"}');
    expect(error.details.attempts).toBe(2);
    expect(records).toHaveLength(1);
    expect(records[0].error).toMatch(/^invalid_output: output does not match generic\.judge/);
    expect(records[0].output).toBe('{"verdict":"perhaps","reason":"x"}');
    expect(records[0].parsed).toBeNull();
  });

  it('waits as long as a 429 Retry-After asks, then succeeds', async () => {
    const { server, client, records } = await setup([reply.status(429, { retryAfter: 1 }), reply.ok(goodVerdict)]);

    const result = await client.call(judgeTemplate, judgeInput);

    expect(result.parsed?.verdict).toBe('yes');
    expect(result.attempts).toBe(2);
    expect(server.requests[1].receivedAt - server.requests[0].receivedAt).toBeGreaterThanOrEqual(950);
    expect(records[0].attempts).toBe(2);
  });

  it('caps a long Retry-After at the configured maximum delay', async () => {
    const { client } = await setup([reply.status(429, { retryAfter: 30 }), reply.ok(goodVerdict)], {
      retry: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 200 },
    });
    const started = Date.now();
    await client.call(judgeTemplate, judgeInput);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('gives up after the attempt budget on repeated 500s, records the failure and throws kind server', async () => {
    const { server, client, records } = await setup([reply.status(500), reply.status(502), reply.status(500), reply.ok(goodVerdict)]);

    const error = await failure(client.call(judgeTemplate, judgeInput));

    expect(error.kind).toBe('server');
    expect(error.details.attempts).toBe(3);
    expect(server.requests).toHaveLength(3);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ attempts: 3, output: null, parsed: null, template: 'generic.judge' });
    expect(records[0].error).toMatch(/^server: /);
  });

  it('retries a dropped connection and a malformed response body', async () => {
    const { server, client } = await setup([reply.drop(), reply.malformed(), reply.ok(goodVerdict)]);
    const result = await client.call(judgeTemplate, judgeInput);
    expect(result.parsed?.verdict).toBe('yes');
    expect(result.attempts).toBe(3);
    expect(server.requests).toHaveLength(3);
  });

  it('turns a hanging server into a timeout error quickly, retrying within the budget', async () => {
    const { server, client, records } = await setup([reply.hang(), reply.hang()], {
      timeoutMs: 300,
      retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 100 },
    });
    const started = Date.now();

    const error = await failure(client.call(judgeTemplate, judgeInput));

    expect(error.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(server.requests).toHaveLength(2);
    expect(records[0]).toMatchObject({ attempts: 2 });
    expect(records[0].error).toMatch(/^timeout: /);
  });

  it('times out a stream that goes silent, and does not replay text the caller already has', async () => {
    const { server, client, records } = await setup([reply.stream(['first words ', 'never sent'], { stallAfter: 1 }), reply.ok('retried')], { timeoutMs: 300 });
    const deltas: string[] = [];
    const started = Date.now();

    const error = await failure(client.call(generateTemplate, { question: 'q' }, { stream: { onDelta: (d) => deltas.push(d) } }));

    expect(error.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(deltas).toEqual(['first words ']);
    expect(server.requests).toHaveLength(1);
    expect(records[0]).toMatchObject({ attempts: 1 });
  });

  it('lets a slow but steady stream run longer than the timeout, which bounds silence, not length', async () => {
    const chunks = ['a ', 'b ', 'c ', 'd ', 'e ', 'f'];
    const { client } = await setup([reply.stream(chunks, { delayMs: 100 })], { timeoutMs: 300 });
    const started = Date.now();
    const result = await client.call(generateTemplate, { question: 'q' }, { stream: {} });
    expect(Date.now() - started).toBeGreaterThan(500);
    expect(result.text).toBe('a b c d e f');
  });

  it('falls back to plain prompting when the server rejects response_format, and remembers it', async () => {
    const { server, client } = await setup(
      [reply.ok(goodVerdict), reply.ok('{"verdict":"no","reason":"second"}')],
      {},
      { unsupportedParams: ['response_format'] },
    );

    const first = await client.call(judgeTemplate, judgeInput);
    const second = await client.call(judgeTemplate, { ...judgeInput, criterion: 'other' });

    expect(first.parsed).toEqual({ verdict: 'yes', reason: 'aspirin is named' });
    expect(first.attempts).toBe(2);
    expect(server.requests[0].body).toHaveProperty('response_format');
    expect(server.requests[1].body).not.toHaveProperty('response_format');
    expect(server.requests[1].body.messages[1].content).toContain('Answer in JSON matching this schema');
    expect(second.parsed?.reason).toBe('second');
    expect(second.attempts).toBe(1);
    expect(server.requests).toHaveLength(3);
  });

  it('answers an identical deterministic call from the cache, still recording it', async () => {
    const { server, client, records } = await setup([reply.ok(goodVerdict, { usage: { prompt_tokens: 11, completion_tokens: 4 } })], {
      cache: new MemoryResponseCache(),
    });

    const first = await client.call(judgeTemplate, judgeInput);
    const second = await client.call(judgeTemplate, judgeInput);

    expect(server.requests).toHaveLength(1);
    expect(first.cached).toBe(false);
    expect(second).toMatchObject({ cached: true, parsed: first.parsed, text: goodVerdict, tokensIn: 11, tokensOut: 4, attempts: 0 });
    expect(second.latencyMs).toBeLessThan(50);
    expect(records.map((r) => r.cached)).toEqual([false, true]);
  });

  it("tells the call's recorder once its request is out, and never for a call the cache answers (no request is sent)", async () => {
    const { server, client } = await setup([reply.ok(goodVerdict)], { cache: new MemoryResponseCache() });
    const events: string[] = [];
    const recorder: CallRecorder = async (record) => void events.push(record.cached ? 'recorded from the cache' : 'recorded');
    recorder.sent = () => events.push('sent');

    await client.call(judgeTemplate, judgeInput, { recorder });
    await client.call(judgeTemplate, judgeInput, { recorder });

    expect(events).toEqual(['sent', 'recorded', 'recorded from the cache']);
    expect(server.requests).toHaveLength(1);
  });

  it('lets work wait for the requests of the calls started beside it to be out (past their cache reads), not for their answers', async () => {
    const events: string[] = [];
    const cache = new MemoryResponseCache();
    const get = cache.get.bind(cache);
    cache.get = async (key) => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      events.push('cache read');
      return get(key);
    };
    const { server, client } = await setup([reply.ok(goodVerdict, { delayMs: 300 })], { cache });

    const call = client.call(judgeTemplate, judgeInput).then(() => events.push('answered'));
    await client.requestsOut();
    events.push('requests out');
    await call;

    expect(events).toEqual(['cache read', 'requests out', 'answered']);
    expect(server.requests).toHaveLength(1);
  });

  it('does not cache sampled calls, whose answers are meant to differ', async () => {
    const { server, client } = await setup([reply.ok(goodVerdict), reply.ok('{"verdict":"no","reason":"sampled"}')], { cache: new MemoryResponseCache() });
    const params = { temperature: 0.7 };
    await client.call(judgeTemplate, judgeInput, { params });
    const second = await client.call(judgeTemplate, judgeInput, { params });
    expect(server.requests).toHaveLength(2);
    expect(second.parsed?.reason).toBe('sampled');
    expect(server.requests[1].body.temperature).toBe(0.7);
  });

  it('never lets the API key out, even when the server echoes it in an error', async () => {
    const { server, client, records } = await setup((request) =>
      reply.status(401, { message: `Incorrect API key provided: ${request.headers.authorization}` }),
    );

    const error = await failure(client.call(judgeTemplate, judgeInput));

    expect(server.requests[0].headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(error.kind).toBe('config');
    expect(server.requests).toHaveLength(1);
    expect(error.message).toContain('[redacted]');
    for (const text of [error.message, error.stack ?? '', JSON.stringify(error.details), JSON.stringify(records), JSON.stringify(client.describe())]) {
      expect(text).not.toContain(API_KEY);
    }
  });

  it('keeps the API key out of successful results and records too', async () => {
    const { client, records } = await setup([reply.ok(goodVerdict)]);
    const result = await client.call(judgeTemplate, judgeInput);
    expect(JSON.stringify(result)).not.toContain(API_KEY);
    expect(JSON.stringify(records)).not.toContain(API_KEY);
  });

  it('does not retry a request the server refuses as such', async () => {
    const { server, client } = await setup([reply.status(400, { message: 'maximum context length exceeded' }), reply.ok(goodVerdict)]);
    const error = await failure(client.call(judgeTemplate, judgeInput));
    expect(error.kind).toBe('rejected');
    expect(server.requests).toHaveLength(1);
  });

  it('stops at once when the caller cancels, even mid-retry-wait', async () => {
    const { server, client, records } = await setup([reply.hang(), reply.ok(goodVerdict)], { timeoutMs: 5_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const started = Date.now();

    const error = await failure(client.call(judgeTemplate, judgeInput, { signal: controller.signal }));

    expect(error.kind).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(server.requests).toHaveLength(1);
    expect(records[0].error).toMatch(/^aborted: /);
  });

  it('uses the model configured for the role', async () => {
    const { server, client } = await setup([reply.ok(goodVerdict)], { roleModels: { judge: 'small-judge' } });
    const result = await client.call(judgeTemplate, judgeInput);
    expect(server.requests[0].body.model).toBe('small-judge');
    expect(result.model).toBe('small-judge');
  });
});

describe('ModelClient', () => {
  it('records and wraps a backend failure that is not a ModelCallError as internal', async () => {
    const records: ModelCallRecord[] = [];
    const broken = {
      name: 'offline' as const,
      describe: () => ({ backend: 'offline' as const, model: 'offline-engine' }),
      call: async () => {
        throw new TypeError('rule table missing');
      },
    };
    const client = new ModelClient(broken, { recorder: async (r) => void records.push(r) });
    const template = defineTemplate({
      role: 'check',
      id: 'test.client-check',
      version: 3,
      system: 's',
      render: (i: { x: number }) => `x=${i.x}`,
      output: z.object({ ok: z.boolean() }),
    });

    const error = await failure(client.call(template, { x: 1 }));

    expect(error.kind).toBe('internal');
    expect(error.message).toBe('rule table missing');
    expect(records).toEqual([
      expect.objectContaining({
        role: 'check',
        template: 'test.client-check',
        templateVersion: 3,
        backend: 'offline',
        model: 'offline-engine',
        error: 'internal: rule table missing',
        output: null,
      }),
    ]);
    expect(records[0].messages[1].content).toContain('x=1');
  });
});
