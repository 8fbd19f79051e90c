import { kindPlural } from '@/lib/llm/offline/metaedges';
import type { QuestionReading } from '@/lib/llm/offline/types';

/** What a question asks for, in words: the opening of an offline reasoning text (chain of thought, EIGEN-1's proposers). */
export function askedFor(u: QuestionReading): string {
  const kind = u.answerKind ? u.answerKind.toLowerCase() : 'entity';
  const plural = u.answerKind ? kindPlural(u.answerKind) : 'entities';
  switch (u.outputFormat) {
    case 'count':
      return `the number of distinct ${plural} that satisfy its constraints`;
    case 'yesno':
      return 'a yes or no on whether a stated relation holds';
    case 'option':
      return `the option that names the ${kind} satisfying its constraints`;
    case 'list':
      return `the ${plural} that satisfy its constraints`;
    default:
      return `the ${kind} that satisfies its constraints`;
  }
}
