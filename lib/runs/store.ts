import { getPool } from '@/lib/db/client';

/**
 * A run's state as one text (status, last update, owner, share id, its
 * verifications and its reruns), which changes whenever anything its reads
 * show changes; null when there is no such run (./snapshot.ts tags reads with it).
 */
export async function readRunState(where: { id: string } | { shareId: string }): Promise<{ id: string; status: string; state: string } | null> {
  const { rows } = await getPool().query<{ id: string; status: string; state: string }>(
    `select r.id, r.status,
            concat_ws('|', r.status, r.updated_at, r.owner_id, r.share_id,
                      (select concat(count(*), ':', max(v.created_at)) from verifications v where v.run_id = r.id),
                      (select concat(count(*), ':', max(c.updated_at)) from runs c where c.parent_run_id = r.id)) state
       from runs r where ${'id' in where ? 'r.id' : 'r.share_id'} = $1`,
    ['id' in where ? where.id : where.shareId],
  );
  return rows[0] ?? null;
}

/** How many of these runs have ended (succeeded, failed or cancelled). */
export async function countEndedRuns(ids: string[]): Promise<number> {
  const { rows } = await getPool().query<{ n: number }>(
    `select count(*)::int n from runs where id = any($1) and status in ('succeeded', 'failed', 'cancelled')`,
    [ids],
  );
  return rows[0].n;
}

/** Deletes these runs (their traces go with them). */
export async function deleteRuns(ids: string[]): Promise<void> {
  await getPool().query('delete from runs where id = any($1)', [ids]);
}
