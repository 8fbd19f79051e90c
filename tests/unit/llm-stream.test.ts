import { afterEach, describe, expect, it } from 'vitest';
import { ModelClient } from '../../lib/llm/client';
import { OpenAIBackend } from '../../lib/llm/openai-backend';
import { streamWithContinuation, type ReasoningWindow } from '../../lib/llm/stream';
import { generateTemplate } from '../../lib/llm/templates';
import type { ModelCallRecord } from '../../lib/llm/types';
import { reply, startScriptedOpenAIServer, type Script, type ScriptedServer } from '../support/scripted-openai-server';

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function setup(script: Script, continueFinalMessage: boolean | 'auto' = false) {
  server = await startScriptedOpenAIServer(script);
  const records: ModelCallRecord[] = [];
  const backend = new OpenAIBackend({ baseUrl: server.baseUrl, apiKey: 'k', model: 'm', timeoutMs: 2_000, continueFinalMessage });
  return { server, records, client: new ModelClient(backend, { recorder: async (r) => void records.push(r) }) };
}

const endsWithAssistant = (body: Record<string, any>) => body.messages.at(-1).role === 'assistant';
/** Ten 5-character chunks, slow enough that a stop lands long before the end. */
const firstPass = Array.from({ length: 10 }, (_, i) => `w${i}xx `);
const input = { question: 'Which gene links asthma and eczema?' };

