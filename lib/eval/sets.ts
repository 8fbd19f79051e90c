import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { assertSafeText, findUnsafeText } from '@/lib/api/input';
import { allowed, LOCAL_VIEWER, ownerFilter } from '@/lib/auth/access';
import type { Viewer } from '@/lib/auth/viewer';
import { InvalidInputError } from '@/lib/base/errors';
import { SetImportError } from '@/lib/eval/import/errors';
import { getPool, getPrisma } from '@/lib/db/client';
import type { Prisma } from '@/lib/db/generated/client';
import type { AnswerType } from '@/lib/methods/types';
import type { GoldAnswer } from './scoring';

/**
 * Question sets: storing (generated or imported), listing and reading them.
 * A set is saved whole in one transaction with the documents its questions
 * bring, so a failed save leaves nothing behind.
 */

/** Where stored documents that came with imported questions are kept apart from the corpus imports. */
export const QUESTION_DOCUMENT_SOURCE = 'question';
/** Between a document's sections in its text, as the corpus importer joins them. */
const SECTION_SEPARATOR = '\n\n';

/** A document that comes with a question: its sections become passages (with their labels). */
export interface QuestionDocument {
  title?: string | null;
  sections: { label?: string | null; text: string }[];
  meta?: Record<string, unknown>;
}

export interface NewQuestion {
  text: string;
  options?: Record<string, string> | null;
  answer: GoldAnswer;
  answerType: AnswerType;
  family?: string | null;
  goldGraph?: object | null;
  /** Source-conditioned evidence bundles (BioMedHop; lib/eval/generate/evidence.ts). */
  evidence?: object | null;
  /** Documents already stored (e.g. the imported PubMedQA corpus). */
  documentIds?: string[];
  /** Documents to store with the question. */
  documents?: QuestionDocument[];
  meta?: Record<string, unknown> | null;
}

export interface NewQuestionSet {
  name: string;
  /** "mirage", "medddx", "pubmedqa", "jsonl", "biomedhop", "k2v", ... */
  source: string;
  license: string;
  description?: string;
  meta?: Record<string, unknown>;
  questions: NewQuestion[];
}

/** A set's question counts, stored with it (`question_sets.counts`, JSON) and read back through this schema. */
export const SetCountsSchema = z.object({
  total: z.number().int(),
  byFamily: z.record(z.string(), z.number().int()),
  byAnswerType: z.record(z.string(), z.number().int()),
  /** family → answer type → questions: the families × renderings grid. */
  byFamilyAndType: z.record(z.string(), z.record(z.string(), z.number().int())),
});
export type SetCounts = z.infer<typeof SetCountsSchema>;

export interface QuestionSetSummary {
  id: string;
  name: string;
  source: string;
  license: string | null;
  description: string | null;
  meta: unknown;
  counts: SetCounts;
  createdAt: Date;
  updatedAt: Date;
}

/** The name is held already: saving would silently replace a set (or sit beside it under a look-alike name). */
export class SetNameTaken extends Error {
  name = 'SetNameTaken';
}

/** Who a saved set belongs to, and whether it may replace that owner's set of the same name. */
export interface SaveSetOptions {
  /** The signed-in user saving it (lib/auth/access); null without sign-in (everyone's). */
  ownerId?: string | null;
  /** Replace the owner's set of this name and source (asked for explicitly: `--replace`); otherwise a taken name is refused. */
  replace?: boolean;
}

// Invisible characters (zero-width space and joiners, BOM, soft hyphen, bidi controls) and control characters.
const INVISIBLE = /[\p{Cf}\p{Cc}]/u;

/**
 * A set's name as stored and looked up: NFKC-normalised (a full-width or
 * ligature look-alike is the same name) and trimmed; a name holding invisible
 * or control characters is refused, so no two names look alike.
 */
export function normaliseSetName(name: string): string {
  const normalised = name.normalize('NFKC').trim();
  const bad = INVISIBLE.exec(normalised);
  if (bad)
    throw new InvalidInputError(
      `name: holds an invisible or control character (U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}); remove it`,
      [{ path: 'name', message: 'holds an invisible or control character' }],
    );
  if (!normalised) throw new InvalidInputError('name: a set needs a name', [{ path: 'name', message: 'a set needs a name' }]);
  return normalised;
}

const NO_FAMILY = '(none)';
const ROWS_PER_STATEMENT = 2_000;

export function countQuestions(questions: Pick<NewQuestion, 'family' | 'answerType'>[]): SetCounts {
  const counts: SetCounts = { total: questions.length, byFamily: {}, byAnswerType: {}, byFamilyAndType: {} };
  for (const q of questions) {
    const family = q.family ?? NO_FAMILY;
    counts.byFamily[family] = (counts.byFamily[family] ?? 0) + 1;
    counts.byAnswerType[q.answerType] = (counts.byAnswerType[q.answerType] ?? 0) + 1;
    const row = (counts.byFamilyAndType[family] ??= {});
    row[q.answerType] = (row[q.answerType] ?? 0) + 1;
  }
  return counts;
}

