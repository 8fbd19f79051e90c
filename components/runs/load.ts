import 'server-only';
import { dehydrate, QueryClient } from '@tanstack/react-query';
import { cache } from 'react';
import { NotFoundError } from '@/lib/base/errors';
import { getSharedStepDetail, toSharedView } from '@/lib/runs/share';
import { getRunView, getStepDetail, type RunView } from '@/lib/runs/view';
import { runSnapshot } from '@/lib/runs/snapshot';
import { firstScreenOf } from './first-screen';
import { runKeys } from './queries';
import type { RunViewState } from './view-state';

async function viewOrNull(where: { id: string } | { shareId: string }): Promise<RunView | null> {
  try {
    return await getRunView(where);
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

/**
 * One read of a run per request (metadata and page share it; React's cache keys on the string); null when there is none.
 * A finished run's view is kept for its state (lib/runs/snapshot.ts): a page asked again reads one row, not the trace.
 */
export const loadRunById = cache(async (id: string) => (await runSnapshot('view', { id }, () => viewOrNull({ id }))).value);
/** Behind a share link: the shared view, which names every run by its share id. */
export const loadRunByShareId = cache(async (shareId: string) => {
  const { value: view } = await runSnapshot('view', { shareId }, () => viewOrNull({ shareId }));
  return view && toSharedView(view);
});

/**
 * The client cache the run page starts from. A plain link: only the first
 * screen (./first-screen.ts), so the first response is small; the page fetches
 * the whole view once it has hydrated. A link that opens a step or a selection
 * asked for the trace or a provenance: the whole view and the open step's
 * detail, so the server-rendered HTML already holds them.
 */
export async function runPageState(view: RunView, state: RunViewState) {
  const client = new QueryClient();
  if (state.step === null && state.sel === null) {
    client.setQueryData(runKeys.head(view.id), firstScreenOf(view));
    return dehydrate(client);
  }
  client.setQueryData(runKeys.view(view.id), view);
  const step = state.step !== null ? view.steps.find((s) => s.ordinal === state.step) : undefined;
  if (step)
    client.setQueryData(
      runKeys.step(view.id, step.id, step.status),
      await (view.shared ? getSharedStepDetail(view.id, step.id) : getStepDetail(view.id, step.id)),
    );
  return dehydrate(client);
}
