import type OpenAI from 'openai';
import { cacheKey, type ResponseCache } from './cache';
import { ModelCallError } from './errors';
import { openaiClient } from './http';
import { parseStructured } from './json-output';
import { redactModelText } from '@/lib/base/redact';
import { renderMessages, repairMessages } from './messages';
import { runAttempt, type AttemptSpec, type Usage } from './openai-attempt';
import type { OptionalParam } from './openai-errors';
import { backoffDelayMs, DEFAULT_RETRY_POLICY, sleep, type RetryPolicy } from './retry';
import { estimatePromptTokens, estimateTokens } from './tokens';
import type {
  BackendDescription,
  ChatMessage,
  FinishReason,
  ModelBackend,
  ModelParams,
  ModelRequest,
  ModelResult,
  RoleName,
  RoleTemplate,
  StreamControl,
} from './types';

export interface OpenAIBackendOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** A different model for some roles (e.g. a small one for the monitor). */
  roleModels?: Partial<Record<RoleName, string>>;
  /** See AttemptSpec.timeoutMs. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  cache?: ResponseCache | null;
  /**
   * With an assistant prefix, send vLLM's continue_final_message /
   * add_generation_prompt so the server extends that message instead of
   * opening a new turn. 'auto' (the default) sends them until a server refuses
   * them once; false never sends them. Each continuation says which it was.
   */
  continueFinalMessage?: boolean | 'auto';
}

export const DEFAULT_TIMEOUT_MS = 60_000;

/** Running totals over every request one call makes (retries, fallbacks, the repair). */
class CallTally {
  attempts = 0;
  tokensIn = 0;
  tokensOut = 0;
  tokensEstimated = false;

  addUsage(usage: Usage | null, messages: ChatMessage[], text: string) {
    this.tokensIn += usage?.tokensIn ?? estimatePromptTokens(messages);
    this.tokensOut += usage?.tokensOut ?? estimateTokens(text);
    if (!usage) this.tokensEstimated = true;
  }
}

interface Exchange {
  text: string;
  finishReason: FinishReason;
  /** With an assistant prefix: whether the accepted request asked the server to continue it. */
  continued: boolean;
}

interface ExchangeSpec {
  model: string;
  messages: ChatMessage[];
  params: ModelParams;
  template: RoleTemplate<never, unknown>;
  stream: StreamControl | null;
  continuing: boolean;
  signal?: AbortSignal;
}

/** The openai backend: any OpenAI-compatible chat-completions endpoint through the official client. */
export class OpenAIBackend implements ModelBackend {
  readonly name = 'openai' as const;
  private readonly client: Promise<OpenAI>;
  private readonly retry: RetryPolicy;
  private readonly timeoutMs: number;
  private readonly cache: ResponseCache | null;
  /** Optional parameters this server has refused once; not sent again by this instance. */
  private readonly refused = new Set<OptionalParam>();

