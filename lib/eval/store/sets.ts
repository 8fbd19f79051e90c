import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { OwnerFilter } from '@/lib/base/owners';
import { getPool, getPrisma } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import type { Prisma } from '@/lib/db/generated/client';

/**
 * The question sets' store: a set is written whole in one transaction with the
 * documents its questions bring (so a failed save leaves nothing behind), listed,
 * and read with its questions. lib/eval/sets.ts checks and names what is stored.
 */

/** Where stored documents that came with imported questions are kept apart from the corpus imports. */
const QUESTION_DOCUMENT_SOURCE = 'question';
/** Between a document's sections in its text, as the corpus importer joins them. */
const SECTION_SEPARATOR = '\n\n';
const ROWS_PER_STATEMENT = 2_000;

/** A set as stored: its columns, the JSON ones (meta, counts) as they were written. */
const StoredSetSchema = z.object({
  id: z.string(),
  name: z.string(),
  source: z.string(),
  license: z.string().nullable(),
  description: z.string().nullable(),
  meta: z.unknown(),
  counts: z.unknown(),
  ownerId: z.string().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
});
export type StoredSet = z.infer<typeof StoredSetSchema>;

/** A set to write: the columns and, per question, its documents to store with it. */
export interface SetToStore {
  name: string;
  source: string;
  license: string;
  description?: string;
  meta?: Record<string, unknown>;
  counts: object;
  questions: {
    text: string;
    options?: Record<string, string> | null;
    answer: object;
    answerType: string;
    family?: string | null;
    goldGraph?: object | null;
    evidence?: object | null;
    documentIds?: string[];
    documents?: { title?: string | null; sections: { label?: string | null; text: string }[]; meta?: Record<string, unknown> }[];
    meta?: Record<string, unknown> | null;
  }[];
}

/**
 * Writes a set under its owner and name. Saves under one name wait for each other;
 * `admit` sees the owner's set of that name (or null) and throws to refuse, else that
 * set (with the documents its questions brought) is replaced.
 */
export async function storeQuestionSet(set: SetToStore, ownerId: string | null, admit: (existing: { source: string } | null) => void): Promise<StoredSet> {
  const prisma = await getPrisma();
  return prisma.$transaction(
    async (tx) => {
      // A null owner is not covered by the unique index, hence the lock.
      await tx.$executeRaw`select pg_advisory_xact_lock(hashtext(${`question-set:${ownerId ?? ''}:${set.name}`}))`;
      const existing = await tx.questionSet.findFirst({ where: { name: set.name, ownerId }, include: { questions: { select: { documentIds: true } } } });
      admit(existing);
      if (existing) {
        const owned = existing.questions.flatMap((q) => q.documentIds);
        await tx.document.deleteMany({ where: { id: { in: owned }, source: QUESTION_DOCUMENT_SOURCE } });
        await tx.questionSet.delete({ where: { id: existing.id } });
      }
      const documentIds = await storeDocuments(tx, set.questions, ownerId);
      const created = await tx.questionSet.create({
        data: {
          ownerId,
          name: set.name,
          source: set.source,
          license: set.license,
          description: set.description,
          meta: json(set.meta),
          counts: json(set.counts),
        },
      });
      const rows = set.questions.map((q, ordinal) => ({
        setId: created.id,
        ordinal,
        text: q.text,
        options: json(q.options),
        answer: json(q.answer),
        answerType: q.answerType,
        family: q.family ?? null,
        goldGraph: json(q.goldGraph),
        evidence: json(q.evidence),
        documentIds: [...(q.documentIds ?? []), ...documentIds[ordinal]],
        meta: json(q.meta),
      }));
      await inChunks(rows, (data) => tx.question.createMany({ data }));
      return created;
    },
    // Large sets (MIRAGE: 7,663 questions) take longer than Prisma's 5 s default.
    { timeout: 300_000, maxWait: 30_000 },
  );
}

/** Writes each question's documents and their passages (with FTS vectors); returns the new ids per question. */
async function storeDocuments(tx: Prisma.TransactionClient, questions: SetToStore['questions'], ownerId: string | null): Promise<string[][]> {
  const documents: Prisma.DocumentCreateManyInput[] = [];
  const passages: Prisma.PassageCreateManyInput[] = [];
  const ids = questions.map((q) =>
    (q.documents ?? []).map((doc) => {
      const id = randomUUID();
      let offset = 0;
      doc.sections.forEach((section, ordinal) => {
        if (ordinal > 0) offset += SECTION_SEPARATOR.length;
        passages.push({
          id: `${id}:${ordinal}`,
          documentId: id,
          ordinal,
          start: offset,
          end: offset + section.text.length,
          label: section.label ?? null,
          text: section.text,
        });
        offset += section.text.length;
      });
      const text = doc.sections.map((s) => s.text).join(SECTION_SEPARATOR);
      documents.push({ id, ownerId, source: QUESTION_DOCUMENT_SOURCE, title: doc.title ?? null, text, meta: json(doc.meta) });
      return id;
    }),
  );
  if (!documents.length) return ids;
  await inChunks(documents, (data) => tx.document.createMany({ data }));
  await inChunks(passages, (data) => tx.passage.createMany({ data }));
  // The server computes the vectors so full-text queries use exactly its parser and dictionary.
  await tx.$executeRaw`update passages set tsv = to_tsvector('english', text) where document_id = any(${documents.map((d) => d.id)}::text[])`;
  return ids;
}

