import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { RunConfig } from './schemas';

/** Stable JSON (sorted keys) so equal configs hash equally. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function configHash(config: RunConfig): string {
  return createHash('sha256').update(stableJson(config)).digest('hex').slice(0, 16);
}

/** One leaf that differs between two run configs, as `runs.config_diff` stores them. */
export const ConfigChangeSchema = z.object({ path: z.string(), from: z.unknown(), to: z.unknown() });
export type ConfigChange = z.infer<typeof ConfigChangeSchema>;
/** A rerun's config diff (`runs.config_diff`). */
export const ConfigDiffSchema = z.array(ConfigChangeSchema);

/** What changed between two run configs, leaf by leaf ("switches.kg: true → false"). */
export function diffConfig(a: unknown, b: unknown, path = ''): ConfigChange[] {
  const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
  if (isObj(a) && isObj(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) => diffConfig(a[k], b[k], path ? `${path}.${k}` : k));
  }
  return stableJson(a) === stableJson(b) ? [] : [{ path, from: a ?? null, to: b ?? null }];
}
