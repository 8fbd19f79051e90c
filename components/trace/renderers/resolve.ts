/**
 * Renderers are registered per step kind ('eigen1.generation') or per kind
 * prefix ending in a dot ('regram.', 'verify.'). The most specific wins:
 * the exact kind, then ever shorter prefixes. Pure.
 */
export function resolveRenderer<R>(registry: Readonly<Record<string, R>>, kind: string): R | null {
  if (Object.hasOwn(registry, kind)) return registry[kind];
  const parts = kind.split('.');
  for (let i = parts.length - 1; i > 0; i--) {
    const prefix = `${parts.slice(0, i).join('.')}.`;
    if (Object.hasOwn(registry, prefix)) return registry[prefix];
  }
  return null;
}
