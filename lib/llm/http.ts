import type OpenAI from 'openai';
import type { ClientOptions } from 'openai';
import { importOpenai } from './openai-module';
import type { Agent } from 'undici';

/** Slack past the model layer's own timeout, so the socket never gives up first. */
const SOCKET_SLACK_MS = 5_000;

/**
 * The socket limits for requests under a model timeout. Node's fetch gives up after
 * 300 s without response headers whatever the client's timeout says, so a slow
 * non-streaming model (or a hand-answered relay) was cut and re-sent every five
 * minutes; the model layer's timeout (an abort) must be the only limit.
 */
export function socketTimeouts(timeoutMs: number): { headersTimeout: number; bodyTimeout: number } {
  const limit = timeoutMs + SOCKET_SLACK_MS;
  return { headersTimeout: limit, bodyTimeout: limit };
}

const agents = new Map<number, Promise<Agent>>();
let undiciModule: Promise<typeof import('undici')> | null = null;

/** undici, imported once: under tsx every `import()` asks its loader thread again, even for a loaded module (a round trip per request). */
function undici(): Promise<typeof import('undici')> {
  return (undiciModule ??= import('undici'));
}

/**
 * The shared connection pool for a model timeout. undici is loaded with the first request, not with
 * this module: a process that makes no model call (an offline run, a CLI command) never pays for it.
 */
export function modelAgent(timeoutMs: number): Promise<Agent> {
  let agent = agents.get(timeoutMs);
  if (!agent) {
    agent = undici().then(({ Agent }) => new Agent(socketTimeouts(timeoutMs)));
    agents.set(timeoutMs, agent);
  }
  return agent;
}

/**
 * The `openai` client for an endpoint. maxRetries 0: the model layer retries under its own
 * policy, so every attempt is counted and recorded.
 */
export async function openaiClient(options: { baseUrl: string; apiKey?: string; timeoutMs: number }): Promise<OpenAI> {
  const { default: OpenAI } = await importOpenai();
  return new OpenAI({ baseURL: options.baseUrl, apiKey: options.apiKey || 'unused', maxRetries: 0, ...modelTransport(options.timeoutMs) });
}

/** The `openai` client's transport for a model timeout: undici's fetch over one shared agent per limit. */
export function modelTransport(timeoutMs: number): Pick<ClientOptions, 'fetch'> {
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    const [{ fetch: undiciFetch }, dispatcher] = await Promise.all([undici(), modelAgent(timeoutMs)]);
    return undiciFetch(url as Parameters<typeof undiciFetch>[0], { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher });
  };
  return { fetch: fetch as unknown as ClientOptions['fetch'] };
}
