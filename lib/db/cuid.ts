import { randomBytes } from 'node:crypto';
import os from 'node:os';

/**
 * A collision-resistant id in the shape of Prisma's `@default(cuid())` (cuid v1: "c", the time, a counter, the
 * process's fingerprint, randomness; 25 lower-case letters and digits, in creation order within a millisecond), for
 * rows a store inserts with plain SQL beside rows Prisma made.
 */
export function newCuid(): string {
  counter = (counter + 1) % COUNTER_SPACE;
  const random = randomBytes(8).readBigUInt64BE() % RANDOM_SPACE;
  return `c${base36(Date.now(), 8)}${base36(counter, 4)}${FINGERPRINT}${random.toString(36).padStart(8, '0')}`;
}

const COUNTER_SPACE = 36 ** 4;
const RANDOM_SPACE = BigInt(36) ** BigInt(8);
let counter = randomBytes(4).readUInt32BE() % COUNTER_SPACE;

const base36 = (n: number, width: number) => n.toString(36).padStart(width, '0').slice(-width);

/** Two base-36 digits of the process id and two of the host's name, as cuid v1 makes its fingerprint. */
const FINGERPRINT = (() => {
  const host = [...os.hostname()].reduce((sum, ch) => sum + ch.charCodeAt(0), os.hostname().length + 36);
  return base36(process.pid, 2) + base36(host, 2);
})();
