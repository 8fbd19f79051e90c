import { z } from 'zod';

const StageCostSchema = z.object({ stage: z.string(), steps: z.number(), modelCalls: z.number(), tokensIn: z.number(), tokensOut: z.number(), ms: z.number() });
type StageCost = z.infer<typeof StageCostSchema>;

/** A run's cost as `runs.cost` stores it. */
export const RunCostSchema = z.object({
  modelCalls: z.number(),
  cachedCalls: z.number(),
  tokensIn: z.number(),
  tokensOut: z.number(),
  wallMs: z.number(),
  stages: z.array(StageCostSchema),
});
export type RunCost = z.infer<typeof RunCostSchema>;
