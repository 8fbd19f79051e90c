import { AsyncLocalStorage } from 'node:async_hooks';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Agent, type Dispatcher } from 'undici';
import { OpenAIBackend } from '@/lib/llm/openai-backend';
import { setScriptedModelEnv } from './openai-server';

/**
 * A model server for whole runs in model mode: the scripted OpenAI-protocol
 * server answering every chat request, after a fixed delay, with what the
 * offline engine answers to the same role and input. Runs then take the paths
 * offline runs take, through the real openai client, HTTP and the openai
 * backend (response cache, JSON parsing, streaming), with model latency set to
 * `delayMs` per call: wall time against the critical path of the calls shows
 * what a run adds to, and how well it overlaps, a real endpoint's latency.
 *
 * The server and the offline engine run in a process of their own
 * (offline-model-server-process.ts), as a remote endpoint does: a run's CPU
 * while a call is in flight does not delay the server's receipt or its timer,
 * and the engine's work is not the run's. This process tells it each call's
 * template id and input once the call's first request is out, and the call's
 * HTTP requests carry its number (CALL_HEADER, added by the transport), so the
 * server answers each request for the call that sent it. Also counts the
 * requests in flight at once.
 */
export interface OfflineModelServer {
  baseUrl: string;
  /** The most chat requests the server held at once since started (or since `resetInFlight`). */
  maxInFlight(): Promise<number>;
  resetInFlight(): Promise<void>;
  /** Restores the backend and the model environment, and ends the server's process. */
  close(): Promise<void>;
}

/** What this process tells the server's. */
export type ToServer =
  | { type: 'call'; id: number; templateId: string; input: unknown; assistantPrefix?: string }
  | { type: 'done'; id: number }
  | { type: 'in-flight'; ask: number; reset: boolean };
/** What the server's process answers. */
export type FromServer = { type: 'ready'; baseUrl: string } | { type: 'in-flight'; ask: number; most: number };

/** The request header naming the call a request was sent for. */
export const CALL_HEADER = 'x-scripted-call';
const ENTRY = fileURLToPath(new URL('./offline-model-server-process.ts', import.meta.url));
const START_TIMEOUT_MS = 120_000;

export async function startOfflineModelServer(opts: { delayMs: number; model: string }): Promise<OfflineModelServer> {
  // tsx runs the entry's TypeScript; structured clones carry inputs as they are (Maps included).
  const child = fork(ENTRY, [String(opts.delayMs)], {
    execArgv: ['--import', 'tsx'],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const send = (message: ToServer) => {
    if (child.connected) child.send(message);
  };
  const asked = new Map<number, (most: number) => void>();
  let ready: (baseUrl: string) => void;
  const started = new Promise<string>((resolve, reject) => {
    ready = resolve;
    child.once('exit', (code) => reject(new Error(`the offline model server's process exited (code ${code}) before it served`)));
    setTimeout(() => reject(new Error('the offline model server did not start in time')), START_TIMEOUT_MS).unref();
  });
  child.on('message', (message: FromServer) => {
    if (message.type === 'ready') ready(message.baseUrl);
    else asked.get(message.ask)?.(message.most);
  });
  let baseUrl: string;
  try {
    baseUrl = await started;
  } catch (e) {
    child.kill();
    throw e;
  }

  let calls = 0;
  /** The call a request is sent for, and its announcement until its first request goes out. */
  const calling = new AsyncLocalStorage<{ id: number; announce: (() => void) | null }>();
  const original = OpenAIBackend.prototype.call;
  OpenAIBackend.prototype.call = async function (this: OpenAIBackend, req) {
    const id = ++calls;
    const call = {
      id,
      announce: () => send({ type: 'call', id, templateId: req.template.id, input: req.input, assistantPrefix: req.assistantPrefix }),
    };
    try {
      return await calling.run(call, () => original.call(this, req));
    } finally {
      // A call the response cache answered sent no request and was never announced.
      if (!call.announce) setImmediate(() => send({ type: 'done', id }));
    }
  } as typeof original;
  // The model transport (lib/llm/http.ts: undici's fetch over an Agent) sends a call's requests inside its context.
  // The call's input goes to the server's process once its first request is out (the server waits for it): its
  // structured clone is the harness's work, not the run's, so it takes the run's event loop while the call is in flight.
  const dispatch = Agent.prototype.dispatch;
  Agent.prototype.dispatch = function (this: Agent, options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandlers) {
    const call = calling.getStore();
    if (!call) return dispatch.call(this, options, handler);
    const sent = dispatch.call(this, { ...options, headers: withHeader(options.headers, CALL_HEADER, String(call.id)) }, handler);
    const announce = call.announce;
    call.announce = null;
    if (announce) setImmediate(announce);
    return sent;
  };

  let asks = 0;
  const inFlight = (reset: boolean) =>
    new Promise<number>((resolve) => {
      const ask = ++asks;
      asked.set(ask, (most) => {
        asked.delete(ask);
        resolve(most);
      });
      send({ type: 'in-flight', ask, reset });
    });
  const restoreEnv = setScriptedModelEnv({ baseUrl }, { model: opts.model });
  return {
    baseUrl,
    maxInFlight: () => inFlight(false),
    resetInFlight: async () => {
      await inFlight(true);
    },
    close: async () => {
      OpenAIBackend.prototype.call = original;
      Agent.prototype.dispatch = dispatch;
      restoreEnv();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      await exited;
    },
  };
}

function withHeader(headers: Dispatcher.DispatchOptions['headers'], name: string, value: string): Dispatcher.DispatchOptions['headers'] {
  if (!headers) return { [name]: value };
  if (Array.isArray(headers)) return [...headers, name, value];
  if (Symbol.iterator in headers) return [...(headers as Iterable<[string, string | string[] | undefined]>), [name, value]];
  return { ...headers, [name]: value };
}
