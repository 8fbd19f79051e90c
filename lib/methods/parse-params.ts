import { z } from 'zod';
import { InvalidInputError, invalidFromZod } from '@/lib/base/errors';
import { getMethod } from './registry';
import type { MethodId } from './types';

/**
 * A method's run parameters, checked strictly: a name the method does not have
 * is an error that names it and the closest real name (`tmax` → `tMax`), never
 * silently dropped so that the run goes ahead with defaults. `path` prefixes
 * the issue paths ("params" for a run, "params.xr2" for an evaluation).
 */
export function parseMethodParams(methodId: MethodId, raw: Record<string, unknown> | undefined, path: string[] = ['params']): Record<string, unknown> {
  const schema = getMethod(methodId).params;
  const known = schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
  const unknown = Object.keys(raw ?? {}).filter((name) => !known.includes(name));
  if (unknown.length) {
    const issues = unknown.map((name) => {
      const suggestion = closest(name, known);
      return {
        path: [...path, name].join('.'),
        message: `${methodId} has no parameter "${name}"${suggestion ? `; did you mean "${suggestion}"?` : ''} (its parameters: ${known.join(', ') || 'none'})`,
      };
    });
    throw new InvalidInputError(issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues);
  }
  const parsed = schema.safeParse(raw ?? {});
  if (!parsed.success) throw invalidFromZod({ issues: parsed.error.issues.map((i) => ({ ...i, path: [...path, ...i.path] })) });
  return parsed.data as Record<string, unknown>;
}

/** The known name nearest to a mistyped one: same letters ignoring case, else within a small edit distance. */
export function closest(name: string, known: readonly string[]): string | null {
  const lower = name.toLowerCase();
  const exact = known.find((k) => k.toLowerCase() === lower);
  if (exact) return exact;
  let best: { name: string; distance: number } | null = null;
  for (const k of known) {
    const distance = editDistance(lower, k.toLowerCase());
    if (distance <= Math.max(1, Math.floor(k.length / 3)) && (!best || distance < best.distance)) best = { name: k, distance };
  }
  return best?.name ?? null;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}
