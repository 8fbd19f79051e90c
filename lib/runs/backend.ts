import { OfflineBackend } from '@/lib/llm/offline-backend';
import { createEmbeddingClient, createModelBackend, embeddingConfigFromEnv, modelBackendConfigFromEnv } from '@/lib/llm/config';
import type { BackendDescription, CallRecorder, ModelBackend } from '@/lib/llm/types';
import { EmbeddingSimilarity, LEXICAL_WHY, LexicalSimilarity, type Similarity } from '@/lib/llm/similarity';
import { InvalidInputError } from '@/lib/base/errors';
import { redactUrl } from '@/lib/base/redact';

/**
 * Picks the backend for a run: 'auto' uses the configured OpenAI-compatible
 * endpoint when there is one, else the offline engine (labelled as such).
 * An openai run also records the embedding model its similarity scores use.
 */
export function describeBackend(preference: 'auto' | 'offline' | 'openai'): BackendDescription {
  const configured = modelBackendConfigFromEnv();
  if (preference === 'offline' || (preference === 'auto' && configured.kind === 'offline')) return new OfflineBackend().describe();
  if (configured.kind === 'offline')
    throw new InvalidInputError('backend "openai" was asked for, but no model endpoint is configured (set OPENAI_BASE_URL and HOPSCOPE_MODEL)');
  const embeddingModel = embeddingConfigFromEnv()?.model;
  // The stored config is shown and exported: it never holds the endpoint's credentials.
  return { backend: 'openai', model: configured.model, baseUrl: redactUrl(configured.baseUrl), ...(embeddingModel ? { embeddingModel } : {}) };
}

/**
 * The backend a run needs, as stored with it (`runs.backend_key`) and matched
 * when a worker claims it: "offline", or the endpoint (credentials removed,
 * as in the run's config) and the model. Never the key.
 */
export function backendKey(description: BackendDescription): string {
  return description.backend === 'offline' ? OFFLINE_KEY : `openai ${description.baseUrl ?? ''} ${description.model}`;
}

const OFFLINE_KEY = 'offline';

/** The backends this process can serve: the offline engine, and the configured endpoint and model when there is one. */
export function servableBackends(): string[] {
  const configured = modelBackendConfigFromEnv();
  if (configured.kind === 'offline') return [OFFLINE_KEY];
  return [OFFLINE_KEY, backendKey({ backend: 'openai', model: configured.model, baseUrl: redactUrl(configured.baseUrl) })];
}

/** What a queued run waits for, in words (shown while it is queued). */
export function waitingFor(key: string): string {
  if (key === OFFLINE_KEY) return 'a worker';
  const [, endpoint, ...model] = key.split(' ');
  return `a worker with endpoint ${endpoint} and model ${model.join(' ')}`;
}

export function createBackend(description: BackendDescription): ModelBackend {
  if (description.backend === 'offline') return new OfflineBackend();
  const configured = createModelBackend();
  if (configured.kind === 'offline') throw new Error('This run needs the model endpoint it was started with, and none is configured now');
  return configured.backend;
}

/**
 * The run's similarity: its embedding model's when it was started with one and that model is still configured, else
 * lexical, saying why. `recorder` says where each embedding request is recorded as a model call.
 */
export function createSimilarity(description: BackendDescription, recorder: (() => CallRecorder | null) | null = null): Similarity {
  if (description.backend === 'offline') return new LexicalSimilarity(LEXICAL_WHY.offline);
  if (!description.embeddingModel) return new LexicalSimilarity(LEXICAL_WHY.unconfigured);
  const client = createEmbeddingClient();
  if (client?.model !== description.embeddingModel) {
    return new LexicalSimilarity(`fallback: the run was started with embedding model ${description.embeddingModel}, which is not configured now`);
  }
  return new EmbeddingSimilarity(client, recorder);
}
