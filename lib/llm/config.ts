import { readEnv } from '../config';
import type { ResponseCache } from './cache';
import type { EmbeddingCache } from './embedding-cache';
import { PrismaEmbeddingCache, PostgresResponseCache } from './store';
import { EmbeddingClient } from './embeddings';
import { ModelCallError } from './errors';
import { OpenAIBackend } from './openai-backend';
import type { ModelBackend, RoleName } from './types';

/**
 * Which backend answers model calls. With no endpoint configured the offline
 * engine runs (lib/llm/offline), and the UI labels such runs accordingly.
 */
export type ModelBackendConfig =
  | { kind: 'offline' }
  | {
      kind: 'openai';
      baseUrl: string;
      model: string;
      roleModels: Partial<Record<RoleName, string>>;
      timeoutMs: number;
      /** HOPSCOPE_MODEL_CONTINUE_FINAL_MESSAGE: '1' always, '0' never, unset: 'auto' (until the server refuses it). */
      continueFinalMessage: boolean | 'auto';
    };

/** Plain variables rather than NodeJS.ProcessEnv, so callers and tests can pass just the ones that matter. */
type EnvVars = Record<string, string | undefined>;

const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** HOPSCOPE_ROLE_MODELS="monitor=qwen3-4b,judge=gpt-4o-mini": a model per role. */
function parseRoleModels(value: string | undefined): Partial<Record<RoleName, string>> {
  const roleModels: Record<string, string> = {};
  for (const pair of (value ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [role, model] = pair.split('=').map((s) => s.trim());
    if (!role || !model) {
      throw new ModelCallError('config', `HOPSCOPE_ROLE_MODELS: expected role=model, got '${pair}'`);
    }
    roleModels[role] = model;
  }
  return roleModels;
}

export function modelBackendConfigFromEnv(env: EnvVars = process.env): ModelBackendConfig {
  const { OPENAI_BASE_URL, HOPSCOPE_MODEL, HOPSCOPE_MODEL_TIMEOUT_MS } = readEnv(env as NodeJS.ProcessEnv);
  if (!OPENAI_BASE_URL && !HOPSCOPE_MODEL) return { kind: 'offline' };
  // No default model: a wrong guess against a local server fails every call with a 404.
  if (!HOPSCOPE_MODEL) {
    throw new ModelCallError('config', 'OPENAI_BASE_URL is set but HOPSCOPE_MODEL is not: name the model to use');
  }
  return {
    kind: 'openai',
    baseUrl: OPENAI_BASE_URL ?? OPENAI_DEFAULT_BASE_URL,
    model: HOPSCOPE_MODEL,
    roleModels: parseRoleModels(env.HOPSCOPE_ROLE_MODELS),
    timeoutMs: HOPSCOPE_MODEL_TIMEOUT_MS,
    continueFinalMessage: env.HOPSCOPE_MODEL_CONTINUE_FINAL_MESSAGE === '1' ? true : env.HOPSCOPE_MODEL_CONTINUE_FINAL_MESSAGE === '0' ? false : 'auto',
  };
}

/**
 * The configured openai backend, or { kind: 'offline' } when the caller must
 * use the offline engine. The cache defaults to the shared Postgres one.
 */
export function createModelBackend(
  env: EnvVars = process.env,
  options: { cache?: ResponseCache | null } = {},
): { kind: 'openai'; backend: ModelBackend } | { kind: 'offline' } {
  const config = modelBackendConfigFromEnv(env);
  if (config.kind === 'offline') return config;
  const { kind: _kind, ...backendOptions } = config;
  const backend = new OpenAIBackend({
    ...backendOptions,
    apiKey: env.OPENAI_API_KEY,
    cache: options.cache === undefined ? new PostgresResponseCache() : options.cache,
  });
  return { kind: 'openai', backend };
}

/**
 * The embedding endpoint, or null without HOPSCOPE_EMBEDDING_MODEL. Its URL
 * and key default to the chat endpoint's; timeout as for chat calls.
 */
export function embeddingConfigFromEnv(env: EnvVars = process.env): { model: string; baseUrl: string; apiKey?: string; timeoutMs: number } | null {
  const { HOPSCOPE_EMBEDDING_MODEL, HOPSCOPE_EMBEDDING_BASE_URL, HOPSCOPE_EMBEDDING_API_KEY, OPENAI_BASE_URL, OPENAI_API_KEY, HOPSCOPE_MODEL_TIMEOUT_MS } =
    readEnv(env as NodeJS.ProcessEnv);
  if (!HOPSCOPE_EMBEDDING_MODEL) return null;
  return {
    model: HOPSCOPE_EMBEDDING_MODEL,
    baseUrl: HOPSCOPE_EMBEDDING_BASE_URL ?? OPENAI_BASE_URL ?? OPENAI_DEFAULT_BASE_URL,
    apiKey: HOPSCOPE_EMBEDDING_API_KEY ?? OPENAI_API_KEY,
    timeoutMs: HOPSCOPE_MODEL_TIMEOUT_MS,
  };
}

/** The configured embedding client, or null; the cache defaults to the shared Postgres one. */
export function createEmbeddingClient(env: EnvVars = process.env, options: { cache?: EmbeddingCache | null } = {}): EmbeddingClient | null {
  const config = embeddingConfigFromEnv(env);
  return config && new EmbeddingClient({ ...config, cache: options.cache === undefined ? new PrismaEmbeddingCache() : options.cache });
}
