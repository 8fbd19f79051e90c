import type { ChatMessage, ModelResult } from './types';

/** Rough token count (about four characters per token) for servers that report no usage. */
export function estimateTokens(text: string): number {
  return estimateTokensOfChars(text.length);
}

/** The same estimate from a character count (lengths measured in the database). */
export function estimateTokensOfChars(chars: number): number {
  return Math.ceil(chars / 4);
}

export function estimatePromptTokens(messages: ChatMessage[]): number {
  return messages.reduce((sum, m) => sum + estimateTokens(m.content), 0);
}

/** Calls and tokens of a set of model results; tokens a backend did not report are chars/4 estimates, flagged. */
export function tallyTokens(results: ModelResult<unknown>[]): { calls: number; tokensIn: number; tokensOut: number; estimated: boolean } {
  let tokensIn = 0;
  let tokensOut = 0;
  let estimated = false;
  for (const r of results) {
    const reported = r.backend === 'openai' || r.tokensIn > 0 || r.tokensOut > 0;
    tokensIn += reported ? r.tokensIn : estimatePromptTokens(r.messages);
    tokensOut += reported ? r.tokensOut : estimateTokens(r.text);
    estimated ||= !reported || r.tokensEstimated;
  }
  return { calls: results.length, tokensIn, tokensOut, estimated };
}

/** One pipeline stage's model calls and tokens, as a method's stages report them (`ms` where the method times its stages). */
export interface StageTally<S extends string> {
  stage: S;
  calls: number;
  tokensIn: number;
  tokensOut: number;
  estimated: boolean;
  ms?: number;
}

/** One stage's tally of its model results. */
export function tallyStage<S extends string>(stage: S, results: ModelResult<unknown>[]): StageTally<S> {
  return { stage, ...tallyTokens(results) };
}

/** Sums a run's stage usages per stage, in the pipeline's stage order, with the run's call and token totals. */
export function sumStageUsage<U extends StageTally<string>>(
  order: readonly U['stage'][],
  usages: U[],
): { stages: U[]; calls: number; tokensIn: number; tokensOut: number } {
  const byStage = new Map<string, U>();
  for (const u of usages) {
    const into = byStage.get(u.stage);
    byStage.set(u.stage, into ? addStageUsage(into, u) : u);
  }
  const stages = order.flatMap((s) => byStage.get(s) ?? []);
  const sum = (f: (s: U) => number) => stages.reduce((n, s) => n + f(s), 0);
  return { stages, calls: sum((s) => s.calls), tokensIn: sum((s) => s.tokensIn), tokensOut: sum((s) => s.tokensOut) };
}

function addStageUsage<U extends StageTally<string>>(a: U, b: U): U {
  return {
    ...a,
    calls: a.calls + b.calls,
    tokensIn: a.tokensIn + b.tokensIn,
    tokensOut: a.tokensOut + b.tokensOut,
    estimated: a.estimated || b.estimated,
    ...(a.ms === undefined ? {} : { ms: a.ms + (b.ms ?? 0) }),
  };
}
