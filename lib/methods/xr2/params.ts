import { z } from 'zod';

/** X-R2's run parameters; the defaults are the paper's (xr2.txt §5 "Iteration and KG context budget", A.4). */
export const Xr2ParamsSchema = z.object({
  /** Iterations at most (--max_steps 5); T_max = 1 is the one-pass ablation. */
  tMax: z.number().int().min(1).max(10).default(5),
  /** KG triples (or short paths) per step that go into the prompt (--max_kg_triples 5); the rest stay in the trace as candidates. */
  topK: z.number().int().min(1).max(50).default(5),
  /** Candidate hits a step's KG retrieval keeps before ranking (A.4: top 40 hits). */
  candidatePool: z.number().int().min(1).max(500).default(40),
  /**
   * Score bonus for a candidate that reaches an entity the question names outside
   * E_t (an MCQ option). Neither paper has one: off (0) by default.
   */
  optionBonus: z.number().min(0).max(5).default(0),
  /** Lines of earlier steps' KG findings shown in the separate "established" block besides those an earlier answer cited (always shown). */
  establishedCap: z.number().int().min(0).max(50).default(10),
  /** Passages of a full-text search on the question used as D when no document is attached to it. */
  docK: z.number().int().min(0).max(20).default(3),
});

export type Xr2Params = z.infer<typeof Xr2ParamsSchema>;