/**
 * Stores a set under its name, which is its owner's: another user's set of
 * that name is never seen or touched. A name the owner holds already is
 * refused, unless `replace` asks to replace a set of the same source (with the
 * documents its questions brought).
 */
export async function saveQuestionSet(input: NewQuestionSet, { ownerId = null, replace = false }: SaveSetOptions = {}): Promise<QuestionSetSummary> {
  const set = { ...input, name: normaliseSetName(input.name) };
  assertStorableText(set);
  const counts = countQuestions(set.questions);
  const saved = await getPrisma().$transaction(
    async (tx) => {
      // Saves under one name wait for each other (a null owner is not covered by the unique index).
      await tx.$executeRaw`select pg_advisory_xact_lock(hashtext(${`question-set:${ownerId ?? ''}:${set.name}`}))`;
      const existing = await tx.questionSet.findFirst({ where: { name: set.name, ownerId }, include: { questions: { select: { documentIds: true } } } });
      if (existing && existing.source !== set.source)
        throw new SetNameTaken(`the name "${set.name}" is taken by a ${existing.source} set; choose another name`);
      if (existing && !replace) throw new SetNameTaken(`a set named "${set.name}" exists already; choose another name, or replace it explicitly (--replace)`);
      if (existing) {
        const owned = existing.questions.flatMap((q) => q.documentIds);
        await tx.document.deleteMany({ where: { id: { in: owned }, source: QUESTION_DOCUMENT_SOURCE } });
        await tx.questionSet.delete({ where: { id: existing.id } });
      }
      const documentIds = await storeDocuments(tx, set.questions, ownerId);
      const created = await tx.questionSet.create({
        data: { ownerId, name: set.name, source: set.source, license: set.license, description: set.description, meta: json(set.meta), counts: json(counts) },
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
  return summary(saved);
}

/** Writes each question's documents and their passages (with FTS vectors); returns the new ids per question. */
async function storeDocuments(tx: Prisma.TransactionClient, questions: NewQuestion[], ownerId: string | null): Promise<string[][]> {
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

/** The sets the viewer may see (theirs and everyone's), by name. */
export async function listQuestionSets(viewer: Viewer = LOCAL_VIEWER): Promise<QuestionSetSummary[]> {
  // Plain SQL: `sets list` then starts no ORM, whose query compiler is most of that short command's start.
  // Timestamps are stored as UTC without a zone (as Prisma writes them).
  const { rows } = await getPool().query<Prisma.QuestionSetGetPayload<object>>(
    `select id, name, source, license, description, meta, counts, owner_id "ownerId",
            created_at at time zone 'UTC' "createdAt", updated_at at time zone 'UTC' "updatedAt"
       from question_sets order by name`,
  );
  return rows.filter((set) => allowed(viewer, set.ownerId)).map(summary);
}

/**
 * Where the viewer's set named `idOrName` is (by id, or by name: their own set
 * before everyone's); another user's set is never found.
 */
export function setLookup(
  idOrName: string,
  viewer: Viewer = LOCAL_VIEWER,
): { where: Prisma.QuestionSetWhereInput; orderBy: Prisma.QuestionSetOrderByWithRelationInput } {
  const names = [idOrName, idOrName.normalize('NFKC').trim()];
  return {
    where: { AND: [ownerFilter(viewer), { OR: [{ id: idOrName }, { name: { in: names } }] }] },
    // Postgres sorts nulls last ascending: the viewer's own set comes first.
    orderBy: { ownerId: { sort: 'asc', nulls: 'last' } },
  };
}

/** A set by id or name, with its questions in order; null when there is none (or it is someone else's). */
export async function getQuestionSet(idOrName: string, viewer: Viewer = LOCAL_VIEWER) {
  const set = await getPrisma().questionSet.findFirst({ ...setLookup(idOrName, viewer), include: { questions: { orderBy: { ordinal: 'asc' } } } });
  return set && { ...summary(set), questions: set.questions };
}

/** The stored counts; a set stored without them (or with a damaged record) reads as empty. */
function storedCounts(json: unknown): SetCounts {
  const parsed = SetCountsSchema.safeParse(json);
  return parsed.success ? parsed.data : countQuestions([]);
}

function summary(set: Prisma.QuestionSetGetPayload<object>): QuestionSetSummary {
  const { id, name, source, license, description, meta, createdAt, updatedAt } = set;
  return { id, name, source, license, description, meta, counts: storedCounts(set.counts), createdAt, updatedAt };
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

/**
 * Every set is written here (imported, uploaded or generated): text PostgreSQL
 * cannot store (a NUL byte, a lone surrogate) is refused before anything is
 * written, naming the question it is in, like any other malformed item.
 */
function assertStorableText(set: NewQuestionSet) {
  assertSafeText({ name: set.name, description: set.description }, 'the set');
  const issues = set.questions.flatMap((q, i) => {
    const found = findUnsafeText(q);
    return found ? [{ file: set.name, at: `question ${i + 1}`, reason: `${found.path}: ${found.message}` }] : [];
  });
  if (issues.length) throw new SetImportError(issues);
}
