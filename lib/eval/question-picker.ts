import { ownerFilter } from '@/lib/auth/access';
import type { Viewer } from '@/lib/auth/viewer';
import { QuestionOptionsSchema } from '@/lib/runs/schemas';
import { getPrisma } from '@/lib/db/client';
import { NotFoundError } from '@/lib/base/errors';

/** A question as the ask form offers it: enough to show it and to run it by id (its gold answer stays on the server). */
export interface QuestionChoice {
  id: string;
  ordinal: number;
  text: string;
  options: Record<string, string> | null;
  answerType: string;
  family: string | null;
  hasGold: boolean;
  documents: number;
}

export interface QuestionSetChoice {
  id: string;
  name: string;
  source: string;
  description: string | null;
  total: number;
  updatedAt: string;
}

/** The most recently stored question sets the viewer may see. */
export async function recentQuestionSets(viewer: Viewer, limit = 12): Promise<QuestionSetChoice[]> {
  const sets = await getPrisma().questionSet.findMany({
    where: ownerFilter(viewer),
    orderBy: { updatedAt: 'desc' },
    take: limit,
    select: { id: true, name: true, source: true, description: true, updatedAt: true, _count: { select: { questions: true } } },
  });
  return sets.map((s) => ({
    id: s.id,
    name: s.name,
    source: s.source,
    description: s.description,
    total: s._count.questions,
    updatedAt: s.updatedAt.toISOString(),
  }));
}

/** A page of one set's questions, in order. */
export async function questionChoices(
  viewer: Viewer,
  setId: string,
  opts: { limit?: number; offset?: number } = {},
): Promise<{ set: QuestionSetChoice; items: QuestionChoice[] }> {
  const prisma = getPrisma();
  const set = await prisma.questionSet.findFirst({
    where: { id: setId, ...ownerFilter(viewer) },
    select: { id: true, name: true, source: true, description: true, updatedAt: true, _count: { select: { questions: true } } },
  });
  if (!set) throw new NotFoundError(`No question set with id ${setId}`);
  const rows = await prisma.question.findMany({
    where: { setId },
    orderBy: { ordinal: 'asc' },
    take: opts.limit ?? 50,
    skip: opts.offset ?? 0,
    select: { id: true, ordinal: true, text: true, options: true, answerType: true, family: true, answer: true, documentIds: true },
  });
  return {
    set: { id: set.id, name: set.name, source: set.source, description: set.description, total: set._count.questions, updatedAt: set.updatedAt.toISOString() },
    items: rows.map((q) => ({
      id: q.id,
      ordinal: q.ordinal,
      text: q.text,
      options: QuestionOptionsSchema.safeParse(q.options).data ?? null,
      answerType: q.answerType,
      family: q.family,
      hasGold: q.answer !== null,
      documents: q.documentIds.length,
    })),
  };
}
