import { queryOptions, skipToken } from '@tanstack/react-query';
import { fetchJson, kgApiUrls } from '@/lib/api/client';
import type { DocumentView } from '@/lib/corpus/store';
import type { NodeProfileDto } from '@/lib/api/kg-types';
import type { RunView, StepDetail } from '@/lib/runs/view';
import type { RunHead } from './first-screen';

/** How often a queued or running run is polled. */
export const LIVE_POLL_MS = 1_000;

const isLive = (status: RunView['status'] | undefined) => status === 'queued' || status === 'running';

/** Query keys of the run pages: every variable of a query is in its key. */
export const runKeys = {
  all: ['runs'] as const,
  view: (id: string) => ['runs', id, 'view'] as const,
  /** The first screen's part of the view, as the page's first response carries it (./first-screen.ts). */
  head: (id: string) => ['runs', id, 'head'] as const,
  // A running step's detail changes when it finishes: its status is part of the key.
  step: (runId: string, stepId: string, status: string) => ['runs', runId, 'steps', stepId, status] as const,
  document: (id: string) => ['documents', id] as const,
  node: (id: string) => ['kg', 'node', id] as const,
};

/** A run as the client names it: by its id on its own page, by its share id behind a share link (the share API). */
export type RunRef = Pick<RunView, 'id' | 'shared'>;

const runBase = (run: RunRef) => (run.shared ? `/api/runs/share/${encodeURIComponent(run.id)}` : `/api/runs/${encodeURIComponent(run.id)}`);

export const runApiUrls = {
  view: (run: RunRef) => `${runBase(run)}/view`,
  step: (run: RunRef, stepId: string) => `${runBase(run)}/steps/${encodeURIComponent(stepId)}`,
  export: (run: RunRef) => `${runBase(run)}/export`,
  document: (id: string) => `/api/documents/${encodeURIComponent(id)}`,
};

/** The run view; polls while the run is queued or running and stops once it has finished. */
export function runViewQueryOptions(run: RunRef) {
  const id = run.id;
  return queryOptions({
    queryKey: runKeys.view(id),
    queryFn: ({ signal }) => fetchJson<RunView>(runApiUrls.view(run), { signal }),
    refetchInterval: (query) => (isLive(query.state.data?.status) ? LIVE_POLL_MS : false),
    staleTime: (query) => (isLive(query.state.data?.status) ? 0 : Infinity),
  });
}

/**
 * The first screen as the server rendered it: only ever hydrated, never fetched (once the whole
 * view has come, the page takes its first screen from that).
 */
export function runHeadQueryOptions(id: string) {
  return queryOptions<RunHead>({ queryKey: runKeys.head(id), queryFn: skipToken, staleTime: Infinity });
}

export function stepDetailQueryOptions(run: RunRef, stepId: string, status: string) {
  return queryOptions({
    queryKey: runKeys.step(run.id, stepId, status),
    queryFn: ({ signal }) => fetchJson<StepDetail>(runApiUrls.step(run, stepId), { signal }),
    staleTime: status === 'running' ? 0 : Infinity,
  });
}

export function documentQueryOptions(id: string) {
  return queryOptions({
    queryKey: runKeys.document(id),
    queryFn: ({ signal }) => fetchJson<DocumentView>(runApiUrls.document(id), { signal }),
    staleTime: Infinity,
  });
}

export function nodeProfileQueryOptions(id: string) {
  return queryOptions({
    queryKey: runKeys.node(id),
    queryFn: ({ signal }) => fetchJson<NodeProfileDto>(kgApiUrls.node(id), { signal }),
    staleTime: 5 * 60_000,
  });
}

export { isLive };
