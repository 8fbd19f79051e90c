import { createHash } from 'node:crypto';
import type { ChatMessage, ModelParams } from './types';

/**
 * Response cache for deterministic calls: a rerun of the same question with the
 * same prompts replays the model's answers instead of paying for them again.
 */

export interface CacheEntry {
  model: string;
  output: string;
  tokensIn: number;
  tokensOut: number;
}

export interface ResponseCache {
  get(key: string): Promise<CacheEntry | null>;
  set(key: string, entry: CacheEntry): Promise<void>;
}

export interface CacheKeyParts {
  model: string;
  messages: ChatMessage[];
  params: ModelParams;
  jsonSchema: Record<string, unknown> | null;
}

/** sha256 over everything that shapes the response; object keys are fixed so the hash is stable. */
export function cacheKey({ model, messages, params, jsonSchema }: CacheKeyParts): string {
  const material = JSON.stringify({
    model,
    messages: messages.map((m) => [m.role, m.content]),
    params: [params.temperature ?? 0, params.maxTokens ?? null, params.stop ?? null, ...(params.topP !== undefined ? [params.topP] : [])],
    schema: jsonSchema,
  });
  return createHash('sha256').update(material).digest('hex');
}

export class MemoryResponseCache implements ResponseCache {
  private readonly entries = new Map<string, CacheEntry>();

  async get(key: string): Promise<CacheEntry | null> {
    return this.entries.get(key) ?? null;
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    this.entries.set(key, entry);
  }
}
