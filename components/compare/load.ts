import 'server-only';
import { dehydrate, QueryClient } from '@tanstack/react-query';
import { runKeys } from '@/components/runs/queries';
import { diffConfig } from '@/lib/runs/config';
import type { RunView } from '@/lib/runs/view';

/** The compare page's starting cache (both runs hydrate the client) and the config change from A to B. */
export function comparePageState(a: RunView, b: RunView) {
  const client = new QueryClient();
  client.setQueryData(runKeys.view(a.id), a);
  client.setQueryData(runKeys.view(b.id), b);
  return { state: dehydrate(client), configDiff: diffConfig(a.config, b.config) };
}
