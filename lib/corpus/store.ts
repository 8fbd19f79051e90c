import type pg from 'pg';
import { z } from 'zod';
import type { OwnerFilter } from '@/lib/base/owners';
import { NotFoundError } from '@/lib/base/errors';
import { getPool, getPrisma } from '@/lib/db/client';
import { queryRow, queryRows } from '@/lib/db/rows';

/**
 * The corpus's store: documents, their passages (full-text indexed) and the
 * relevance calibration kept per corpus. Rows come back parsed.
 */

/** A database to read the corpus from: the process's pool unless a caller (an import into another database) names one. */
export type CorpusDb = Pick<pg.Pool, 'query'>;

const PassageSchema = z.object({
  id: z.string(),
  documentId: z.string(),
  ordinal: z.number(),
  start: z.number(),
  end: z.number(),
  label: z.string().nullable(),
  text: z.string(),
  title: z.string().nullable(),
  source: z.string(),
  externalId: z.string().nullable(),
  /** Full-text rank against the search's query (searches only). */
  rank: z.number().optional(),
});
export type Passage = z.infer<typeof PassageSchema>;

const PASSAGE_COLUMNS = `p.id, p.document_id "documentId", p.ordinal, p.start, p."end", p.label, p.text, d.title, d.source, d.external_id "externalId"`;

/** Every passage of these documents, in document and passage order. */
export async function passagesOf(documentIds: readonly string[]): Promise<Passage[]> {
  return queryRows(
    getPool(),
    PassageSchema,
    `select ${PASSAGE_COLUMNS} from passages p join documents d on d.id = p.document_id
      where p.document_id = any($1) order by p.document_id, p.ordinal`,
    [documentIds],
  );
}

/**
 * Where a passage search looks: not in `exclude` (documents read already), only among `within` passage ids when given,
 * and only in everyone's corpus and the documents `owner` attached (another user's attached documents are theirs).
 */
export interface PassageScope {
  limit: number;
  exclude: readonly string[];
  within: readonly string[] | null;
  owner: string | null;
}

/** The search's owner condition on `d` (documents), its owner the query's parameter `$n`. */
const readableBy = (n: number) => `(d.owner_id is null or d.owner_id = $${n}::text)`;

/** A passage search: passages matching the tsquery `match`, ranked by full-text rank against the tsquery `rankBy`. */
export interface PassageSearch {
  match: string;
  rankBy: string;
}

const SearchRowSchema = PassageSchema.extend({ search: z.coerce.number() });

/**
 * The best `scope.limit` passages of each search (by rank, then id), in one statement: a round's searches wait for
 * one round trip, not two each. Each search is its own lateral query, so its rows are what it alone would find.
 */
export async function passageSearches(searches: readonly PassageSearch[], scope: PassageScope): Promise<Passage[][]> {
  const rows = await queryRows(
    getPool(),
    SearchRowSchema,
    `select s.search, x.*
       from unnest($1::text[], $2::text[]) with ordinality s(match, rank_by, search)
       cross join lateral (
         select ${PASSAGE_COLUMNS}, ts_rank_cd(p.tsv, r) as rank
           from passages p join documents d on d.id = p.document_id,
                to_tsquery('english', s.match) q, to_tsquery('english', s.rank_by) r
          where p.tsv @@ q and not (p.document_id = any($4)) and ($5::text[] is null or p.id = any($5)) and ${readableBy(6)}
          order by rank desc, p.id limit $3) x
      order by s.search, x.rank desc, x.id`,
    [searches.map((s) => s.match), searches.map((s) => s.rankBy), scope.limit, scope.exclude, scope.within, scope.owner],
  );
  const found: Passage[][] = searches.map(() => []);
  for (const { search, ...row } of rows) found[search - 1].push(row);
  return found;
}

const CorpusShapeSchema = z.object({ documents: z.number(), passages: z.number(), ids: z.string(), imported: z.string().nullable() });

/**
 * The corpus as a calibration sees it: how many documents and passages, an md5 of the
 * passages' ids, and when documents were last imported (a re-import keeps its passages'
 * ids, not necessarily their text).
 */
export async function corpusShape(db: CorpusDb = getPool()): Promise<z.infer<typeof CorpusShapeSchema>> {
  const shape = await queryRow(
    db,
    CorpusShapeSchema,
    `select (select count(*)::int from documents) documents, count(*)::int passages, md5(coalesce(string_agg(id, ',' order by id), '')) ids,
            (select max(imported_at)::text from kg_imports where kind = 'documents') imported
       from passages`,
  );
  return shape!;
}

