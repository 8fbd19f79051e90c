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
