import type pg from 'pg';
import type { z } from 'zod';

/** What runs a statement: the pool, or one connection (of the pool, inside a transaction, or a client of its own). */
type Queryable = Pick<pg.Pool | pg.ClientBase, 'query'>;

/**
 * The rows of a raw statement, each parsed by `row`: what a store hands up is checked
 * at the boundary, never a cast (`query<Row>`). Keep `row` a plain z.object (coercing
 * only what pg returns as text, such as bigint counts) so large reads stay cheap.
 */
export async function queryRows<S extends z.ZodType>(db: Queryable, row: S, sql: string, params?: readonly unknown[]): Promise<z.output<S>[]> {
  const { rows } = await db.query(sql, params as unknown[] | undefined);
  return rows.map((r) => row.parse(r) as z.output<S>);
}

/** The first row of a raw statement, parsed by `row`; null when it returned none. */
export async function queryRow<S extends z.ZodType>(db: Queryable, row: S, sql: string, params?: readonly unknown[]): Promise<z.output<S> | null> {
  const { rows } = await db.query(sql, params as unknown[] | undefined);
  return rows.length ? (row.parse(rows[0]) as z.output<S>) : null;
}
