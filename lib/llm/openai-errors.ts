import type { APIError } from 'openai';
import { ModelCallError, type ModelErrorKind } from './errors';
import { redactSecret } from './redact';
import { loadedOpenai } from './openai-module';

/** Request parameters some OpenAI-compatible servers reject; the backend stops sending them after the first refusal. */
export type OptionalParam = 'response_format' | 'stream_options' | 'continue_final_message';

const PARAM_MENTIONS: Record<OptionalParam, RegExp> = {
  response_format: /response_format|json_schema/i,
  stream_options: /stream_options|include_usage/i,
  continue_final_message: /continue_final_message|add_generation_prompt/i,
};

function kindForStatus(status: number): ModelErrorKind {
  if (status === 429) return 'rate_limit';
  if (status === 408) return 'timeout';
  if (status >= 500) return 'server';
  if (status === 401 || status === 403 || status === 404) return 'config';
  return 'rejected';
}

function kindOf(err: unknown): ModelErrorKind {
  const api = loadedOpenai();
  if (api && err instanceof api.APIConnectionTimeoutError) return 'timeout';
  if (api && err instanceof api.APIConnectionError) return 'network';
  // An error event inside a stream carries no status: the server failed mid-answer.
  if (isApiError(err)) return err.status ? kindForStatus(err.status) : 'server';
  // A 200 whose body or SSE chunk is not JSON: the server, not the network, is at fault.
  if (err instanceof SyntaxError || (api && err instanceof api.OpenAIError)) return 'server';
  return 'network';
}

/** An error the `openai` client raised for an answer; none can exist before the package is loaded (./openai-module.ts). */
function isApiError(err: unknown): err is APIError {
  const api = loadedOpenai();
  return !!api && err instanceof api.APIError;
}

export function toModelCallError(err: unknown, secret: string | undefined): ModelCallError {
  const message = redactSecret(err instanceof Error ? err.message : String(err), secret);
  const status = isApiError(err) && typeof err.status === 'number' ? err.status : null;
  return new ModelCallError(kindOf(err), message, { status });
}

/** Which optional parameter a 400/422 refusal is about, if any. */
export function refusedParam(err: unknown, sent: OptionalParam[]): OptionalParam | null {
  if (!isApiError(err) || (err.status !== 400 && err.status !== 422)) return null;
  const text = `${err.message} ${JSON.stringify(err.error ?? '')}`;
  return sent.find((param) => PARAM_MENTIONS[param].test(text)) ?? null;
}

export function responseHeaders(err: unknown): Headers | undefined {
  return isApiError(err) ? err.headers : undefined;
}
