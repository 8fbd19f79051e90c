import { z } from 'zod';

export const DEFAULT_NEIGHBOR_LIMIT = 60;
export const MAX_NEIGHBOR_LIMIT = 500;

/** `decodeURIComponent` that leaves malformed escapes alone instead of throwing. */
export function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** A list given as `a,b` or as repeated keys (`k=a&k=b`); empty parts dropped. */
function listOf(item: z.ZodType<string, string>) {
  return z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) =>
      (v === undefined ? [] : Array.isArray(v) ? v : [v])
        .flatMap((s) => s.split(','))
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item).max(30, 'at most 30 values'));
}

function intParam(name: string, min: number, max: number, fallback: number) {
  return z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? String(fallback) : v.trim()))
    .pipe(
      z
        .string()
        .regex(/^\d+$/, `${name} must be a whole number`)
        .transform(Number)
        .pipe(z.number().int().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`)),
    );
}

/** A node kind of the loaded graph: Hetionet's ("Side Effect") or another's ("Gene/Protein"). */
export const NodeKindSchema = z.string().regex(/^[A-Za-z][A-Za-z0-9 /_-]{0,59}$/, 'kind must be a node kind such as Gene or Gene/Protein');

/** A KG node id, "Kind::source-id" (e.g. "Gene::3439", "Disease::DOID:2377"), URL-decoded. */
export const NodeIdSchema = z
  .string()
  .transform(safeDecode)
  .pipe(
    z
      .string()
      .trim()
      .min(1, 'id is required')
      .max(300, 'id is too long')
      .regex(/^[A-Za-z][A-Za-z0-9 /_-]*::\S.*$/, 'id must look like Kind::identifier, e.g. Gene::3439'),
  );

/** A metaedge abbreviation such as Hetionet's "DaG" or "Gr>G", or PrimeKG's "drug_protein:target". */
export const MetaedgeSchema = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_>:. -]{0,119}$/, 'metaedge must be an abbreviation such as DaG, Gr>G or drug_protein:target');

export const DirectionSchema = z.enum(['out', 'in', 'both'], { error: () => 'direction must be out, in or both' });

export const SearchQuerySchema = z.object({
  q: z
    .string({ error: () => 'q is required' })
    .trim()
    .min(1, 'q must not be empty')
    .max(200, 'q must be at most 200 characters'),
  kinds: listOf(NodeKindSchema),
  limit: intParam('limit', 1, 50, 10),
});

export const NodeParamsSchema = z.object({ id: NodeIdSchema });

export const NeighborsQuerySchema = z.object({
  metaedges: listOf(MetaedgeSchema),
  direction: DirectionSchema.optional(),
  neighborKinds: listOf(NodeKindSchema),
  limit: intParam('limit', 1, MAX_NEIGHBOR_LIMIT, DEFAULT_NEIGHBOR_LIMIT),
  offset: intParam('offset', 0, 1_000_000, 0),
  /** degree: best-connected first; id: source order; diverse: relations take turns (the browser's default view). */
  order: z.enum(['degree', 'id', 'diverse']).default('degree'),
});
type NeighborsQuery = z.output<typeof NeighborsQuerySchema>;
