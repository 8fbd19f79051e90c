import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { z } from 'zod';
import { BoundedMemo } from '../base/memo';

/** What runs a statement: the pool, or one connection (of the pool, inside a transaction, or a client of its own). */
type Queryable = Pick<pg.Pool | pg.ClientBase, 'query'>;

/**
 * A statement PostgreSQL parses and plans once per connection, then only binds and executes: for the statements every
 * run sends (its claim, its trace's writes, the response cache's reads and writes), whose planning was a few
 * milliseconds each of a run's end (the trace's write with the run's end is some 20 joined parts). Named by its text,
 * so the same text on any connection is the same statement and a different text can never reuse another's name.
 */
export interface Prepared {
  readonly name: string;
  readonly text: string;
}

const names = new BoundedMemo<string, string>(256);

export function prepared(text: string): Prepared {
  return { name: names.get(text, (t) => `hs_${createHash('sha1').update(t).digest('base64url')}`), text };
}

function query(db: Queryable, sql: string | Prepared, params?: readonly unknown[]) {
  const values = params as unknown[] | undefined;
  return typeof sql === 'string' ? db.query(sql, values) : db.query({ name: sql.name, text: sql.text, values });
}

/**
 * The rows of a raw statement, each parsed by `row`: what a store hands up is checked
 * at the boundary, never a cast (`query<Row>`). Keep `row` a plain z.object (coercing
 * only what pg returns as text, such as bigint counts) so large reads stay cheap.
 */
export async function queryRows<S extends z.ZodType>(db: Queryable, row: S, sql: string | Prepared, params?: readonly unknown[]): Promise<z.output<S>[]> {
  const { rows } = await query(db, sql, params);
  return rows.map((r) => row.parse(r) as z.output<S>);
}

/** The first row of a raw statement, parsed by `row`; null when it returned none. */
export async function queryRow<S extends z.ZodType>(db: Queryable, row: S, sql: string | Prepared, params?: readonly unknown[]): Promise<z.output<S> | null> {
  const { rows } = await query(db, sql, params);
  return rows.length ? (row.parse(rows[0]) as z.output<S>) : null;
}

/** Runs a statement for its effect: how many rows it touched. */
export async function execute(db: Queryable, sql: string | Prepared, params?: readonly unknown[]): Promise<number> {
  const { rowCount } = await query(db, sql, params);
  return rowCount ?? 0;
}
