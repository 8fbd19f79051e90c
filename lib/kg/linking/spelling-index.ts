import type { LinkCandidate } from '../store/link-sql';
import type { KnowledgeLookups } from '../query/lookups';
import { isConcept } from '../relations';
import { allowedEdits, edits } from './edits';
import { Column, KeyChains, SEPARATOR } from './columns';
import { readKinds, readSpellingBuckets, readSpellingColumns, storeSpellingNames, type NameRow, type SpellingColumns, type SpellingRow } from './store';

type Entry = NameRow & {
  /** Letter counts (see letterCounts), for a cheap lower bound on the edits. */
  counts?: Uint8Array;
};

/** Letters at each end a bucket is keyed by (more for longer names, whose buckets are fuller). */
const endOf = (length: number) => (length < 9 ? 2 : 3);
/**
 * Names allowed two edits or more (nine characters and up) may be misspelt at both ends ("Aplrazloam", "Dsmopresain"):
 * they are bucketed by their three middle letters too, which such slips leave whole, moved at most one place by a
 * letter dropped or added before them.
 */
const MIDDLE_FROM = 9;
const middleAt = (length: number) => Math.floor(length / 2) - 1;

/**
 * Node names (but genes' symbols), genes' full names and other designations,
 * bucketed by length and by their first and last two letters, for misspellings:
 * the names within a few edits of a span share its length give or take those
 * edits and, unless both ends are misspelt, one of its ends; with a slip at both
 * ends, a long name its middle letters (MIDDLE_FROM). A lookup compares a
 * span with a few hundred names at most (damerau-levenshtein) instead of asking
 * the database's trigram index, which for a long span of common words
 * ("S-transferase") rechecks thousands of aliases (100+ ms).
 *
 * The names are stored with their buckets once per import (./store
 * storeSpellingNames) and a process reads only the buckets of the spans it looks
 * up (`load`), keeping them: a command that links one question reads a few
 * hundred names, not all hundred thousand (0.3–1 s of CPU per process). A worker
 * holds them all (`hold`, as it holds every name): a question asked for the first
 * time then reads no bucket.
 */
export class SpellingIndex {
  /** Every name read so far, by its stored place: a name read again (another bucket of it) is the same entry. */
  private readonly entries = new Map<number, Entry>();
  private readonly buckets = new Map<string, Entry[]>();
  /** Names of two or more words by their words in sorted order: "blurred vision" finds "Vision blurred". */
  private readonly byWords = new Map<string, Entry[]>();
  /** Answers given before, by scope and span: the same question is linked again by every method and rerun. */
  private readonly answered = new Map<string, NearName[]>();

  /** Every name held (`hold`): no bucket is read any more. */
  private held: HeldNames | null = null;
  private holding: Promise<void> | null = null;

  /** `read`: the stored names in any of these buckets or with these sorted words, in stored order; `readAll`: all of them as columns. */
  constructor(
    private readonly read: (buckets: string[], words: string[]) => Promise<SpellingRow[]>,
    private readonly readAll: () => Promise<SpellingColumns>,
  ) {}

  /** Reads every name (once), as columns: the buckets `load` would read, in the same stored order, without an object per name. */
  hold(): Promise<void> {
    this.holding ??= this.readAll().then(
      (columns) => {
        this.held = new HeldNames(columns);
        this.entries.clear();
        this.buckets.clear();
        this.byWords.clear();
      },
      (error: unknown) => {
        this.holding = null;
        throw error;
      },
    );
    return this.holding;
  }

  /** The names of a bucket (`sorted`: of these sorted words), in stored order; undefined when not read. */
  private namesIn(key: string, sorted = false): readonly Entry[] | undefined {
    if (this.held) return this.held.names(key, sorted);
    return (sorted ? this.byWords : this.buckets).get(key);
  }

  /** Reads in flight: a lookup waits for those filling the buckets it needs. */
  private readonly reading = new Set<Promise<void>>();

  /** Reads the buckets `near` needs for these spans that are not in memory yet. */
  async load(keys: readonly string[]): Promise<void> {
    if (this.held) return;
    const buckets = new Set<string>();
    const words = new Set<string>();
    for (const key of keys) {
      for (const length of lengthsNear(key)) for (const b of bucketKeys(key, length)) if (!this.buckets.has(b)) buckets.add(b);
      if (key.includes(' ') && !this.byWords.has(sortedWords(key))) words.add(sortedWords(key));
    }
    if (buckets.size || words.size) {
      // Claimed at once (empty), so a lookup started meanwhile reads none of them again but waits for this read.
      for (const b of buckets) this.buckets.set(b, []);
      for (const w of words) this.byWords.set(w, []);
      const read = this.fill(buckets, words).finally(() => this.reading.delete(read));
      this.reading.add(read);
    }
    await Promise.all(this.reading);
  }

