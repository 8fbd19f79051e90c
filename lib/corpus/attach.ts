import type pg from 'pg';
import { getPool } from '@/lib/db/client';

/** Splits a document into passages at blank lines, merging short paragraphs up to ~1,200 characters. */
export function splitPassages(text: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  const re = /\S[\s\S]*?(?=\n\s*\n|$)/g;
  let current: { start: number; end: number } | null = null;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const span = { start: m.index, end: m.index + m[0].trimEnd().length };
    if (current && span.end - current.start <= 1200) current.end = span.end;
    else {
      if (current) spans.push(current);
      current = span;
    }
  }
  if (current) spans.push(current);
  return spans;
}

/** Stores documents attached to a question (with passages and their FTS vectors), as the owner's; returns their ids. */
export async function attachDocuments(docs: { title?: string; text: string }[], ownerId: string | null = null, pool: pg.Pool = getPool()): Promise<string[]> {
  const ids: string[] = [];
  for (const doc of docs) {
    const client = await pool.connect();
    try {
      await client.query('begin');
      const { rows } = await client.query<{ id: string }>(
        `insert into documents (id, source, title, text, owner_id) values (gen_random_uuid()::text, 'attached', $1, $2, $3) returning id`,
        [doc.title ?? null, doc.text, ownerId],
      );
      const id = rows[0].id;
      const spans = splitPassages(doc.text);
      await client.query(
        `insert into passages (id, document_id, ordinal, start, "end", text, tsv)
         select gen_random_uuid()::text, $1, o - 1, s, e, substr($2, s + 1, e - s), to_tsvector('english', substr($2, s + 1, e - s))
           from unnest($3::int[], $4::int[]) with ordinality as t(s, e, o)`,
        [id, doc.text, spans.map((s) => s.start), spans.map((s) => s.end)],
      );
      await client.query('commit');
      ids.push(id);
    } catch (e) {
      await client.query('rollback');
      throw e;
    } finally {
      client.release();
    }
  }
  return ids;
}
