import { z } from 'zod';
import { K2vReportSchema } from '@/lib/verify/report';

/**
 * K2V verification as runs recorded it before verifications became records of
 * their own (lib/verify): no method records these kinds any more, but stored
 * traces hold them and the trace page still reads them.
 */
export const legacyVerifySteps = {
  verify: {
    output: K2vReportSchema.omit({ version: true, runId: true, verifiedAt: true }).extend({
      generalPassRate: K2vReportSchema.shape.generalPassRate.optional(),
    }),
  },
  'verify.judge': {
    output: z.object({ verdict: z.string(), reason: z.string().optional(), flaggedUnsupportedFacts: z.array(z.string()).optional() }),
    input: z.object({ text: z.string().optional(), source: z.string().optional() }),
  },
} as const;
