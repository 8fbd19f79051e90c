/**
 * One item per key (one entity per node), in the order the keys first appear. Where a key repeats,
 * the later item is kept in the earlier one's place, as a Map built from the list keeps it.
 */
export function distinctBy<T, K>(items: Iterable<T>, key: (item: T) => K): T[] {
  const byKey = new Map<K, T>();
  for (const item of items) byKey.set(key(item), item);
  return [...byKey.values()];
}

/** One entity per node (see distinctBy). */
export const onePerNode = <T extends { nodeId: string }>(items: Iterable<T>): T[] => distinctBy(items, (e) => e.nodeId);
