import type OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { ModelCallError } from './errors';
import { refusedParam, responseHeaders, toModelCallError, type OptionalParam } from './openai-errors';
import { retryAfterMs } from './retry';
import type { FinishReason, StreamControl } from './types';

/**
 * One HTTP request to a chat-completions endpoint, streamed or not, under a
 * timeout this module owns: the SDK's own timeout stops at the response
 * headers, while a server can hang in the body or between stream chunks.
 */

export interface AttemptSpec {
  /** Made when the backend is: the `openai` package loads with it. */
  client: Promise<OpenAI>;
  /** The request body; stream flags are added here when `stream` is given. Extra server-specific keys pass through. */
  body: ChatCompletionCreateParamsNonStreaming & Record<string, unknown>;
  stream: StreamControl | null;
  /** Also ask for usage in the final stream chunk. */
  streamUsage: boolean;
  /** Non-streamed: the whole request; streamed: the longest silence between chunks. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Optional parameters present in the body, so a refusal naming one can be recognised. */
  optionalParams: OptionalParam[];
  apiKey?: string;
}

export interface Usage {
  tokensIn: number;
  tokensOut: number;
}

export type AttemptOutcome =
  | { ok: true; text: string; finishReason: FinishReason; usage: Usage | null }
  | {
      ok: false;
      error: ModelCallError;
      retryAfterMs: number | null;
      refusedParam: OptionalParam | null;
      /** Text already handed to onDelta; such an attempt cannot be replayed invisibly. */
      deliveredText: string;
    };

function finishReasonOf(reason: string | null | undefined): FinishReason {
  return reason === 'stop' || reason === 'length' ? reason : 'other';
}

function usageOf(usage: { prompt_tokens: number; completion_tokens: number } | null | undefined): Usage | null {
  return usage ? { tokensIn: usage.prompt_tokens, tokensOut: usage.completion_tokens } : null;
}

/** Errors thrown by the caller's own callbacks (a monitor call failing) pass through untouched. */
class CallbackFailure {
  constructor(readonly error: unknown) {}
}

async function invoke<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw new CallbackFailure(error);
  }
}

export async function runAttempt(spec: AttemptSpec): Promise<AttemptOutcome> {
  const controller = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, spec.timeoutMs);
  };
  const disarm = () => clearTimeout(timer);
  const onCallerAbort = () => controller.abort();
  spec.signal?.addEventListener('abort', onCallerAbort, { once: true });
  let delivered = '';

  const interrupted = (): ModelCallError | null => {
    if (timedOut) return new ModelCallError('timeout', `no response from the model server within ${spec.timeoutMs} ms`);
    if (spec.signal?.aborted) return new ModelCallError('aborted', 'the call was cancelled');
    return null;
  };
  const failure = (error: ModelCallError, cause?: unknown): AttemptOutcome => ({
    ok: false,
    error,
    retryAfterMs: retryAfterMs(responseHeaders(cause)),
    refusedParam: refusedParam(cause, spec.optionalParams),
    deliveredText: delivered,
  });

  const requestOptions = { signal: controller.signal, maxRetries: 0 };
  const client = await spec.client;
  arm();
  try {
    if (!spec.stream) {
      const completion = await client.chat.completions.create(spec.body, requestOptions);
      const choice = completion?.choices?.[0];
      if (!choice) return failure(new ModelCallError('server', 'the server answered without any choice'));
      return { ok: true, text: choice.message?.content ?? '', finishReason: finishReasonOf(choice.finish_reason), usage: usageOf(completion.usage) };
    }

    const control = spec.stream;
    const stream = await client.chat.completions.create(
      { ...spec.body, stream: true, ...(spec.streamUsage ? { stream_options: { include_usage: true } } : {}) },
      requestOptions,
    );
    let finishReason: FinishReason = 'other';
    let usage: Usage | null = null;
    for await (const chunk of stream) {
      arm();
      usage = usageOf(chunk.usage) ?? usage;
      const choice = chunk.choices?.[0];
      if (choice?.finish_reason) finishReason = finishReasonOf(choice.finish_reason);
      const piece = choice?.delta?.content;
      if (!piece) continue;
      delivered += piece;
      if (control.onDelta) await invoke(() => control.onDelta!(piece));
      if (!control.shouldStop) continue;
      disarm(); // a monitor decision may take a model call of its own
      const soFar = delivered;
      if (await invoke(() => control.shouldStop!(soFar))) return { ok: true, text: delivered, finishReason: 'stopped', usage };
      arm();
    }
    // The SDK ends a stream quietly when it is aborted, so a timeout or a cancel shows up only here.
    const cut = interrupted();
    if (cut) return failure(cut);
    return { ok: true, text: delivered, finishReason, usage };
  } catch (err) {
    if (err instanceof CallbackFailure) throw err.error;
    return failure(interrupted() ?? toModelCallError(err, spec.apiKey), err);
  } finally {
    disarm();
    spec.signal?.removeEventListener('abort', onCallerAbort);
  }
}