describe('streamWithContinuation', () => {
  it('stops the stream at a reviewed window, splices the aside in and continues from the assistant prefix', async () => {
    const { server, client, records } = await setup((request) =>
      endsWithAssistant(request.body) ? reply.stream(['and so the answer ', 'is FLG.']) : reply.stream(firstPass, { delayMs: 15 }),
    );
    const aside = ' Wait a minute, by searching information about FLG, I found that FLG is linked to both. ';
    const reviewed: ReasoningWindow[] = [];
    const seen: Array<[string, string]> = [];

    const generation = await streamWithContinuation(client, generateTemplate, input, {
      windowChars: 20,
      overlapChars: 5,
      onText: (text, source) => seen.push([source, text]),
      review: async (window) => {
        reviewed.push(window);
        return reviewed.length === 1 ? aside : null;
      },
    });

    const firstText = generation.calls[0].text;
    expect(generation.calls[0].finishReason).toBe('stopped');
    expect(firstText.length).toBeGreaterThanOrEqual(20);
    expect(firstText.length).toBeLessThan(firstPass.join('').length);
    expect(server.requests[0].closedEarly).toBe(true);

    const continuation = server.requests[1].body;
    expect(continuation.messages.at(-1)).toEqual({ role: 'assistant', content: firstText + aside });
    expect(continuation.messages.slice(0, 2)).toEqual(server.requests[0].body.messages);
    expect(continuation).not.toHaveProperty('continue_final_message');

    expect(generation.text).toBe(firstText + aside + 'and so the answer is FLG.');
    expect(generation.finishReason).toBe('stop');
    const splice = firstText.length;
    expect(generation.segments).toEqual([
      { source: 'model', start: 0, end: splice, call: 0 },
      { source: 'injected', start: splice, end: splice + aside.length, call: null },
      { source: 'model', start: splice + aside.length, end: generation.text.length, call: 1 },
    ]);
    expect(generation.windows[0]).toEqual({ start: 0, end: 20, text: firstText.slice(0, 20), spliced: true });
    // After a splice the monitor starts again after the aside, on model text only.
    expect(generation.windows[1]).toMatchObject({ start: splice + aside.length, spliced: false });
    expect(generation.windows[1].text).toBe('and so the answer is'.slice(0, 20));
    expect(seen.filter(([source]) => source === 'injected')).toEqual([['injected', aside]]);
    expect(seen.map(([, text]) => text).join('')).toBe(generation.text);
    expect(records.map((r) => r.finishReason)).toEqual(['stopped', 'stop']);
  });

  it('reviews overlapping windows and lets the stream run on when no window needs help', async () => {
    const { server, client } = await setup([reply.stream(firstPass)]);
    const windows: ReasoningWindow[] = [];

    const generation = await streamWithContinuation(client, generateTemplate, input, {
      windowChars: 20,
      overlapChars: 5,
      review: async (window) => {
        windows.push(window);
        return null;
      },
    });

    expect(server.requests).toHaveLength(1);
    expect(generation.calls).toHaveLength(1);
    expect(generation.text).toBe(firstPass.join(''));
    expect(windows.map((w) => [w.start, w.end])).toEqual([
      [0, 20],
      [15, 35],
      [30, 50],
    ]);
    expect(windows.every((w) => w.text === generation.text.slice(w.start, w.end))).toBe(true);
  });

  it('stops reviewing once the splice budget is spent', async () => {
    const { server, client } = await setup((request) => (endsWithAssistant(request.body) ? reply.stream(firstPass) : reply.stream(firstPass, { delayMs: 10 })));
    let reviews = 0;

    const generation = await streamWithContinuation(client, generateTemplate, input, {
      windowChars: 20,
      overlapChars: 5,
      maxSplices: 1,
      review: async () => {
        reviews++;
        return ' [aside] ';
      },
    });

    expect(reviews).toBe(1);
    expect(server.requests).toHaveLength(2);
    expect(generation.segments.filter((s) => s.source === 'injected')).toHaveLength(1);
  });

  it('asks vLLM to extend the prefix in place when configured to', async () => {
    const { server, client } = await setup(
      (request) => (endsWithAssistant(request.body) ? reply.stream(['done.']) : reply.stream(firstPass, { delayMs: 10 })),
      true,
    );
    await streamWithContinuation(client, generateTemplate, input, {
      windowChars: 20,
      overlapChars: 5,
      maxSplices: 1,
      review: async () => ' aside ',
    });
    expect(server.requests[0].body).not.toHaveProperty('continue_final_message');
    expect(server.requests[1].body).toMatchObject({ continue_final_message: true, add_generation_prompt: false });
  });

  it('by default (auto) asks the server to continue the prefix, and says the continuation continued', async () => {
    const { server, client } = await setup(
      (request) => (endsWithAssistant(request.body) ? reply.stream(['done.']) : reply.stream(firstPass, { delayMs: 10 })),
      'auto',
    );
    const generation = await streamWithContinuation(client, generateTemplate, input, {
      windowChars: 20,
      overlapChars: 5,
      maxSplices: 1,
      review: async () => ' aside ',
    });
    expect(server.requests[1].body).toMatchObject({ continue_final_message: true, add_generation_prompt: false });
    expect(generation.calls[1].continuation).toBe('continued');
    expect(generation.continuation).toBe('continued');
  });

  it('auto: a server that refuses continue_final_message gets the prefix as a new turn, labelled so, and is not asked again', async () => {
    const { server, client } = await setup((request) => {
      if (request.body.continue_final_message) return reply.status(400, { message: 'Unrecognized request argument supplied: continue_final_message' });
      return endsWithAssistant(request.body) ? reply.stream(['done.']) : reply.stream(firstPass, { delayMs: 10 });
    }, 'auto');
    const run = () =>
      streamWithContinuation(client, generateTemplate, input, { windowChars: 20, overlapChars: 5, maxSplices: 1, review: async () => ' aside ' });
    const generation = await run();
    expect(server.requests.map((r) => !!r.body.continue_final_message)).toEqual([false, true, false]);
    expect(generation.calls[1].continuation).toBe('new-turn');
    expect(generation.continuation).toBe('new-turn');
    expect(generation.text.endsWith('done.')).toBe(true);
    await run();
    expect(server.requests.slice(3).some((r) => r.body.continue_final_message)).toBe(false);
  });

  it('rejects a window overlap as long as the window', async () => {
    const { client } = await setup([]);
    await expect(streamWithContinuation(client, generateTemplate, input, { windowChars: 10, overlapChars: 10, review: async () => null })).rejects.toThrow(
      /overlapChars/,
    );
  });
});
