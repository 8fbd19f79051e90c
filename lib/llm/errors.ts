import type { BackendName, ChatMessage } from './types';

/**
 * Why a model call failed, one value per failure class so callers (run
 * lifecycle, UI, CLI) can map it once:
 * - timeout, rate_limit, server, network: transient; the backend already retried.
 * - invalid_output: the model's text did not match the role's schema, even after a repair request.
 * - config: the endpoint refused who we are or what we asked for (key, model name, URL).
 * - rejected: the server refused this particular request (context too long, bad parameter).
 * - aborted: the caller cancelled the call.
 * - internal: a backend failed in its own code (e.g. an offline engine bug).
 */
export type ModelErrorKind = 'timeout' | 'rate_limit' | 'server' | 'network' | 'invalid_output' | 'config' | 'rejected' | 'aborted' | 'internal';

export const TRANSIENT_ERROR_KINDS: ReadonlySet<ModelErrorKind> = new Set(['timeout', 'rate_limit', 'server', 'network']);

/** What is known about a failed call, kept so the failure can be recorded in the trace. */
export interface FailedCallDetails {
  backend: BackendName;
  model: string;
  messages: ChatMessage[];
  /** The model's last text, kept for invalid_output so the trace shows what was wrong. */
  rawText: string | null;
  attempts: number;
  latencyMs: number;
  tokensIn: number;
  tokensOut: number;
  tokensEstimated: boolean;
  /** HTTP status of the last response, when there was one. */
  status: number | null;
}

export class ModelCallError extends Error {
  readonly kind: ModelErrorKind;
  readonly details: Partial<FailedCallDetails>;

  constructor(kind: ModelErrorKind, message: string, details: Partial<FailedCallDetails> = {}) {
    super(message);
    this.name = 'ModelCallError';
    this.kind = kind;
    this.details = details;
  }

  get transient(): boolean {
    return TRANSIENT_ERROR_KINDS.has(this.kind);
  }

  withDetails(more: Partial<FailedCallDetails>): ModelCallError {
    return new ModelCallError(this.kind, this.message, { ...this.details, ...more });
  }
}
