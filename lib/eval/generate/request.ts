import { z } from 'zod';
import { MAX_QUESTIONS } from './errors';
import { COVERAGE_POLICIES } from './evidence';
import { EVIDENCE_SOURCES } from './types';
import { BIOMEDHOP_FAMILIES, RENDERINGS } from './types';

export const GENERATORS = ['biomedhop', 'k2v'] as const;
export type Generator = (typeof GENERATORS)[number];

/** "a,b" or ["a", "b"] → the listed values of an enum, at least one. */
const list = <T extends readonly [string, ...string[]]>(values: T) =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(z.enum(values)).min(1));

/**
 * What a set generation asks for, from the CLI or the `/eval` page: the same
 * schema, so both accept and refuse the same requests.
 */
export const GenerateRequestSchema = z
  .object({
    generator: z.enum(GENERATORS, { message: `the generator is one of ${GENERATORS.join(', ')}` }),
    name: z.string().trim().min(1, { message: 'a set needs a name' }).max(120),
    seed: z.string().trim().min(1).default('1'),
    count: z.coerce
      .number({ message: 'the count is a number' })
      .int()
      .min(1)
      .max(MAX_QUESTIONS, { message: `at most ${MAX_QUESTIONS} questions` })
      .default(50),
    families: list(BIOMEDHOP_FAMILIES).optional(),
    renderings: list(RENDERINGS).optional(),
    sources: list(EVIDENCE_SOURCES).optional(),
    coverage: z.enum(COVERAGE_POLICIES, { message: `coverage is one of ${COVERAGE_POLICIES.join(', ')}` }).optional(),
  })
  .refine((r) => r.generator === 'biomedhop' || (!r.families && !r.renderings && !r.sources && !r.coverage), {
    message: 'families, renderings, sources and coverage apply to biomedhop only',
    path: ['families'],
  });

export type GenerateRequest = z.infer<typeof GenerateRequestSchema>;
