// Every module that declares offline rules: the methods, the parametric channel, the verifier.
import '@/lib/methods/all';
import '@/lib/channels/param';
import '@/lib/verify';
import { OfflineBackend } from '@/lib/llm/offline-backend';
import { getTemplate } from '@/lib/llm/templates/registry';
import { loadMetagraph } from '@/lib/kg/loaded-metagraph';
import type { ModelRequest } from '@/lib/llm/types';
import { reply, startScriptedOpenAIServer, type RecordedRequest } from './openai-server';
import { CALL_HEADER, type FromServer, type ToServer } from './offline-model-server';

/**
 * The offline model server's own process (started by startOfflineModelServer): the scripted
 * OpenAI-protocol server and the offline engine that makes its answers run here, as a remote
 * endpoint's would, so neither takes the runs' event loop nor a run's CPU delays the server's
 * timer. The process that runs sends each call's template id and input once its first request is
 * out; a request, which names its call (CALL_HEADER), is answered after the fixed delay from its
 * receipt with the offline engine's answer to that call.
 */
const delayMs = Number(process.argv[2]);

/** Calls announced and not yet done, by number. */
const announced = new Map<number, ModelRequest>();
/** Requests that arrived before their call's announcement. */
const waiting = new Map<number, (req: ModelRequest) => void>();
const send = (message: FromServer) => process.send!(message);

process.on('message', (message: ToServer) => {
  if (message.type === 'call') {
    const template = getTemplate(message.templateId);
    if (!template) return console.error(`[offline model server] no template ${message.templateId} in this process`);
    const req: ModelRequest = { template, input: message.input, assistantPrefix: message.assistantPrefix };
    announced.set(message.id, req);
    waiting.get(message.id)?.(req);
  } else if (message.type === 'done') {
    announced.delete(message.id);
  } else if (message.type === 'in-flight') {
    if (message.reset) most = inFlight;
    send({ type: 'in-flight', ask: message.ask, most });
  }
});

/** The announced call a request was sent for; one that arrives first waits a while for its announcement. */
function callOf(request: RecordedRequest): Promise<ModelRequest | null> {
  const id = Number(request.headers[CALL_HEADER]);
  const req = announced.get(id);
  if (req || !Number.isInteger(id)) return Promise.resolve(req ?? null);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      resolve(null);
    }, 5_000);
    waiting.set(id, (r) => {
      clearTimeout(timer);
      waiting.delete(id);
      resolve(r);
    });
  });
}

const offline = new OfflineBackend();
let inFlight = 0;
let most = 0;
const answer = async (request: RecordedRequest) => {
  // The delay runs from the request's arrival, as a remote model's time does: reading its body is the server's work.
  const received = request.arrivedAt;
  inFlight++;
  most = Math.max(most, inFlight);
  try {
    const req = await callOf(request);
    if (!req) return reply.status(500, { message: 'no call of the running process sent this request' });
    const { text } = await offline.call(req);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, delayMs - (performance.now() - received))));
    return reply.ok(text);
  } catch (e) {
    // The engine failed as a model server can: the run's call sees a server error.
    return reply.status(500, { message: e instanceof Error ? e.message : String(e) });
  } finally {
    inFlight--;
  }
};

// The engine reads the graph's relations from its metagraph, as the runs' process does (lib/runs/executor.ts).
void loadMetagraph()
  .then(() => startScriptedOpenAIServer((request) => answer(request)))
  .then((server) => {
    send({ type: 'ready', baseUrl: server.baseUrl });
    // The process that started it ended or closed it.
    process.on('disconnect', () => void server.close().then(() => process.exit(0)));
  });
