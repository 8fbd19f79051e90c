import { OfflineBackend } from '@/lib/llm/offline-backend';
import { OpenAIBackend } from '@/lib/llm/openai-backend';
import { renderMessages } from '@/lib/llm/messages';
import type { ModelRequest } from '@/lib/llm/types';
import { reply, setScriptedModelEnv, startScriptedOpenAIServer, type RecordedRequest, type ScriptedServer } from './openai-server';

/**
 * A model server for whole runs in model mode: the scripted OpenAI-protocol
 * server answering every chat request, after a fixed delay, with what the
 * offline engine answers to the same role and input. Runs then take the paths
 * offline runs take, through the real openai client, HTTP and the openai
 * backend (response cache, JSON parsing, streaming), with model latency set to
 * `delayMs` per call: wall time against the critical path of the calls shows
 * what a run adds to, and how well it overlaps, a real endpoint's latency.
 *
 * The server sees only the rendered messages; the role and input behind them
 * are taken, in this process, from the openai backend's calls as they go out
 * (keyed by the messages), so the server must run in the process that runs.
 * Also counts the requests in flight at once (`maxInFlight`).
 */
export interface OfflineModelServer {
  server: ScriptedServer;
  /** The most chat requests the server held at once since started (or since `resetInFlight`). */
  maxInFlight(): number;
  resetInFlight(): void;
  /** Restores the backend and the model environment, and closes the server. */
  close(): Promise<void>;
}

export async function startOfflineModelServer(opts: { delayMs: number; model: string }): Promise<OfflineModelServer> {
  const pending = new Map<string, ModelRequest[]>();
  const keyOf = (messages: unknown) => JSON.stringify(messages);
  const original = OpenAIBackend.prototype.call;
  OpenAIBackend.prototype.call = async function <I, O>(this: OpenAIBackend, req: ModelRequest<I, O>) {
    const key = keyOf(renderMessages(req.template, req.input, req.assistantPrefix));
    pending.set(key, [...(pending.get(key) ?? []), req as ModelRequest]);
    try {
      return await original.call(this, req);
    } finally {
      const left = (pending.get(key) ?? []).filter((r) => r !== req);
      if (left.length) pending.set(key, left);
      else pending.delete(key);
    }
  } as typeof original;

  const offline = new OfflineBackend();
  let inFlight = 0;
  let most = 0;
  const answer = async (request: RecordedRequest) => {
    const received = performance.now();
    inFlight++;
    most = Math.max(most, inFlight);
    try {
      const req = pending.get(keyOf(request.body.messages.map((m: { role: string; content: string }) => ({ role: m.role, content: m.content }))))?.[0];
      if (!req) return reply.status(500, { message: 'no call of this process sent these messages' });
      const { text } = await offline.call({ template: req.template, input: req.input, assistantPrefix: req.assistantPrefix });
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, opts.delayMs - (performance.now() - received))));
      return reply.ok(text);
    } finally {
      inFlight--;
    }
  };
  const server = await startScriptedOpenAIServer((request) => answer(request));
  const restoreEnv = setScriptedModelEnv(server, { model: opts.model });
  return {
    server,
    maxInFlight: () => most,
    resetInFlight: () => {
      most = inFlight;
    },
    close: async () => {
      OpenAIBackend.prototype.call = original;
      restoreEnv();
      await server.close();
    },
  };
}
