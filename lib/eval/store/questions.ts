import { z } from 'zod';
import { getPool, getPrisma } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';

/** The questions of the question sets, as runs and channels read them. */

/** A stored question as a run is made from it; its JSON columns (options, gold, evidence) are parsed by the run's own schemas. */
export interface StoredQuestion {
  id: string;
  text: string;
  options: unknown;
  answer: unknown;
  answerType: string;
  documentIds: string[];
  evidence: unknown;
  /** The owner of its set (null: everyone's). */
  ownerId: string | null;
}

export async function readQuestion(id: string): Promise<StoredQuestion | null> {
  const prisma = await getPrisma();
  const q = await prisma.question.findUnique({ where: { id }, include: { set: { select: { ownerId: true } } } });
  return (
    q && {
      id: q.id,
      text: q.text,
      options: q.options,
      answer: q.answer,
      answerType: q.answerType,
      documentIds: q.documentIds,
      evidence: q.evidence,
      ownerId: q.set.ownerId,
    }
  );
}

/**
 * Up to `limit` other questions, never one with this text, in an order seeded by `seed`:
 * the question's own set first, then any stored question.
 */
export function donorQuestions(question: { id: string | null; text: string }, seed: string, limit: number): Promise<{ id: string; text: string }[]> {
  return queryRows(
    getPool(),
    z.object({ id: z.string(), text: z.string() }),
    `select q.id, q.text from questions q
      where q.id is distinct from $1 and q.text <> $2
      order by (q.set_id = (select set_id from questions where id = $1)) desc nulls last, md5(q.id || $3)
      limit $4`,
    [question.id, question.text, seed, limit],
  );
}
