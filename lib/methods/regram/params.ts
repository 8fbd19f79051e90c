import { z } from 'zod';

/** ReGraM's run parameters; paper defaults (regram.txt §3, Appendix B.2, Algorithm 1) unless marked otherwise. */
export const RegramParamsSchema = z
  .object({
    /** H: the question is decomposed into at most this many hops. */
    maxHops: z.number().int().min(1).max(3).default(3),
    /** MMR's balance of relevance against redundancy. */
    lambda: z.number().min(0).max(1).default(0.7),
    /** Triples selected per hop region (top-K of the weighted MMR). */
    k: z.number().int().min(1).max(100).default(15),
    /** N_facts at or above this: KG-STRICT. */
    strictMinFacts: z.number().int().min(1).max(100).default(10),
    /** N_facts at or above this (and below strictMinFacts): HYBRID; below it: LLM-GUESS. */
    hybridMinFacts: z.number().int().min(1).max(100).default(1),
    /** The Reviewer accepts a hypothesis scoring at least this. */
    acceptScore: z.number().min(0).max(1).default(0.5),
    /** Verify–revise rounds for rejected hypotheses. */
    maxRevisions: z.number().int().min(0).max(5).default(2),
    /** Not in the paper: candidate triples kept per linked node, so hubs stay tractable (highest relation weight first, then best-connected neighbour). */
    hubCap: z.number().int().min(1).max(1000).default(30),
    /** Not in the paper: hypotheses generated per HYBRID hop. */
    maxHypotheses: z.number().int().min(1).max(20).default(5),
  })
  .refine((p) => p.hybridMinFacts <= p.strictMinFacts, { message: 'hybridMinFacts must not exceed strictMinFacts', path: ['hybridMinFacts'] });

export type RegramParams = z.infer<typeof RegramParamsSchema>;
