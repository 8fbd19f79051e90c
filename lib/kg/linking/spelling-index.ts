import { getPool } from '@/lib/db/client';
import type { LinkCandidate } from '../query/link-sql';
import type { KnowledgeLookups } from '../query/lookups';
import { allowedEdits, edits } from './edits';
import { FULL_NAME_SOURCE } from './gene-derived';

interface Entry {
  id: string;
  kind: string;
  name: string;
  matched: string;
  normalised: string;
  degree: number;
  source: string | null;
  /** Letter counts (see letterCounts), for a cheap lower bound on the edits. */
  counts?: Uint8Array;
}

/** Letters at each end a bucket is keyed by: a misspelling rarely touches both ends of a name. */
const END = 2;

/**
 * Node names and genes' full names in memory, bucketed by length and by their
 * first and last two letters, for misspellings: the names within a few edits
 * of a span share its length give or take those edits and, unless both ends
 * are misspelt, one of its ends. A lookup compares a span with a few hundred
 * names at most (damerau-levenshtein) instead of asking the database's
 * trigram index, which for a long span of common words ("S-transferase")
 * rechecks thousands of aliases (100+ ms). Built once per process per import.
 */
export class SpellingIndex {
  private readonly buckets = new Map<string, Entry[]>();

  constructor(entries: Entry[]) {
    for (const e of entries) {
      if (e.normalised.length < 5) continue;
      for (const key of bucketKeys(e.normalised, e.normalised.length)) {
        const bucket = this.buckets.get(key);
        if (bucket) bucket.push(e);
        else this.buckets.set(key, [e]);
      }
    }
  }

  /** Names within the edits their length allows (allowedEdits) of `key`, as fuzzy candidates, closest first. */
  near(key: string, scope: { aliases: boolean; kinds?: readonly string[] }): (LinkCandidate & { edits: number })[] {
    const seen = new Set<Entry>();
    const counts = letterCounts(key);
    const out: (LinkCandidate & { edits: number })[] = [];
    for (let length = key.length - 3; length <= key.length + 3; length++) {
      if (length < 5 || Math.abs(length - key.length) > allowedEdits(length)) continue;
      for (const bucket of bucketKeys(key, length)) {
        for (const e of this.buckets.get(bucket) ?? []) {
          if (seen.has(e)) continue;
          seen.add(e);
          if ((!scope.aliases && e.source) || (scope.kinds?.length && !scope.kinds.includes(e.kind))) continue;
          const allowed = allowedEdits(e.normalised.length);
          if (countsApart((e.counts ??= letterCounts(e.normalised)), counts) > 2 * allowed) continue;
          const n = e.normalised === key ? 0 : edits(key, e.normalised);
          if (n > allowed) continue;
          out.push({ key, id: e.id, kind: e.kind, name: e.name, degree: e.degree, matched: e.matched, method: 'fuzzy', score: 1 - n / Math.max(key.length, e.normalised.length), source: e.source, edits: n });
        }
      }
    }
    return out.sort((a, b) => a.edits - b.edits || b.degree - a.degree || a.id.localeCompare(b.id));
  }
}

/** Counts of each letter, digit and space of a normalised name. */
function letterCounts(s: string): Uint8Array {
  const counts = new Uint8Array(37);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    counts[c >= 97 ? c - 97 : c >= 48 ? c - 22 : 36]++;
  }
  return counts;
}

/** Letters in one and not the other, both ways: an edit changes this by 2 at most (a swap by none), so half of it bounds the edits from below. */
function countsApart(a: Uint8Array, b: Uint8Array): number {
  let apart = 0;
  for (let i = 0; i < a.length; i++) apart += Math.abs(a[i] - b[i]);
  return apart;
}

function bucketKeys(s: string, length: number): string[] {
  return [`${length}<${s.slice(0, END)}`, `${length}>${s.slice(-END)}`];
}

/** The process's spelling index over the loaded graph (see SpellingIndex). */
export function spellingIndex(lookups: KnowledgeLookups): Promise<SpellingIndex> {
  return lookups.once('spelling-index', async () => {
    const pool = getPool();
    const [names, fullNames] = await Promise.all([
      pool.query<Entry>(`select id, kind, name, name as matched, normalised, degree, null::text as source from nodes where length(normalised) >= 5`),
      pool.query<Entry>(
        `select n.id, n.kind, n.name, a.alias as matched, a.normalised, n.degree, a.source
           from node_aliases a join nodes n on n.id = a.node_id where a.source = $1 and length(a.normalised) >= 5`,
        [FULL_NAME_SOURCE],
      ),
    ]);
    return new SpellingIndex([...names.rows, ...fullNames.rows]);
  });
}
