import { OfflineBackend } from '@/lib/llm/offline-backend';
import { createEmbeddingClient, createModelBackend, embeddingConfigFromEnv, modelBackendConfigFromEnv } from '@/lib/llm/config';
import type { BackendDescription, CallRecorder, ModelBackend } from '@/lib/llm/types';
import { EmbeddingSimilarity, LEXICAL_WHY, LexicalSimilarity, type Similarity } from '@/lib/nlp/similarity';
import { InvalidInputError } from '@/lib/base/errors';
import { redactUrl } from './redact';

/**
 * Picks the backend for a run: 'auto' uses the configured OpenAI-compatible
 * endpoint when there is one, else the offline engine (labelled as such).
 * An openai run also records the embedding model its similarity scores use.
 */
export function describeBackend(preference: 'auto' | 'offline' | 'openai'): BackendDescription {
  const configured = modelBackendConfigFromEnv();
  if (preference === 'offline' || (preference === 'auto' && configured.kind === 'offline')) return new OfflineBackend().describe();
  if (configured.kind === 'offline') throw new InvalidInputError('backend "openai" was asked for, but no model endpoint is configured (set OPENAI_BASE_URL and HOPSCOPE_MODEL)');
  const embeddingModel = embeddingConfigFromEnv()?.model;
  // The stored config is shown and exported: it never holds the endpoint's credentials.
  return { backend: 'openai', model: configured.model, baseUrl: redactUrl(configured.baseUrl), ...(embeddingModel ? { embeddingModel } : {}) };
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
