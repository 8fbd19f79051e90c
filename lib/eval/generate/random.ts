import { seededRandom } from '@/lib/kg/query/prng';

/**
 * The generators' only source of randomness: one seeded stream per question
 * slot, so a set is reproducible from its seed and one slot's retries never
 * shift the choices of the next.
 */
export class Rng {
  private readonly next: () => number;

  constructor(readonly seed: string) {
    this.next = seededRandom(seed);
  }

  /** A derived seed for the KG samplers, which take their own. */
  child(label: string | number): string {
    return `${this.seed}/${label}`;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    if (!items.length) throw new Error('pick from an empty list');
    return items[this.int(items.length)];
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  /** `k` distinct items in random order. */
  sample<T>(items: readonly T[], k: number): T[] {
    return this.shuffle(items).slice(0, k);
  }
}
