import { z } from 'zod';
import { assertSafeText, findUnsafeText } from '@/lib/api/input';
import { allowed, LOCAL_VIEWER, ownerFilter } from '@/lib/auth/access';
import type { Viewer } from '@/lib/auth/viewer';
import { InvalidInputError } from '@/lib/base/errors';
import { SetImportError } from '@/lib/eval/import/errors';
import { allQuestionSets, readQuestionSet, storeQuestionSet, type StoredSet } from '@/lib/eval/store/sets';
import type { AnswerType } from '@/lib/methods/types';
import type { GoldAnswer } from './scoring';

/**
 * Question sets: storing (generated or imported), listing and reading them, the
 * viewer's only (the database work is lib/eval/store/sets.ts).
 */

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
  const saved = await storeQuestionSet({ ...set, counts }, ownerId, (existing) => {
    if (existing && existing.source !== set.source) throw new SetNameTaken(`the name "${set.name}" is taken by a ${existing.source} set; choose another name`);
    if (existing && !replace) throw new SetNameTaken(`a set named "${set.name}" exists already; choose another name, or replace it explicitly (--replace)`);
  });
  return summary(saved);
}

/** The sets the viewer may see (theirs and everyone's), by name. */
export async function listQuestionSets(viewer: Viewer = LOCAL_VIEWER): Promise<QuestionSetSummary[]> {
  return (await allQuestionSets()).filter((set) => allowed(viewer, set.ownerId)).map(summary);
}

/** A set by id or name, with its questions in order; null when there is none (or it is someone else's). */
export async function getQuestionSet(idOrName: string, viewer: Viewer = LOCAL_VIEWER) {
  const set = await readQuestionSet(idOrName, ownerFilter(viewer));
  return set && { ...summary(set), questions: set.questions };
}

/** The stored counts; a set stored without them (or with a damaged record) reads as empty. */
function storedCounts(json: unknown): SetCounts {
  const parsed = SetCountsSchema.safeParse(json);
  return parsed.success ? parsed.data : countQuestions([]);
}

function summary(set: StoredSet): QuestionSetSummary {
  const { id, name, source, license, description, meta, createdAt, updatedAt } = set;
  return { id, name, source, license, description, meta, counts: storedCounts(set.counts), createdAt, updatedAt };
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