/** A calibration as `corpus_calibrations.value` holds it (JSON has no Infinity: a corpus too small to calibrate has a null threshold). */
const StoredCalibrationSchema = z.object({ threshold: z.number().nullable(), negatives: z.number(), documents: z.number(), method: z.string() });
export type StoredCalibration = z.infer<typeof StoredCalibrationSchema>;

/** The calibration stored under this corpus signature, or null. */
export async function readCalibration(signature: string, db: CorpusDb = getPool()): Promise<StoredCalibration | null> {
  const row = await queryRow(db, z.object({ value: StoredCalibrationSchema }), `select value from corpus_calibrations where signature = $1`, [signature]);
  return row?.value ?? null;
}

/** Stores the calibration of this signature; other corpora's are stale, so one row is kept per database. */
export async function saveCalibration(signature: string, value: StoredCalibration, db: CorpusDb = getPool()): Promise<void> {
  await db.query(
    `with gone as (delete from corpus_calibrations where signature <> $1)
     insert into corpus_calibrations (signature, value) values ($1, $2::jsonb) on conflict (signature) do nothing`,
    [signature, JSON.stringify(value)],
  );
}

const CorpusPassageSchema = z.object({ id: z.string(), documentId: z.string(), text: z.string() });
export type CorpusPassage = z.infer<typeof CorpusPassageSchema>;

/** Every passage's id, document and text, by id. */
export async function allPassageTexts(db: CorpusDb = getPool()): Promise<CorpusPassage[]> {
  return queryRows(db, CorpusPassageSchema, `select id, document_id "documentId", text from passages order by id`);
}

/** A document as the provenance panel shows it: its whole text, so a passage's span can be highlighted in place. */
export interface DocumentView {
  id: string;
  source: string;
  externalId: string | null;
  title: string | null;
  text: string;
  passages: { id: string; ordinal: number; start: number; end: number; label: string | null }[];
}

/** A document the filter lets through (the corpus's, or one attached to the viewer's runs or brought by their sets). */
export async function readDocument(id: string, owners: OwnerFilter): Promise<DocumentView> {
  const prisma = await getPrisma();
  const doc = await prisma.document.findFirst({
    where: { id, ...owners },
    select: {
      id: true,
      source: true,
      externalId: true,
      title: true,
      text: true,
      passages: { orderBy: { ordinal: 'asc' }, select: { id: true, ordinal: true, start: true, end: true, label: true } },
    },
  });
  if (!doc) throw new NotFoundError(`No document with id ${id}`);
  return doc;
}

/** Stores one attached document and its passages (with their FTS vectors) in one transaction; returns its id. */
export async function insertAttachedDocument(
  doc: { title: string | null; text: string },
  spans: { start: number; end: number }[],
  ownerId: string | null,
): Promise<string> {
  return (await getPrisma()).$transaction(async (tx) => {
    const inserted = await tx.$queryRaw`
      insert into documents (id, source, title, text, owner_id) values (gen_random_uuid()::text, 'attached', ${doc.title}, ${doc.text}, ${ownerId}) returning id`;
    const [{ id }] = z
      .array(z.object({ id: z.string() }))
      .length(1)
      .parse(inserted);
    await tx.$executeRaw`
      insert into passages (id, document_id, ordinal, start, "end", text, tsv)
      select gen_random_uuid()::text, ${id}, o - 1, s, e, substr(${doc.text}, s + 1, e - s), to_tsvector('english', substr(${doc.text}, s + 1, e - s))
        from unnest(${spans.map((s) => s.start)}::int[], ${spans.map((s) => s.end)}::int[]) with ordinality as t(s, e, o)`;
    return id;
  });
}

/** The ids of a source's documents with these external ids (PubMed ids, …), by external id. */
export async function documentIdsByExternalId(source: string, externalIds: string[]): Promise<Map<string, string>> {
  const prisma = await getPrisma();
  const docs = await prisma.document.findMany({ where: { source, externalId: { in: externalIds } }, select: { id: true, externalId: true } });
  return new Map(docs.map((d) => [d.externalId!, d.id]));
}

/** The titles of these documents, in the order of `ids` (unknown ids left out). */
export async function readDocumentTitles(ids: readonly string[]): Promise<{ id: string; title: string | null }[]> {
  const prisma = await getPrisma();
  if (!ids.length) return [];
  const docs = await prisma.document.findMany({ where: { id: { in: [...ids] } }, select: { id: true, title: true } });
  return ids.flatMap((id) => docs.filter((d) => d.id === id));
}
