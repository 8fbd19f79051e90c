/** Tokens of one model call as the run view reports them: an estimate (flagged) where the backend reported none. */
export interface CallTokens {
  tokensIn: number;
  tokensOut: number;
  tokensEstimated: boolean;
}

/**
 * Token totals of a run's model calls (pure). Calls come from the run view's
 * call timings, where a call the offline engine made counts its chars/4
 * estimate; the totals are flagged as estimated when any call was. The run
 * page's cost line and timeline and the evaluation tables all read this.
 */
export function tokenTotals(calls: readonly CallTokens[]): CallTokens {
  return {
    tokensIn: calls.reduce((sum, c) => sum + c.tokensIn, 0),
    tokensOut: calls.reduce((sum, c) => sum + c.tokensOut, 0),
    tokensEstimated: calls.some((c) => c.tokensEstimated),
  };
}
