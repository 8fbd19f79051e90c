import type { z } from 'zod';

/**
 * The contract between reasoning methods and whatever answers their model calls
 * (an OpenAI-compatible server or the offline engine). Methods only ever see
 * these types, so a run can switch backend without touching method code.
 */

/**
 * Roles a method can ask the model to play. Declared as an interface so that a
 * method adding a role extends it by declaration merging instead of editing
 * this file:
 *   declare module '@/lib/llm/types' { interface RoleRegistry { critique: true } }
 */
export interface RoleRegistry {
  decompose: true;
  extract: true;
  recall: true;
  reason: true;
  check: true;
  answer: true;
  select: true;
  judge: true;
  monitor: true;
  querier: true;
  injector: true;
  propose: true;
  correct: true;
  refine: true;
  evaluate: true;
  rank: true;
  checklist: true;
  domain: true;
  hypothesize: true;
  synthesize: true;
  /** Free-text reasoning, usually streamed (EIGEN-1's monitored generation). */
  generate: true;
  /** A /v1/embeddings request for the similarity scores: recorded as a model call with its tokens. */
  embed: true;
}

export type RoleName = keyof RoleRegistry;

export type BackendName = 'openai' | 'offline';

/** A versioned prompt for one role; `render` produces the user message. */
export interface RoleTemplate<I = unknown, O = unknown> {
  role: RoleName;
  /** Stable id such as 'xr2.decompose'; recorded with every call. */
  id: string;
  version: number;
  system: string;
  render(input: I): string;
  /** Schema of the parsed output; null for free text. */
  outputSchema: z.ZodType<O> | null;
  /** JSON Schema of the output (derived from outputSchema), sent to servers that accept it. */
  jsonSchema: Record<string, unknown> | null;
}

type OutputOf<T> = T extends RoleTemplate<unknown, infer O> ? O : never;

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ModelParams {
  /** Defaults to 0: roles are deterministic unless a method asks for sampling. */
  temperature?: number;
  /** Nucleus sampling; unset leaves the server's default (some servers reject top_p=0). */
  topP?: number;
  maxTokens?: number;
  stop?: string[];
}

export interface StreamControl {
  /** Receives each piece of generated text as it arrives. */
  onDelta?(text: string): void;
  /**
   * Asked after each delta with the text this call has generated so far; true
   * ends the stream there and the result carries finishReason 'stopped'. The
   * stream is paused while a returned promise is pending, so a monitor model
   * call can decide.
   */
  shouldStop?(textSoFar: string): boolean | Promise<boolean>;
}

export interface ModelRequest<I = unknown, O = unknown> {
  template: RoleTemplate<I, O>;
  input: I;
  params?: ModelParams;
  stream?: StreamControl;
  /**
   * Text the assistant has already written; sent as a final assistant message so
   * the model continues it. The result's text is only the continuation.
   */
  assistantPrefix?: string;
  /** Cancels the call (a cancelled run); recorded as an 'aborted' failure. */
  signal?: AbortSignal;
  /** Told once the call's first request is out: after the response cache missed, never for a call it answers. */
  onRequest?: () => void;
}

/** 'stopped' means StreamControl.shouldStop ended the stream on purpose. */
export type FinishReason = 'stop' | 'length' | 'stopped' | 'other';

export interface ModelResult<O = unknown> {
  /** Raw text of the final response (only the continuation when a prefix was sent). */
  text: string;
  parsed: O | null;
  tokensIn: number;
  tokensOut: number;
  /** True when the server reported no usage and tokens are chars/4 estimates. */
  tokensEstimated: boolean;
  latencyMs: number;
  cached: boolean;
  /** HTTP requests made for this call, retries and the repair request included. */
  attempts: number;
  model: string;
  backend: BackendName;
  finishReason: FinishReason;
  /**
   * With an assistant prefix: 'continued' when the request asked the server to
   * extend that message (continue_final_message) and it accepted, or the
   * offline engine continued it; 'new-turn' when the prefix went as an earlier
   * assistant turn and the model answered in a new one.
   */
  continuation?: 'continued' | 'new-turn';
  /** Messages of the last request sent (a repaired call shows the whole exchange). */
  messages: ChatMessage[];
  error?: string;
}

export interface BackendDescription {
  backend: BackendName;
  model: string;
  roleModels?: Partial<Record<RoleName, string>>;
  /** Never includes credentials. */
  baseUrl?: string;
  /** HOPSCOPE_EMBEDDING_MODEL when the run was started: its similarity scores use this model's embeddings. */
  embeddingModel?: string;
}

export interface ModelBackend {
  readonly name: BackendName;
  call<I, O>(req: ModelRequest<I, O>): Promise<ModelResult<O>>;
  describe(): BackendDescription;
}

/** What the trace layer stores for every call, successful or not. */
export interface ModelCallRecord {
  role: RoleName;
  template: string;
  templateVersion: number;
  backend: BackendName;
  model: string;
  messages: ChatMessage[];
  output: string | null;
  parsed: unknown;
  tokensIn: number;
  tokensOut: number;
  tokensEstimated: boolean;
  latencyMs: number;
  /** When the request went out (a call that waited for a slot of the run's concurrency limit: after the wait); the timeline and the critical path read it. */
  startedAt: Date;
  cached: boolean;
  attempts: number;
  finishReason: FinishReason | null;
  error: string | null;
}

/** Records a call when it ends. `sent`, where given, is told once the call's request is out (never for a call the cache answers). */
export type CallRecorder = ((record: ModelCallRecord) => Promise<void>) & { sent?: () => void };
