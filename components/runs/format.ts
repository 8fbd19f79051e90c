import type { RunView } from '@/lib/runs/view';

/** Small display helpers of the run pages. Pure. */

export const OFFLINE_LABEL = 'offline engine (no language model)';

export function backendLabel(config: RunView['config']): string {
  if (!config) return 'unknown backend';
  if (config.backend.backend === 'offline') return OFFLINE_LABEL;
  let host = '';
  try {
    host = config.backend.baseUrl ? new URL(config.backend.baseUrl).host : '';
  } catch {
    host = '';
  }
  const model = host ? `${config.backend.model} at ${host}` : config.backend.model;
  // Similarity scores used this model's embeddings (else a lexical substitute, named in the trace).
  return config.backend.embeddingModel ? `${model} · embeddings ${config.backend.embeddingModel}` : model;
}

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function formatCount(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : n.toLocaleString('en-US');
}

export const STATUS_TONES = {
  queued: 'neutral',
  running: 'blue',
  succeeded: 'green',
  failed: 'red',
  cancelled: 'amber',
  skipped: 'neutral',
} as const;

export function statusLabel(status: string): string {
  return status === 'succeeded' ? 'finished' : status;
}

/** "switches.kg: true → false" */
export function describeChange(change: { path: string; from: unknown; to: unknown }): string {
  const show = (v: unknown) => (v === null || v === undefined ? 'none' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  return `${change.path}: ${show(change.from)} → ${show(change.to)}`;
}
