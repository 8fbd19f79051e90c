import { describe, expect, it } from 'vitest';
import { backendLabel, OFFLINE_LABEL } from '@/components/runs/format';
import type { RunView } from '@/lib/runs/view';

const config = (backend: NonNullable<RunView['config']>['backend']): RunView['config'] => ({
  method: 'regram',
  switches: { doc: true, entity: true, kg: true, param: true, web: true, aids: false },
  params: {},
  kgShuffle: null,
  backend,
});

describe('backendLabel', () => {
  it('names the model and host, and the embedding model when the run had one', () => {
    expect(backendLabel(config({ backend: 'openai', model: 'qwen3-8b', baseUrl: 'http://gpu:8000/v1' }))).toBe('qwen3-8b at gpu:8000');
    expect(backendLabel(config({ backend: 'openai', model: 'qwen3-8b', baseUrl: 'http://gpu:8000/v1', embeddingModel: 'bge-small' }))).toBe(
      'qwen3-8b at gpu:8000 · embeddings bge-small',
    );
    expect(backendLabel(config({ backend: 'offline', model: 'offline-engine' }))).toBe(OFFLINE_LABEL);
  });
});
