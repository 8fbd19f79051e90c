import pg from 'pg';
import { databaseUrl, getPool } from '@/lib/db/client';

/**
 * The channel a run announces on that what its reads show changed (it ended, was verified, a rerun of it
 * ended): payload its id and share id, then its parent's (whose view lists its reruns). The web server reads
 * such runs ahead, their share links' reads too (lib/runs/reads-ahead.ts). Only the web server listens, on
 * the database's own connection: a share id in the payload goes no further than the database does.
 * Evaluations' runs do not: their job's driver reads them (lib/eval/jobs/store/lock.ts).
 */
export const RUN_CHANGED_CHANNEL = 'hopscope_run_changed';
/** The notification, for a statement over `runs` (its row's id, share_id and parent_run_id). */
export const notifyRunChanged = `pg_notify('${RUN_CHANGED_CHANNEL}', concat_ws(' ', runs.id, runs.share_id, runs.parent_run_id,
  (select parent.share_id from runs parent where parent.id = runs.parent_run_id)))`;

/** A run whose reads changed: its own, and its share link's. */
export interface ChangedRun {
  id: string;
  shareId: string;
}

/** Announces that this run's reads changed (see RUN_CHANGED_CHANNEL), unless it belongs to an evaluation. */
export async function announceRunChanged(runId: string): Promise<void> {
  await getPool().query(`select ${notifyRunChanged} from runs where id = $1 and eval_job_id is null`, [runId]);
}

/**
 * Calls `onRuns` with the runs whose reads changed (RUN_CHANGED_CHANNEL: a run and its parent), on a
 * connection of its own that is opened again after it drops (a second later, doubling up to 30 s).
 * Resolves, with the stop, once the first connection listens or has failed.
 */
export async function listenRunChanges(onRuns: (runs: ChangedRun[]) => void): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let stopped = false;
  let retryMs = 1_000;
  const connect = async () => {
    if (stopped) return;
    const c = new pg.Client({ connectionString: databaseUrl() });
    client = c;
    const again = () => {
      if (client !== c) return;
      client = null;
      void c.end().catch(() => undefined);
      setTimeout(() => void connect(), retryMs).unref();
      retryMs = Math.min(retryMs * 2, 30_000);
    };
    c.on('error', again);
    c.on('end', again);
    c.on('notification', (n) => n.payload && onRuns(changedRuns(n.payload)));
    try {
      await c.connect();
      await c.query(`listen ${RUN_CHANGED_CHANNEL}`);
      retryMs = 1_000;
    } catch {
      again();
    }
  };
  await connect();
  return async () => {
    stopped = true;
    const c = client;
    client = null;
    await c?.end().catch(() => undefined);
  };
}

/** The runs a notification names: id and share id, pair after pair. */
function changedRuns(payload: string): ChangedRun[] {
  const words = payload.split(' ');
  const runs: ChangedRun[] = [];
  for (let i = 0; i + 1 < words.length; i += 2) runs.push({ id: words[i], shareId: words[i + 1] });
  return runs;
}
