import { queryOptions } from '@tanstack/react-query';
import { fetchJson } from '@/lib/api/client';
import type { EvalJobListEntry, EvalJobView, MatrixPage, QuestionDrilldown } from '@/lib/eval/jobs/read';

/** Where an evaluation page reads from: the job (with its controls) or its read-only share link. */
export type EvalSource = { kind: 'job'; id: string } | { kind: 'share'; shareId: string };

/** A run of the evaluation: its page, or behind a share link its permalink (the share API names runs by share id). */
export const runHref = (source: EvalSource, runRef: string) => (source.kind === 'share' ? `/r/${runRef}` : `/runs/${runRef}`);

const LIVE_MS = 1_500;

export const isLive = (status: string | undefined) => status === 'queued' || status === 'running';

function base(source: EvalSource): string {
  return source.kind === 'job' ? `/api/eval/${encodeURIComponent(source.id)}` : `/api/eval/share/${encodeURIComponent(source.shareId)}`;
}

/** URLs of the evaluation routes (app/api/eval/**). */
export const evalApiUrls = {
  list: '/api/eval',
  view: base,
  cancel: (id: string) => `/api/eval/${encodeURIComponent(id)}/cancel`,
  matrix: (source: EvalSource, offset: number, limit: number) => `${base(source)}/matrix?offset=${offset}&limit=${limit}`,
  question: (source: EvalSource, questionId: string) => `${base(source)}/questions/${encodeURIComponent(questionId)}`,
  export: (source: EvalSource, format: 'csv' | 'json', table: 'items' | 'scores' = 'items') => `${base(source)}/export?format=${format}&table=${table}`,
};

const sourceKey = (source: EvalSource) => (source.kind === 'job' ? { id: source.id } : { shareId: source.shareId });

/** Query keys of the evaluation pages: every variable of a query is in its key. */
export const evalKeys = {
  all: ['eval'] as const,
  list: ['eval', 'list'] as const,
  view: (source: EvalSource) => ['eval', 'view', sourceKey(source)] as const,
  matrix: (source: EvalSource, offset: number, limit: number, revision: string) => ['eval', 'matrix', sourceKey(source), { offset, limit, revision }] as const,
  question: (source: EvalSource, questionId: string, revision: string) => ['eval', 'question', sourceKey(source), questionId, revision] as const,
};

/**
 * Where the job stands (status, runs done, runs in flight): the matrix and the
 * drill-down are keyed by it, so they refetch exactly when the polled progress
 * moves, and once more when the job finishes.
 */
export function jobRevision(view: { status: string; progress: { done: number; inFlight: number } }): string {
  return `${view.status}/${view.progress.done}/${view.progress.inFlight}`;
}

/** The job and its tables; polls while the job runs and stops once it has finished. */
export function evalViewOptions(source: EvalSource) {
  return queryOptions({
    queryKey: evalKeys.view(source),
    queryFn: ({ signal }) => fetchJson<EvalJobView>(evalApiUrls.view(source), { signal }),
    refetchInterval: (query) => (isLive(query.state.data?.status) ? LIVE_MS : false),
  });
}

export function evalListOptions() {
  return queryOptions({
    queryKey: evalKeys.list,
    queryFn: ({ signal }) => fetchJson<{ items: EvalJobListEntry[] }>(evalApiUrls.list, { signal }),
    refetchInterval: (query) => (query.state.data?.items.some((j) => isLive(j.status)) ? LIVE_MS * 2 : false),
  });
}

/** A page of the matrix at a job revision; the previous page stays on screen while the next loads. */
export function matrixOptions(source: EvalSource, offset: number, limit: number, revision: string) {
  return queryOptions({
    queryKey: evalKeys.matrix(source, offset, limit, revision),
    queryFn: ({ signal }) => fetchJson<MatrixPage>(evalApiUrls.matrix(source, offset, limit), { signal }),
    placeholderData: (previous) => previous,
  });
}

export function questionOptions(source: EvalSource, questionId: string, revision: string) {
  return queryOptions({
    queryKey: evalKeys.question(source, questionId, revision),
    queryFn: ({ signal }) => fetchJson<QuestionDrilldown>(evalApiUrls.question(source, questionId), { signal }),
    placeholderData: (previous) => (previous?.question.questionId === questionId ? previous : undefined),
  });
}
