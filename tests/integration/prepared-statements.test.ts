import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { getPool } from '@/lib/db/client';
import { prepared, queryRow, queryRows } from '@/lib/db/rows';

/**
 * The statements every run sends are prepared once per connection (lib/db/rows.ts `prepared`): named by their text, so
 * a name always stands for one text, and answering exactly as the same text sent unprepared.
 */
describe('prepared statements', () => {
  it('names a text the same way every time, and two texts differently', () => {
    const a = prepared('select $1::int + 1 as n');
    expect(prepared('select $1::int + 1 as n')).toEqual(a);
    expect(prepared('select $1::int + 2 as n').name).not.toBe(a.name);
    expect(a.text).toBe('select $1::int + 1 as n');
  });

  it('is parsed once on a connection and answers as the plain statement does', async () => {
    const sql = `select g as n, $1::text || g as label from generate_series(1, $2::int) g order by g`;
    const statement = prepared(sql);
    const Row = z.object({ n: z.number(), label: z.string() });
    const client = await getPool().connect();
    try {
      const plain = await queryRows(client, Row, sql, ['x', 3]);
      expect(await queryRows(client, Row, statement, ['x', 3])).toEqual(plain);
      // Bound again with other values: the same prepared statement, a different answer.
      expect(await queryRows(client, Row, statement, ['y', 2])).toEqual([
        { n: 1, label: 'y1' },
        { n: 2, label: 'y2' },
      ]);
      const held = await queryRows(client, z.object({ name: z.string(), statement: z.string() }), `select name, statement from pg_prepared_statements`);
      expect(held).toContainEqual({ name: statement.name, statement: sql });
      expect(await queryRow(client, Row, statement, ['z', 0])).toBeNull();
    } finally {
      client.release();
    }
  });
});
