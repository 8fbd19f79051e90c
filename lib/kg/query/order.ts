/**
 * Stable sort of `items` by a degree, highest first. The key packs (degree,
 * original position) into one double so that a native typed-array sort does the
 * work: a hub's 23k incidence entries sort in about 1 ms.
 */
export function byDegreeDesc(items: Int32Array, degree: (item: number) => number): Int32Array {
  const n = items.length;
  const keys = new Float64Array(n);
  for (let k = 0; k < n; k++) keys[k] = (2 ** 31 - degree(items[k])) * 2 ** 21 + k;
  keys.sort();
  const out = new Int32Array(n);
  for (let k = 0; k < n; k++) out[k] = items[keys[k] % 2 ** 21];
  return out;
}

/**
 * Round-robin over groups: the first item of every group, then the second of
 * every group, and so on, keeping each group's own order (best-connected first
 * after `byDegreeDesc`). Larger groups go first in each round, and a group that
 * runs out drops out, so any prefix of the result spreads across as many
 * groups as it can: a hub's first 60 neighbours show diseases, compounds and
 * pathways rather than 60 of its largest relation.
 */
export function interleaveGroups(items: Int32Array, groupOf: (item: number) => number): Int32Array {
  const groups = new Map<number, number[]>();
  for (const item of items) {
    const key = groupOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  // Map iteration is first-appearance order, so equal sizes keep the input's order (stable).
  const ordered = [...groups.values()].sort((a, b) => b.length - a.length);
  const out = new Int32Array(items.length);
  let k = 0;
  for (let round = 0; k < items.length; round++) {
    for (const group of ordered) if (round < group.length) out[k++] = group[round];
  }
  return out;
}