  private async fill(buckets: Set<string>, words: Set<string>): Promise<void> {
    let rows: SpellingRow[];
    try {
      rows = await this.read([...buckets], [...words]);
    } catch (error) {
      for (const b of buckets) this.buckets.delete(b);
      for (const w of words) this.byWords.delete(w);
      throw error;
    }
    if (this.held) return;
    for (const { seq, head, tail, middle, words: sorted, ...row } of rows) {
      let entry = this.entries.get(seq);
      if (!entry) this.entries.set(seq, (entry = row));
      if (buckets.has(head)) this.buckets.get(head)!.push(entry);
      if (buckets.has(tail)) this.buckets.get(tail)!.push(entry);
      if (middle !== null && buckets.has(middle)) this.buckets.get(middle)!.push(entry);
      if (sorted !== null && words.has(sorted)) this.byWords.get(sorted)!.push(entry);
    }
  }

  /**
   * Names of as many words and the same numbers within the edits their length allows (allowedEdits) of `key`, and
   * names of the same words in another order (`reordered`, no edits), as fuzzy
   * candidates, closest first.
   */
  near(key: string, scope: { aliases: boolean; kinds?: readonly string[] }): NearName[] {
    const at = `${scope.aliases ? 1 : 0}|${scope.kinds?.join(',') ?? ''}|${key}`;
    let found = this.answered.get(at);
    if (!found) {
      if (this.answered.size >= MAX_ANSWERS) this.answered.clear();
      this.answered.set(at, (found = this.search(key, scope)));
    }
    return found;
  }

  private search(key: string, scope: { aliases: boolean; kinds?: readonly string[] }): NearName[] {
    this.held?.settle();
    const seen = new Set<Entry>();
    const counts = letterCounts(key);
    const words = wordCount(key);
    const numbers = numbersOf(key);
    const joined = key.replaceAll(' ', '');
    const inScope = (e: Entry) => !((!scope.aliases && e.source) || (scope.kinds?.length && !scope.kinds.includes(e.kind)));
    const candidate = (e: Entry, n: number, reordered: boolean): NearName => ({
      key,
      id: e.id,
      kind: e.kind,
      name: e.name,
      degree: e.degree,
      matched: e.matched,
      method: 'fuzzy',
      score: 1 - n / Math.max(key.length, e.normalised.length),
      source: e.source,
      edits: n,
      reordered,
    });
    const out: NearName[] = [];
    if (key.includes(' ')) {
      for (const e of this.namesIn(sortedWords(key), true) ?? []) {
        seen.add(e);
        if (e.normalised !== key && inScope(e)) out.push(candidate(e, 0, true));
      }
    }
    for (const length of lengthsNear(key)) {
      for (const bucket of bucketKeys(key, length)) {
        const names = this.namesIn(bucket);
        if (!names) throw new Error(`The spelling index has not read the names near '${key}' (load them first)`);
        for (const e of names) {
          if (seen.has(e)) continue;
          seen.add(e);
          if (!inScope(e)) continue;
          const allowed = allowedEdits(e.normalised.length);
          if (countsApart((e.counts ??= letterCounts(e.normalised)), counts) > 2 * allowed) continue;
          if (numbersOf(e.normalised) !== numbers) continue;
          // A space dropped or put in ("anxietystate", "osteo porosis") is the one slip that changes the number of words.
          if (wordCount(e.normalised) !== words) {
            if (e.normalised.replaceAll(' ', '') === joined) out.push(candidate(e, edits(key, e.normalised), false));
            continue;
          }
          const n = e.normalised === key ? 0 : edits(key, e.normalised);
          if (n > allowed || (n && !wordByWord(key, e.normalised))) continue;
          out.push(candidate(e, n, false));
        }
      }
    }
    return out.sort((a, b) => a.edits - b.edits || b.degree - a.degree || a.id.localeCompare(b.id));
  }
}

/** The lengths of the names a span may be a misspelling of (its buckets' lengths). */
function lengthsNear(key: string): number[] {
  const lengths: number[] = [];
  for (let length = key.length - 3; length <= key.length + 3; length++)
    if (length >= 5 && Math.abs(length - key.length) <= allowedEdits(length)) lengths.push(length);
  return lengths;
}

/** Spans whose answers the index keeps before it starts afresh. */
const MAX_ANSWERS = 50_000;

/**
 * Every stored spelling name as columns (SpellingIndex.hold): a bucket's names are a chain through its key column
 * (a bucket key names its column: "12<ab" a head, "12>yz" a tail, "12=ndr" a middle), in stored order. A name is
 * made an object when a lookup meets it, kept while the lookups' objects are few (a search's names stay the same objects).
 */
class HeldNames {
  private readonly column: Record<'id' | 'kind' | 'name' | 'matched' | 'normalised' | 'source', Column>;
  private readonly degrees: number[];
  private readonly chains: Record<'<' | '>' | '=' | ' ', KeyChains>;
  private readonly made = new Map<number, Entry>();

