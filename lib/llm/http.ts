import OpenAI, { type ClientOptions } from 'openai';
import { Agent, fetch as undiciFetch } from 'undici';

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

const agents = new Map<number, Agent>();

/**
 * The `openai` client for an endpoint. maxRetries 0: the model layer retries under its own
 * policy, so every attempt is counted and recorded.
 */
export function openaiClient(options: { baseUrl: string; apiKey?: string; timeoutMs: number }): OpenAI {
  return new OpenAI({ baseURL: options.baseUrl, apiKey: options.apiKey || 'unused', maxRetries: 0, ...modelTransport(options.timeoutMs) });
}

/** The `openai` client's transport for a model timeout: undici's fetch over one shared agent per limit. */
export function modelTransport(timeoutMs: number): Pick<ClientOptions, 'fetch' | 'fetchOptions'> {
  let agent = agents.get(timeoutMs);
  if (!agent) {
    agent = new Agent(socketTimeouts(timeoutMs));
    agents.set(timeoutMs, agent);
  }
  return {
    fetch: undiciFetch as unknown as ClientOptions['fetch'],
    fetchOptions: { dispatcher: agent } as ClientOptions['fetchOptions'],
  };
}
