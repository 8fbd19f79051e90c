import { z } from 'zod';

/** ReGraM's run parameters; paper defaults (regram.txt §3, Appendix B.2, Algorithm 1) unless marked otherwise. */
export const RegramParamsSchema = z
  .object({
    /** H: the question is decomposed into at most this many hops (Table 10 sweeps 1–10). */
    maxHops: z.number().int().min(1).max(10).default(3),
    /** Off: the whole question is the one hop, no decomposition call (Tables 4, 11, 14 "w/o multi-hop"). */
    multiHop: z.boolean().default(true),
    /** Off: no domain typing; every relation weighs w_r = 1 (Tables 4, 14 "w/o domain prior"; Table 11's "categorization"). */
    domainPrior: z.boolean().default(true),
    /** Off: the region is the top-K by relevance λ·Sim·w_r alone, no redundancy term (Table 9 "w/o MMR"). */
    mmr: z.boolean().default(true),
    /** Off: HYBRID hypotheses inside the region's schema are kept unreviewed, with no judge and no revision (Tables 6/12 "w/o Reviewer"). */
    reviewer: z.boolean().default(true),
    /** Fuzzy links are kept only at this Levenshtein ratio (0–100, RapidFuzz's fuzz.ratio) of mention to matched name or above (Appendix B.2: ≥ 90). */
    fuzzyRatio: z.number().min(0).max(100).default(90),
    /** Not in the paper: the MCQ options' links seed every hop's candidate triples (the paper links the hop question only). */
    optionSeeds: z.boolean().default(false),
    /** Sampling temperature of every ReGraM role (Appendix B.1 inference settings: 0.3). */
    temperature: z.number().min(0).max(2).default(0.3),
    /** Top-p of every ReGraM role (Appendix B.1: 0.9). */
    topP: z.number().gt(0).max(1).default(0.9),
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
