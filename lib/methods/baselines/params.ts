import { z } from 'zod';

/** What the context blocks read from the document and web channels (no paper fixes these for the baselines). */
const contextParams = {
  /** Passages from a full-text search on the question, used when no document is attached to it. */
  docK: z.number().int().min(0).max(20).default(3),
  /** Web records per question, when the web channel is on. */
  webK: z.number().int().min(0).max(20).default(3),
};

export const DirectParamsSchema = z.object(contextParams);
type DirectParams = z.infer<typeof DirectParamsSchema>;

export const CotParamsSchema = z.object(contextParams);
type CotParams = z.infer<typeof CotParamsSchema>;

export const KgRagParamsSchema = z.object({
  /** Triples of the ranked 1-hop neighbourhood that go into the prompt (METHODS.md §1: top 20). */
  topK: z.number().int().min(1).max(200).default(20),
  /** Neighbours read per linked entity, best-connected first, before ranking. */
  neighbourhoodLimit: z.number().int().min(1).max(2000).default(200),
  ...contextParams,
});
export type KgRagParams = z.infer<typeof KgRagParamsSchema>;

export type ContextParams = z.infer<z.ZodObject<typeof contextParams>>;
