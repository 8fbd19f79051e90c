import { z } from 'zod';
import file from './general-criteria.v1.json';

/** K2V's general criteria G (k2v.txt eq. 6): versioned data, instantiated per question by the checklist role. */
export const GeneralCriteriaSchema = z.object({
  version: z.number().int().positive(),
  name: z.string(),
  source: z.string().optional(),
  criteria: z
    .array(
      z.object({
        id: z.string().min(1),
        group: z.string(),
        text: z.string().min(1),
        /** The offline judge's programmatic check; a criterion without one is judged "no" offline, with that reason. */
        check: z.string().nullable().default(null),
      }),
    )
    .min(1),
});
export type GeneralCriteria = z.infer<typeof GeneralCriteriaSchema>;

/** Validated on load, so a mistyped edit fails loudly instead of verifying against a partial list. */
export function generalCriteria(): GeneralCriteria {
  return GeneralCriteriaSchema.parse(file);
}
