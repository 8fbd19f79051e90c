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