/** Every set, by name. */
export function allQuestionSets(): Promise<StoredSet[]> {
  // Plain SQL: `sets list` then starts no ORM, whose query compiler is most of that short command's start.
  // Timestamps are stored as UTC without a zone (as Prisma writes them).
  return queryRows(
    getPool(),
    StoredSetSchema,
    `select id, name, source, license, description, meta, counts, owner_id "ownerId",
            created_at at time zone 'UTC' "createdAt", updated_at at time zone 'UTC' "updatedAt"
       from question_sets order by name`,
  );
}

/**
 * Where the set named `idOrName` is among those the filter lets through (by id, or by
 * name: the viewer's own set before everyone's); another user's set is never found.
 */
function setLookup(idOrName: string, owners: OwnerFilter): { where: Prisma.QuestionSetWhereInput; orderBy: Prisma.QuestionSetOrderByWithRelationInput } {
  const names = [idOrName, idOrName.normalize('NFKC').trim()];
  return {
    where: { AND: [owners, { OR: [{ id: idOrName }, { name: { in: names } }] }] },
    // Postgres sorts nulls last ascending: the viewer's own set comes first.
    orderBy: { ownerId: { sort: 'asc', nulls: 'last' } },
  };
}

/** A set by id or name with its questions in order; null when there is none the filter lets through. */
export async function readQuestionSet(idOrName: string, owners: OwnerFilter) {
  const prisma = await getPrisma();
  return prisma.questionSet.findFirst({ ...setLookup(idOrName, owners), include: { questions: { orderBy: { ordinal: 'asc' } } } });
}

/** A set by id or name with its question ids in order (what an evaluation samples from); null when there is none. */
export async function readSetQuestionIds(idOrName: string, owners: OwnerFilter): Promise<{ id: string; name: string; questions: { id: string }[] } | null> {
  const prisma = await getPrisma();
  return prisma.questionSet.findFirst({
    ...setLookup(idOrName, owners),
    select: { id: true, name: true, questions: { select: { id: true }, orderBy: { ordinal: 'asc' } } },
  });
}

/** A set as the question picker lists it. */
export interface SetChoiceRow {
  id: string;
  name: string;
  source: string;
  description: string | null;
  updatedAt: Date;
  _count: { questions: number };
}
const CHOICE_SELECT = { id: true, name: true, source: true, description: true, updatedAt: true, _count: { select: { questions: true } } } as const;

/** The most recently stored sets the filter lets through. */
export async function recentSets(owners: OwnerFilter, limit: number): Promise<SetChoiceRow[]> {
  const prisma = await getPrisma();
  return prisma.questionSet.findMany({ where: owners, orderBy: { updatedAt: 'desc' }, take: limit, select: CHOICE_SELECT });
}

/** One set, if the filter lets it through. */
export async function readSetChoice(setId: string, owners: OwnerFilter): Promise<SetChoiceRow | null> {
  const prisma = await getPrisma();
  return prisma.questionSet.findFirst({ where: { id: setId, ...owners }, select: CHOICE_SELECT });
}

/** A page of a set's questions, in order. */
export async function setQuestionsPage(setId: string, page: { limit: number; offset: number }) {
  const prisma = await getPrisma();
  return prisma.question.findMany({
    where: { setId },
    orderBy: { ordinal: 'asc' },
    take: page.limit,
    skip: page.offset,
    select: { id: true, ordinal: true, text: true, options: true, answerType: true, family: true, answer: true, documentIds: true },
  });
}

/** Deletes every set of this name, whoever owns it (a benchmark's scratch set). */
export async function deleteSetsNamed(name: string): Promise<void> {
  const prisma = await getPrisma();
  await prisma.questionSet.deleteMany({ where: { name } });
}

/**
 * Inserts in chunks under Postgres's bind-parameter limit, one after another:
 * left to split a big batch itself, Prisma sends the parts concurrently on the
 * transaction's one connection, which pg deprecates.
 */
async function inChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) await insert(rows.slice(i, i + ROWS_PER_STATEMENT));
}

/** Prisma wants JSON columns as InputJsonValue; absent values stay SQL NULL. */
function json(value: unknown): Prisma.InputJsonValue | undefined {
  return value == null ? undefined : (value as Prisma.InputJsonValue);
}
