import { z } from 'zod';

/** EIGEN-1's run parameters; every default is the paper's (eigen1.txt §3, Table A2). */
export const Eigen1ParamsSchema = z
  .object({
    /** Proposers, each a monitored generation. */
    k: z.number().int().min(1).max(10).default(5),
    /** Run the corrector on each proposal before HSR. */
    corrector: z.boolean().default(true),
    /**
     * Off: no monitored retrieval; the question's own retrieval goes into every role's prompt up front, labelled
     * (explicit RAG: Table 3 (b) "– (Monitor, Querier, Injector)", (a) "+ Papers (Explicit RAG)").
     */
    monitor: z.boolean().default(true),
    /** Off: the monitor window that triggered is the retrieval query as it stands (Table 3 "– Querier", "+ Monitor only"). */
    querier: z.boolean().default(true),
    /** Off: the retrieved records go into the stream raw, not filtered and rewritten into an aside (Table 3 "– Injector"). */
    injector: z.boolean().default(true),
    /** Off: no Hierarchical Solution Refinement; candidates go to QAIR as they are (Table 3 "– HSR"). */
    hsr: z.boolean().default(true),
    /** Off: candidates are evaluated once for the ranker, with no quality-driven correction rounds (Table 3 "– QAIR"). */
    qair: z.boolean().default(true),
    /** Monitor window (rag_chunk) and overlap (rag_overlapping), in characters. */
    windowChars: z.number().int().min(32).max(8192).default(512),
    overlapChars: z.number().int().min(0).max(8191).default(128),
    /** Injections allowed per generation (max_rag). */
    maxInjections: z.number().int().min(0).max(10).default(2),
    /** Records retrieved per query from each source (query_top_k). */
    queryTopK: z.number().int().min(1).max(20).default(3),
    /** Sampling temperature of every monitored generation (proposers', correctors' and refiners' reasoning). */
    temperature: z.number().min(0).max(2).default(0.5),
    /** QAIR: q = wLogic·logic + wAnswer·answer + wExplanation·explanation; pass when q ≥ tau; at most tMax evaluation rounds. */
    wLogic: z.number().min(0).max(1).default(0.2),
    wAnswer: z.number().min(0).max(1).default(0.6),
    wExplanation: z.number().min(0).max(1).default(0.2),
    tau: z.number().min(0).max(5).default(3),
    tMax: z.number().int().min(1).max(5).default(2),
    /** Breaks retrieval ties differently per proposer, reproducibly. */
    seed: z.number().int().default(0),
  })
  .refine((p) => p.overlapChars < p.windowChars, { message: 'overlapChars must be smaller than windowChars', path: ['overlapChars'] });

export type Eigen1Params = z.infer<typeof Eigen1ParamsSchema>;
