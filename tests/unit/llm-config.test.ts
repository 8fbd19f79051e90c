import { describe, expect, it } from 'vitest';
import { createModelBackend, embeddingConfigFromEnv, modelBackendConfigFromEnv } from '../../lib/llm/config';
import { ModelCallError } from '../../lib/llm/errors';
import { configuredSecrets } from '../../lib/base/redact';

describe('model backend configuration', () => {
  it('chooses the offline engine when no endpoint is configured', () => {
    expect(modelBackendConfigFromEnv({})).toEqual({ kind: 'offline' });
    expect(createModelBackend({})).toEqual({ kind: 'offline' });
  });

  it('reads the endpoint, model, per-role models and timeout', () => {
    expect(
      modelBackendConfigFromEnv({
        OPENAI_BASE_URL: 'http://localhost:8000/v1',
        HOPSCOPE_MODEL: 'qwen3-32b',
        HOPSCOPE_ROLE_MODELS: 'monitor=qwen3-4b, judge = small',
        HOPSCOPE_MODEL_TIMEOUT_MS: '1500',
        HOPSCOPE_MODEL_CONTINUE_FINAL_MESSAGE: '1',
      }),
    ).toEqual({
      kind: 'openai',
      baseUrl: 'http://localhost:8000/v1',
      model: 'qwen3-32b',
      roleModels: { monitor: 'qwen3-4b', judge: 'small' },
      timeoutMs: 1500,
      continueFinalMessage: true,
    });
    expect(modelBackendConfigFromEnv({ HOPSCOPE_MODEL: 'm' })).toMatchObject({ continueFinalMessage: 'auto' });
    expect(modelBackendConfigFromEnv({ HOPSCOPE_MODEL: 'm', HOPSCOPE_MODEL_CONTINUE_FINAL_MESSAGE: '0' })).toMatchObject({ continueFinalMessage: false });
  });

  it('uses the OpenAI endpoint when only a model is named', () => {
    expect(modelBackendConfigFromEnv({ HOPSCOPE_MODEL: 'gpt-4o-mini' })).toMatchObject({
      kind: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      timeoutMs: 60_000,
    });
  });

  it('refuses an endpoint without a model, and a malformed role map', () => {
    expect(() => modelBackendConfigFromEnv({ OPENAI_BASE_URL: 'http://localhost:8000/v1' })).toThrow(ModelCallError);
    expect(() => modelBackendConfigFromEnv({ HOPSCOPE_MODEL: 'm', HOPSCOPE_ROLE_MODELS: 'monitor' })).toThrow(/role=model/);
  });

  it('builds a backend that describes itself without credentials', () => {
    const created = createModelBackend(
      { OPENAI_BASE_URL: 'http://user:pw@localhost:8000/v1', HOPSCOPE_MODEL: 'm', OPENAI_API_KEY: 'sk-secret' },
      { cache: null },
    );
    expect(created.kind).toBe('openai');
    const description = created.kind === 'openai' ? created.backend.describe() : null;
    expect(description).toMatchObject({ backend: 'openai', model: 'm', baseUrl: 'http://localhost:8000/v1' });
    expect(JSON.stringify(description)).not.toMatch(/sk-secret|pw/);
  });
});

describe('embedding configuration', () => {
  it('is off without HOPSCOPE_EMBEDDING_MODEL, and takes the chat endpoint, key and timeout unless given its own', () => {
    expect(embeddingConfigFromEnv({ OPENAI_BASE_URL: 'http://localhost:8000/v1', HOPSCOPE_MODEL: 'm' })).toBeNull();
    const chat = { OPENAI_BASE_URL: 'http://localhost:8000/v1', OPENAI_API_KEY: 'sk-chat', HOPSCOPE_MODEL_TIMEOUT_MS: '1500' };
    expect(embeddingConfigFromEnv({ ...chat, HOPSCOPE_EMBEDDING_MODEL: 'bge-small' })).toEqual({
      model: 'bge-small',
      baseUrl: 'http://localhost:8000/v1',
      apiKey: 'sk-chat',
      timeoutMs: 1500,
    });
    expect(
      embeddingConfigFromEnv({
        ...chat,
        HOPSCOPE_EMBEDDING_MODEL: 'text-embedding-3-small',
        HOPSCOPE_EMBEDDING_BASE_URL: 'https://api.openai.com/v1',
        HOPSCOPE_EMBEDDING_API_KEY: 'sk-emb',
      }),
    ).toMatchObject({ baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-emb' });
    expect(() => embeddingConfigFromEnv({ HOPSCOPE_EMBEDDING_MODEL: 'm', HOPSCOPE_EMBEDDING_BASE_URL: 'file:///etc/passwd' })).toThrow(
      /HOPSCOPE_EMBEDDING_BASE_URL/,
    );
  });

  it('counts the embedding key and the credentials in its URL among the secrets every read path blanks', () => {
    const env = { HOPSCOPE_EMBEDDING_API_KEY: 'sk-embedding-key-123456', HOPSCOPE_EMBEDDING_BASE_URL: 'http://user:embedding-password@gpu:8000/v1' };
    const secrets = configuredSecrets(env as unknown as NodeJS.ProcessEnv);
    expect(secrets).toEqual(expect.arrayContaining(['sk-embedding-key-123456', 'embedding-password']));
  });
});
