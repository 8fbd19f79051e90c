import { ownerFilter } from '@/lib/auth/access';
import type { Viewer } from '@/lib/auth/viewer';
import { QuestionOptionsSchema } from '@/lib/runs/schemas';
import { readSetChoice, recentSets, setQuestionsPage, type SetChoiceRow } from '@/lib/eval/store/sets';
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
  return (await recentSets(ownerFilter(viewer), limit)).map(setChoice);
}

/** A page of one set's questions, in order. */
export async function questionChoices(
  viewer: Viewer,
  setId: string,
  opts: { limit?: number; offset?: number } = {},
): Promise<{ set: QuestionSetChoice; items: QuestionChoice[] }> {
  const set = await readSetChoice(setId, ownerFilter(viewer));
  if (!set) throw new NotFoundError(`No question set with id ${setId}`);
  const rows = await setQuestionsPage(setId, { limit: opts.limit ?? 50, offset: opts.offset ?? 0 });
  return {
    set: setChoice(set),
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

function setChoice(s: SetChoiceRow): QuestionSetChoice {
  return { id: s.id, name: s.name, source: s.source, description: s.description, total: s._count.questions, updatedAt: s.updatedAt.toISOString() };
}