  constructor(private readonly options: OpenAIBackendOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.client = openaiClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, timeoutMs: this.timeoutMs });
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.cache = options.cache ?? null;
  }

  describe(): BackendDescription {
    const url = new URL(this.options.baseUrl);
    url.username = '';
    url.password = '';
    return { backend: 'openai', model: this.options.model, roleModels: this.options.roleModels, baseUrl: url.toString() };
  }

  async call<I, O>(req: ModelRequest<I, O>): Promise<ModelResult<O>> {
    const started = performance.now();
    const template = req.template;
    const model = this.options.roleModels?.[template.role] ?? this.options.model;
    const params: ModelParams = { temperature: 0, ...req.params };
    let messages = renderMessages(template, req.input, req.assistantPrefix);
    const tally = new CallTally();
    const elapsed = () => Math.round(performance.now() - started);
    const totals = () => ({
      model,
      messages,
      backend: 'openai' as const,
      latencyMs: elapsed(),
      attempts: tally.attempts,
      tokensIn: tally.tokensIn,
      tokensOut: tally.tokensOut,
      tokensEstimated: tally.tokensEstimated,
    });
    const result = (text: string, parsed: O | null, finishReason: FinishReason, cached = false): ModelResult<O> => ({
      ...totals(),
      text,
      parsed,
      finishReason,
      cached,
    });
    const fail = (error: ModelCallError, rawText: string | null) => error.withDetails({ ...totals(), rawText });

    // Sampled calls are meant to differ (EIGEN-1's K proposers), and a replayed
    // stream could not reproduce where the caller stopped it: neither is cached.
    const key = this.cache && !req.stream && params.temperature === 0 ? cacheKey({ model, messages, params, jsonSchema: template.jsonSchema }) : null;
    if (key) {
      const cachedHit = await this.cache!.get(key);
      // A response cached before redaction came in is redacted as it is read.
      const hit = cachedHit && { ...cachedHit, output: redactModelText(cachedHit.output, [this.options.apiKey]) };
      const parsed = hit && (template.outputSchema ? parseStructured(hit.output, template.outputSchema) : null);
      if (hit && (!parsed || parsed.ok)) {
        tally.tokensIn = hit.tokensIn;
        tally.tokensOut = hit.tokensOut;
        return result(hit.output, parsed ? parsed.value : null, 'stop', true);
      }
    }

    const exchangeSpec: ExchangeSpec = {
      model,
      messages,
      params,
      template: template as RoleTemplate<never, unknown>,
      stream: req.stream ?? null,
      continuing: !!req.assistantPrefix,
      signal: req.signal,
    };
    // Told once this turn's work is done, by when the request is out: what waits for it (the step's running row) stays off its path.
    if (req.onRequest) setImmediate(req.onRequest);
    let exchange: Exchange;
    try {
      exchange = await this.exchange(exchangeSpec, tally);
    } catch (err) {
      throw err instanceof ModelCallError ? fail(err, null) : err;
    }

    let parsed: O | null = null;
    // A stream the caller stopped is unfinished on purpose: there is nothing to validate yet.
    if (template.outputSchema && exchange.finishReason !== 'stopped') {
      let check = parseStructured(exchange.text, template.outputSchema);
      if (!check.ok) {
        messages = repairMessages(messages, exchange.text, check.error);
        try {
          exchange = await this.exchange({ ...exchangeSpec, messages, stream: null, continuing: false }, tally);
        } catch (err) {
          throw err instanceof ModelCallError ? fail(err, exchange.text) : err;
        }
        check = parseStructured(exchange.text, template.outputSchema);
        if (!check.ok) {
          throw fail(new ModelCallError('invalid_output', `output does not match ${template.id}: ${check.error}`), exchange.text);
        }
      }
      parsed = check.value;
    }

    // Stored behind the answer: the run does not wait a round trip per call for it (a failed write only costs a later rerun its hit).
    if (key) {
      this.cache!.set(key, { model, output: exchange.text, tokensIn: tally.tokensIn, tokensOut: tally.tokensOut }).catch((error) => {
        console.warn(`[llm] the response cache did not store an answer: ${error instanceof Error ? error.message : String(error)}`);
      });
    }
    const out = result(exchange.text, parsed, exchange.finishReason);
    return req.assistantPrefix ? { ...out, continuation: exchange.continued ? 'continued' : 'new-turn' } : out;
  }

  /** One request/response, retried on transient failures, falling back when the server refuses an optional parameter. */
  private async exchange(spec: ExchangeSpec, tally: CallTally): Promise<Exchange> {
    let failures = 0;
    for (;;) {
      const attempt = this.attemptSpec(spec);
      tally.attempts++;
      const outcome = await runAttempt(attempt);
      if (outcome.ok) {
        tally.addUsage(outcome.usage, spec.messages, outcome.text);
        // An echoed key is blanked before anything parses, caches or records the text.
        return {
          text: redactModelText(outcome.text, [this.options.apiKey]),
          finishReason: outcome.finishReason,
          continued: attempt.optionalParams.includes('continue_final_message') || 'continue_final_message' in attempt.body,
        };
      }
      if (outcome.refusedParam && !this.refused.has(outcome.refusedParam)) {
        this.refused.add(outcome.refusedParam);
        continue;
      }
      failures++;
      // Text already streamed to the caller cannot be taken back by a silent retry.
      if (!outcome.error.transient || outcome.deliveredText || failures >= this.retry.maxAttempts) throw outcome.error;
      try {
        await sleep(backoffDelayMs(this.retry, failures, outcome.retryAfterMs), spec.signal);
      } catch {
        throw new ModelCallError('aborted', 'the call was cancelled while waiting to retry');
      }
    }
  }

  private attemptSpec(spec: ExchangeSpec): AttemptSpec {
    const optionalParams: OptionalParam[] = [];
    const body: AttemptSpec['body'] = {
      model: spec.model,
      messages: spec.messages,
      temperature: spec.params.temperature,
      ...(spec.params.topP !== undefined ? { top_p: spec.params.topP } : {}),
      ...(spec.params.maxTokens !== undefined ? { max_tokens: spec.params.maxTokens } : {}),
      ...(spec.params.stop?.length ? { stop: spec.params.stop } : {}),
    };
    const continuation = this.options.continueFinalMessage ?? 'auto';
    if (spec.continuing && continuation !== false && !(continuation === 'auto' && this.refused.has('continue_final_message'))) {
      Object.assign(body, { continue_final_message: true, add_generation_prompt: false });
      if (continuation === 'auto') optionalParams.push('continue_final_message');
    }
    if (spec.template.jsonSchema && !this.refused.has('response_format')) {
      optionalParams.push('response_format');
      body.response_format = {
        type: 'json_schema',
        json_schema: { name: spec.template.id.replace(/[^a-zA-Z0-9_-]/g, '_'), schema: spec.template.jsonSchema, strict: false },
      };
    }
    const streamUsage = !!spec.stream && !this.refused.has('stream_options');
    if (streamUsage) optionalParams.push('stream_options');
    return {
      client: this.client,
      body,
      stream: spec.stream,
      streamUsage,
      optionalParams,
      timeoutMs: this.timeoutMs,
      signal: spec.signal,
      apiKey: this.options.apiKey,
    };
  }
}
