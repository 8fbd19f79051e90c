import { calibration } from '@/lib/channels/doc-relevance';
import { loadMetagraph } from '@/lib/kg/loaded-metagraph';
import { prepareLinking } from '@/lib/kg/link';
import { englishModel } from '@/lib/nlp/english';

/**
 * What every run reads once per process, read before the first run (a worker's, an evaluation driven in its own
 * process): a question asked for the first time otherwise waits for it, its model calls with it. Best effort: a run
 * reads what is missing itself.
 */
export async function prepareRuns(): Promise<void> {
  await Promise.all([loadMetagraph(), calibration(), prepareLinking(), Promise.resolve().then(englishModel)]).catch(() => undefined);
}
