import { z } from 'zod';

/**
 * BioWeave's run parameters; every default is the paper's (bioweave-biomedhop.txt
 * §5 and Appendix E "Experiment implementation"), except where METHODS.md §4
 * decides otherwise (the verification weights: s_ver is the plain mean).
 */
export const BioWeaveParamsSchema = z
  .object({
    maxRounds: z.number().int().min(1).max(6).default(3).describe('T: repair rounds (explore → verify → refine → operator check)'),
    dMax: z.number().int().min(1).max(4).default(3).describe('D_max: deepest KG path, in hops'),
    rawPathCap: z.number().int().min(1).max(1000).default(200).describe('Raw KG expansion cap: paths retrieved per round before ranking'),
    wDoc: z.number().int().min(0).max(100).default(15).describe('W_doc: document spans kept by the entity-aware filter'),
    wWeb: z.number().int().min(0).max(100).default(10).describe('W_web: web spans kept by the entity-aware filter'),
    w1: z.number().int().min(1).max(200).default(40).describe('W1: candidate pool kept by relevance s_rel'),
    perSource: z.number().int().min(1).max(200).default(10).describe('Source-wise pruning: at most this many pool units per source'),
    w2: z.number().int().min(1).max(100).default(15).describe('W2: units kept by the cross-score and shown to the selector'),
    k: z
      .number()
      .int()
      .min(1)
      .max(50)
      .default(5)
      .describe("K: evidence units the select role keeps; a KG unit holds every path of its metapath, so K bounds the evidence, not the answer's length"),
    lambdaSem: z.number().min(0).max(1).default(0.7).describe('λ_sem in s_rel = λ_sem·cos(q,u) + (1 − λ_sem)·Jaccard(Topic(q), Ent(u))'),
    beta: z.number().min(0).max(1).default(0.7).describe('β in s_cross = β·s_rel + (1 − β)·s_ver'),
    gamma: z.number().min(0).max(1).default(0.75).describe('γ: similarity at which another unit counts as support'),
    wSrc: z.number().int().min(1).max(10).default(3).describe('W_src: r_sup = min(|Supp(u)|, W_src) / W_src'),
    rhoKg: z.number().min(0).max(1).default(1.0).describe('ρ_KG: source prior of KG paths'),
    rhoDoc: z.number().min(0).max(1).default(0.8).describe('ρ_Doc: source prior of document units'),
    rhoWeb: z.number().min(0).max(1).default(0.7).describe('ρ_Web: source prior of web units (lower: less stable)'),
    alphaPrior: z
      .number()
      .min(0)
      .max(1)
      .default(1 / 3)
      .describe('α_prior in s_ver'),
    alphaSup: z
      .number()
      .min(0)
      .max(1)
      .default(1 / 3)
      .describe('α_sup in s_ver'),
    alphaKg: z
      .number()
      .min(0)
      .max(1)
      .default(1 / 3)
      .describe('α_kg in s_ver'),
    entityNormalisation: z
      .boolean()
      .default(true)
      .describe(
        "NormalizeMentions: text spans are linked to KG entities by name, alias and the question's spelling, and aliases merge in the refined graph; off (Table 8): exact KG names only, no alias merging",
      ),
    graphConversion: z
      .boolean()
      .default(true)
      .describe(
        'ConvertEvidenceGraph: document and web spans become units with entities, a predicate and typed relations (text edges); off (Table 8): spans are kept as plain text units, no extract call',
      ),
    answerMaxTokens: z.number().int().min(64).max(8192).default(1024).describe('Output tokens of the answer role'),
  })
  .refine((p) => Math.abs(p.alphaPrior + p.alphaSup + p.alphaKg - 1) < 1e-6, { message: 'alphaPrior + alphaSup + alphaKg must be 1', path: ['alphaKg'] })
  .refine((p) => p.k <= p.w2 && p.w2 <= p.w1, { message: 'budgets must shrink: k ≤ w2 ≤ w1', path: ['k'] });

export type BioWeaveParams = z.infer<typeof BioWeaveParamsSchema>;
