import type { z } from 'zod';
import type { Channels } from '@/lib/channels';
import type { ModelClient } from '@/lib/llm/client';
import type { TraceRecorder } from '@/lib/trace/recorder';

export const METHOD_IDS = ['direct', 'cot', 'kg-rag', 'xr2', 'regram', 'bioweave', 'eigen1'] as const;
export type MethodId = (typeof METHOD_IDS)[number];

export type AnswerType = 'mcq' | 'open' | 'count' | 'list' | 'yesno';

export interface QuestionContext {
  text: string;
  /** MCQ options keyed A–E. */
  options: Record<string, string> | null;
  answerType: AnswerType;
  documentIds: string[];
  questionId: string | null;
}

export interface MethodContext<P> {
  question: QuestionContext;
  params: P;
  channels: Channels;
  model: ModelClient;
  trace: TraceRecorder;
  backend: 'offline' | 'openai';
}

/** A claim of the answer and the evidence records that support it (none: unsupported). */
export interface AnswerClaim {
  text: string;
  evidenceIds: string[];
}

export interface MethodAnswer {
  /** The answer as shown: option text, entity name(s), a number, yes/no/maybe. */
  text: string;
  optionKey?: string | null;
  /** List answers, one name per item. */
  items?: string[];
  nodeIds?: string[];
  count?: number | null;
  abstained: boolean;
  /** Every evidence record the answer rests on. */
  evidenceIds: string[];
  claims: AnswerClaim[];
  rationale?: string;
  /** Method-specific fields (ReGraM mode, BioWeave needs_repair, …). */
  extra?: Record<string, unknown>;
}

export interface MethodDefinition<P extends z.ZodType = z.ZodType> {
  id: MethodId;
  name: string;
  /** Where the algorithm comes from, in the reader's words: the paper or the baseline it is. */
  source: string;
  description: string;
  /** Run parameters; defaults are the paper's defaults. */
  params: P;
  /**
   * Top-level stages whose number of steps is fixed before they start (EIGEN-1's
   * K parallel proposers), by step kind: live progress counts done / planned,
   * not done / started so far.
   */
  plannedStages?(params: z.infer<P>): Record<string, number>;
  /**
   * Where this run departs from the paper (substitutes, additions, simplifications), short and
   * precise, for these parameters; recorded with every answer as `extra.deviations` and listed in
   * the README. Dynamic substitutes (the similarity in use) are recorded where they are measured.
   */
  deviations?(params: z.infer<P>): string[];
  run(ctx: MethodContext<z.infer<P>>): Promise<MethodAnswer>;
}

export function defineMethod<P extends z.ZodType>(def: MethodDefinition<P>): MethodDefinition<P> {
  return def;
}
