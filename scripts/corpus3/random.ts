import { mulberry32 } from '../../lib/kg/query/prng';

/** The fact sheets' one seeded generator: a rerun with the same seed on the same KG gives the same sheets. */
let next = mulberry32(0);
/** Restarts the generator (once, before any draw). */
export function seedRandom(seed: number): void {
  next = mulberry32(seed);
}
export const rand = (): number => next();
export const shuffle = <T>(xs: readonly T[]): T[] => {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
};
