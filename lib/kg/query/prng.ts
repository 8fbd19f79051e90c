/** mulberry32 from a 32-bit state: a small seeded generator in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seeded pseudo-random generator in [0, 1): mulberry32 over an FNV-1a hash of the seed. */
export function seededRandom(seed: string | number): () => number {
  let h = 0x811c9dc5;
  for (const c of String(seed)) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
  return mulberry32(h);
}

/** k distinct integers from [0, n) in random order: a Fisher–Yates shuffle that only touches the k slots it uses. */
export function sampleIndexes(n: number, k: number, random: () => number): number[] {
  const swapped = new Map<number, number>();
  const out: number[] = [];
  for (let i = 0; i < Math.min(k, n); i++) {
    const j = i + Math.floor(random() * (n - i));
    out.push(swapped.get(j) ?? j);
    swapped.set(j, swapped.get(i) ?? i);
  }
  return out;
}
