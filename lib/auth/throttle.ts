/**
 * Sign-in throttling: a token bucket per account (email) and per client
 * address. Each failed attempt takes a token from both; while either is empty
 * every attempt is refused, the right password included, until a token has
 * come back. A success refills the account's bucket. Kept in this process's
 * memory: a restart forgets it, and several web processes each keep their own
 * (each still caps the guesses it answers).
 */

export interface BucketRule {
  /** Failures allowed in a burst. */
  capacity: number;
  /** One token comes back this often. */
  refillMs: number;
}

export const ACCOUNT_RULE: BucketRule = { capacity: 5, refillMs: 60_000 };
export const ADDRESS_RULE: BucketRule = { capacity: 20, refillMs: 15_000 };
/** Buckets kept at most (the fullest are dropped first when over): a flood of made-up emails cannot grow memory. */
const MAX_BUCKETS = 50_000;

interface Bucket {
  tokens: number;
  at: number;
}

export class SignInThrottle {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly rules = { account: ACCOUNT_RULE, address: ADDRESS_RULE },
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds to wait before this account may try from this address; 0 when it may now. */
  waitSeconds(account: string, address: string | null): number {
    const waits = this.keys(account, address).map(([key, rule]) => {
      const bucket = this.level(key, rule);
      return bucket.tokens >= 1 ? 0 : Math.ceil(((1 - bucket.tokens) * rule.refillMs) / 1000);
    });
    return Math.max(0, ...waits);
  }

  failed(account: string, address: string | null): void {
    for (const [key, rule] of this.keys(account, address)) {
      const bucket = this.level(key, rule);
      this.buckets.set(key, { tokens: Math.max(0, bucket.tokens - 1), at: bucket.at });
    }
    this.prune();
  }

  succeeded(account: string): void {
    this.buckets.delete(`account:${account}`);
  }

  private keys(account: string, address: string | null): [string, BucketRule][] {
    const keys: [string, BucketRule][] = [[`account:${account}`, this.rules.account]];
    if (address) keys.push([`address:${address}`, this.rules.address]);
    return keys;
  }

  /** The bucket refilled up to now. */
  private level(key: string, rule: BucketRule): Bucket {
    const now = this.now();
    const bucket = this.buckets.get(key);
    if (!bucket) return { tokens: rule.capacity, at: now };
    return { tokens: Math.min(rule.capacity, bucket.tokens + (now - bucket.at) / rule.refillMs), at: now };
  }

  private prune() {
    if (this.buckets.size <= MAX_BUCKETS) return;
    const byFullness = [...this.buckets].sort(([, a], [, b]) => b.tokens - a.tokens);
    for (const [key] of byFullness.slice(0, this.buckets.size - MAX_BUCKETS)) this.buckets.delete(key);
  }
}

const globalForThrottle = globalThis as unknown as { hopscopeSignInThrottle?: SignInThrottle };

/** The process's throttle (one across Next.js's module instances). */
export function signInThrottle(): SignInThrottle {
  return (globalForThrottle.hopscopeSignInThrottle ??= new SignInThrottle());
}
