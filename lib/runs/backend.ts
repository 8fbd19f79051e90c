import { OfflineBackend } from '@/lib/llm/offline-backend';
import { createModelBackend, modelBackendConfigFromEnv } from '@/lib/llm/config';
import type { BackendDescription, ModelBackend } from '@/lib/llm/types';
import { InvalidInputError } from './errors';
import { redactUrl } from './redact';

/**
 * Picks the backend for a run: 'auto' uses the configured OpenAI-compatible
 * endpoint when there is one, else the offline engine (labelled as such).
 */
export function describeBackend(preference: 'auto' | 'offline' | 'openai'): BackendDescription {
  const configured = modelBackendConfigFromEnv();
  if (preference === 'offline' || (preference === 'auto' && configured.kind === 'offline')) return new OfflineBackend().describe();
  if (configured.kind === 'offline') throw new InvalidInputError('backend "openai" was asked for, but no model endpoint is configured (set OPENAI_BASE_URL and HOPSCOPE_MODEL)');
  // The stored config is shown and exported: it never holds the endpoint's credentials.
  return { backend: 'openai', model: configured.model, baseUrl: redactUrl(configured.baseUrl) };
}

export function createBackend(description: BackendDescription): ModelBackend {
  if (description.backend === 'offline') return new OfflineBackend();
  const configured = createModelBackend();
  if (configured.kind === 'offline') throw new Error('This run needs the model endpoint it was started with, and none is configured now');
  return configured.backend;
}
