import { z } from 'zod';

/**
 * Whether every item passes `schema` (an object schema), checked as one table: each field's schema over the distinct
 * values the items hold in that field, not item by item (zod copies every object it checks; a kg-rag run checks
 * 130–1,170 evidence records and their triples). The same items pass: an object (as `z.object` takes one) whose fields
 * pass their schemas. Callers check a table that fails item by item, for its issues at their paths.
 */
export function passesAsTable(schema: z.ZodObject, items: readonly unknown[]): boolean {
  const { fields, columns } = columnsOf(schema);
  const values = fields.map(() => new Set<unknown>());
  for (const item of items) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return false;
    for (let f = 0; f < fields.length; f++) values[f].add((item as Record<string, unknown>)[fields[f]]);
  }
  return columns.safeParse(Object.fromEntries(fields.map((field, f) => [field, [...values[f]]]))).success;
}

/** Each object schema's table form: the same fields, each an array of the field's schema. */
const tables = new WeakMap<z.ZodObject, { fields: string[]; columns: z.ZodObject }>();

function columnsOf(schema: z.ZodObject): { fields: string[]; columns: z.ZodObject } {
  let table = tables.get(schema);
  if (!table) {
    const fields = Object.keys(schema.shape);
    table = { fields, columns: z.object(Object.fromEntries(fields.map((f) => [f, z.array(schema.shape[f])]))) };
    tables.set(schema, table);
  }
  return table;
}
