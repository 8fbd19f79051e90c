/** The model layer's public surface (server-side: it pulls in the openai client). */
export type * from './types';
export { ModelClient, type ModelCallOptions } from './client';
export { ModelCallError, TRANSIENT_ERROR_KINDS, type ModelErrorKind, type FailedCallDetails } from './errors';
export { OpenAIBackend, DEFAULT_TIMEOUT_MS, type OpenAIBackendOptions } from './openai-backend';
export { MemoryResponseCache, PrismaResponseCache, cacheKey, type ResponseCache, type CacheEntry } from './cache';
export { createModelBackend, modelBackendConfigFromEnv, createEmbeddingClient, embeddingConfigFromEnv, type ModelBackendConfig } from './config';
export { EmbeddingClient, type EmbeddingClientOptions, type Embedded } from './embeddings';
export { MemoryEmbeddingCache, PrismaEmbeddingCache, type EmbeddingCache } from './embedding-cache';
export { streamWithContinuation, type ContinuationOptions, type ContinuedGeneration, type ReasoningWindow, type ReviewedWindow, type TextSegment } from './stream';
export { renderMessages } from './messages';
export { extractJson, parseStructured } from './json-output';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry';
export * from './templates';
