import type { LinkedEntity } from '@/lib/llm/offline/types';
import type { AnswerType, MethodAnswer } from '@/lib/methods/types';
import type { TripleData } from '@/lib/trace/types';

/** What the judge sees of a finished run: its answer, rationale, claims and the evidence texts the answer used. */
export interface RunReasoning {
  answerType: AnswerType;
  options: Record<string, string> | null;
  answer: { text: string; optionKey: string | null; items: string[]; count: number | null; abstained: boolean; nodeIds: string[] };
  rationale: string;
  claims: { text: string; evidenceIds: string[] }[];
  /** The evidence records the answer cites. */
  evidence: { id: string; text: string; triples: TripleData[] }[];
  /** Entities linked in the question. */
  entities: LinkedEntity[];
}

interface RecordedEvidence {
  id: string;
  kind: string;
  text: string;
  data: unknown;
}

export function runReasoning(
  question: { answerType: AnswerType; options: Record<string, string> | null },
  answer: MethodAnswer | null,
  evidence: RecordedEvidence[],
  entities: LinkedEntity[],
): RunReasoning {
  const cited = new Set([...(answer?.evidenceIds ?? []), ...(answer?.claims ?? []).flatMap((c) => c.evidenceIds)]);
  return {
    answerType: question.answerType,
    options: question.options,
    answer: {
      text: answer?.text ?? '',
      optionKey: answer?.optionKey ?? null,
      items: answer?.items ?? [],
      count: answer?.count ?? null,
      abstained: answer ? answer.abstained : true,
      nodeIds: answer?.nodeIds ?? [],
    },
    rationale: answer?.rationale ?? '',
    claims: answer?.claims ?? [],
    evidence: evidence.filter((e) => cited.has(e.id)).map((e) => ({ id: e.id, text: e.text, triples: triplesOf(e) })),
    entities,
  };
}

function triplesOf(e: RecordedEvidence): TripleData[] {
  if (e.kind === 'triple') return [e.data as TripleData];
  if (e.kind === 'path') return ((e.data as { hops?: TripleData[] } | null)?.hops ?? []) as TripleData[];
  return [];
}
