import type pg from 'pg';
import { z } from 'zod';
import { queryRows } from '@/lib/db/rows';

const NamedDefinition = z.object({ name: z.string(), def: z.string() });

/**
 * Drops the indexes of `tables` that back no constraint and returns the
 * statements that recreate them. Bulk loads build an index once, after the
 * rows are in, instead of updating it row by row (a trigram GIN index most of all).
 */
export async function dropSecondaryIndexes(client: pg.PoolClient, tables: string[]): Promise<string[]> {
  const rows = await queryRows(
    client,
    NamedDefinition,
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
       from pg_index i
      where i.indrelid = any($1::regclass[])
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
    [tables],
  );
  for (const r of rows) await client.query(`drop index ${r.name}`);
  return rows.map((r) => r.def);
}

/**
 * Drops `table`'s primary key and returns the statement that adds it back:
 * for a bulk load whose keys arrive in ascending order, building the key's
 * index once afterwards costs about half of maintaining it row by row.
 */
export async function dropPrimaryKey(client: pg.PoolClient, table: string): Promise<string> {
  const rows = await queryRows(
    client,
    NamedDefinition,
    `select conname as name, pg_get_constraintdef(oid) as def from pg_constraint where conrelid = $1::regclass and contype = 'p'`,
    [table],
  );
  const [key] = rows;
  await client.query(`alter table ${table} drop constraint "${key.name}"`);
  return `alter table ${table} add constraint "${key.name}" ${key.def}`;
}

/** Index builds sort in memory up to this limit; a server's default (64 MB) spills the edge indexes to disk. */
export async function raiseMaintenanceMemory(client: pg.PoolClient) {
  await client.query(`select set_config('maintenance_work_mem', '512MB', true)
                       where pg_size_bytes(current_setting('maintenance_work_mem')) < pg_size_bytes('512MB')`);
}