  constructor({ count, degrees, columns }: SpellingColumns) {
    const [id, kind, name, matched, normalised, source, head, tail, middle, words] = columns.map((c) => Column.of(c, count));
    this.column = { id, kind, name, matched, normalised, source };
    this.degrees = degrees ?? [];
    if (this.degrees.length !== count) throw new Error('the spelling names hold another number of degrees than names');
    const chain = (column: Column) =>
      new KeyChains(
        count,
        (e) => column.range(e),
        (e) => column.range(e).from === column.range(e).to,
      );
    this.chains = { '<': chain(head), '>': chain(tail), '=': chain(middle), ' ': chain(words) };
  }

  /** Before a lookup: past MAX_MADE the objects start afresh (never during one, whose names must stay the same objects). */
  settle(): void {
    if (this.made.size > MAX_MADE) this.made.clear();
  }

  names(key: string, sorted: boolean): Entry[] {
    const marker = sorted ? ' ' : (/[<>=]/.exec(key)?.[0] as '<' | '>' | '=' | undefined);
    if (!marker) return [];
    const chain = this.chains[marker];
    const out: Entry[] = [];
    for (let e = chain.first(key); e >= 0; e = chain.next(e)) out.push(this.entry(e));
    return out;
  }

  private entry(e: number): Entry {
    let made = this.made.get(e);
    if (!made) {
      const { id, kind, name, matched, normalised } = this.column;
      const source = this.column.source.at(e);
      made = {
        id: id.at(e),
        kind: kind.at(e),
        name: name.at(e),
        matched: matched.at(e),
        normalised: normalised.at(e),
        degree: this.degrees[e],
        source: source || null,
      };
      this.made.set(e, made);
    }
    return made;
  }
}

/** Names a held index keeps as objects before it starts afresh (between lookups: a lookup meets a few hundred). */
const MAX_MADE = 20_000;

/** A name found near a span: its edits from the span, or `reordered` for the span's words in another order. */
export type NearName = LinkCandidate & { edits: number; reordered: boolean };

/**
 * Words of a name, a possessive's "s" not counted: a misspelling changes
 * letters, not the number of words ("complement factor" is not a misspelt
 * "complement factor B"; "crohn disease" is "Crohn's disease").
 */
function wordCount(s: string): number {
  let n = 0;
  for (const w of s.split(' ')) if (w !== 's') n++;
  return n;
}

/**
 * Each word of the span is near the name's word in its place: a word under
 * five letters within one edit, a longer one within one more than its length
 * allows alone ("penial cancer" is penile cancer; "mast cell" is not "host
 * cell", two edits in a short word; "forkhead bxo protein" is forkhead box protein).
 */
function wordByWord(key: string, name: string): boolean {
  const a = key.split(' ').filter((w) => w !== 's');
  const b = name.split(' ').filter((w) => w !== 's');
  return a.every((w, i) => w === b[i] || edits(w, b[i]) <= (b[i].length < 5 ? 1 : allowedEdits(b[i].length) + 1));
}

/** The numbers of a name, in order: identifiers, never misspelt ("zinc finger protein 624" is not ZNF24; type 1 diabetes is not type 2). */
function numbersOf(s: string): string {
  return (s.match(/\d+/g) ?? []).join(' ');
}

function sortedWords(s: string): string {
  return s.split(' ').sort().join(' ');
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

/** The buckets of names of `length` that `s` may be a misspelling of: by either end, and for long names by the middle (see MIDDLE_FROM). */
function bucketKeys(s: string, length: number): string[] {
  const end = endOf(length);
  const keys = [`${length}<${s.slice(0, end)}`, `${length}>${s.slice(-end)}`];
  if (length < MIDDLE_FROM) return keys;
  // Letters dropped or added before the middle move it; those after it count in the length too, within the name's edits.
  for (const shift of [0, -1, 1].filter((d) => Math.abs(s.length - length - d) < allowedEdits(length))) {
    const at = middleAt(length) + shift;
    if (at >= 0 && at + 3 <= s.length) keys.push(`${length}=${s.slice(at, at + 3)}`);
  }
  return [...new Set(keys)];
}

/**
 * The process's spelling index over the loaded graph (see SpellingIndex), with the buckets of `keys` (the spans
 * about to be looked up) read; the names are stored first if this import has none yet.
 */
export async function spellingIndex(lookups: KnowledgeLookups, keys: readonly string[] = []): Promise<SpellingIndex> {
  const index = await lookups.once('spelling-index', async () => {
    // Gene names are symbols, never read fuzzily (a word that resembles one is a word): genes enter by their full names and designations.
    const geneKinds = (await readKinds()).filter((k) => isConcept(k, 'gene'));
    const signature = await storeSpellingNames(geneKinds);
    const index = new SpellingIndex(
      (buckets, words) => readSpellingBuckets(signature, buckets, words),
      () => readSpellingColumns(signature, SEPARATOR),
    );
    // A process that holds every name (a worker, after an import too) holds these; its lookups read buckets meanwhile.
    if (lookups.holdsNames()) void index.hold().catch(() => undefined);
    return index;
  });
  await index.load(keys);
  return index;
}
