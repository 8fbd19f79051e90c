import { kgTriplesOf } from '@/lib/trace/evidence-data';
import type { LinkedEntity } from '@/lib/llm/offline/types';
import type { AnswerType, MethodAnswer } from '@/lib/methods/types';
import type { TripleData } from '@/lib/trace/types';

/** One model-written step of the run's reasoning trace, as the judge reads it. */
export interface TraceEntry {
  step: string;
  role: string;
  /** The model's raw output, clipped (see TRACE_ENTRY_CHARS). */
  text: string;
}

/** Characters kept per trace entry, and in all: the judge reads the reasoning, not unbounded logs. */
export const TRACE_ENTRY_CHARS = 800;
export const TRACE_TOTAL_CHARS = 8000;

/**
 * What the judge sees of a finished run: its reasoning trace (every model call
 * the method made, in order, with its step) and then its answer, rationale,
 * claims and the evidence texts the answer used.
 */
export interface RunReasoning {
  trace: TraceEntry[];
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
  calls: { step: string; role: string; output: string | null }[] = [],
): RunReasoning {
  const cited = new Set([...(answer?.evidenceIds ?? []), ...(answer?.claims ?? []).flatMap((c) => c.evidenceIds)]);
  return {
    trace: traceOf(calls),
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
    evidence: evidence.filter((e) => cited.has(e.id)).map((e) => ({ id: e.id, text: e.text, triples: kgTriplesOf(e) })),
    entities,
  };
}

/** The method's model calls in order (its reasoning: embedding requests are not), each clipped, until the total budget; a cut is said, never silent. */
function traceOf(all: { step: string; role: string; output: string | null }[]): TraceEntry[] {
  const calls = all.filter((c) => c.role !== 'embed');
  const out: TraceEntry[] = [];
  let left = TRACE_TOTAL_CHARS;
  for (const c of calls) {
    if (!c.output) continue;
    if (left <= 0) {
      out.push({ step: '…', role: '', text: `(${calls.length - out.length} further model calls not shown)` });
      break;
    }
    const text = c.output.length > Math.min(TRACE_ENTRY_CHARS, left) ? `${c.output.slice(0, Math.min(TRACE_ENTRY_CHARS, left))}…` : c.output;
    left -= text.length;
    out.push({ step: c.step, role: c.role, text });
  }
  return out;
}
