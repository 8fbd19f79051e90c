import { cachedRead } from '@/lib/db/cached-read';
import { exactCandidates, fuzzyCandidates, type FuzzyScope, type LinkCandidate, type Scope } from '../store/link-sql';
import { databaseKey, importsSignature } from '../store';
import { NameTable } from '../linking/name-table';

/** How long a process trusts its name lookups before it asks whether an import has changed the names. */
const KNOWLEDGE_CHECK_MS = 10_000;
/** Lookups a process keeps (keys and nodes; a profile is a few KB): past this the memory starts again. */
const MAX_KEYS = 20_000;

/**
 * Lookups of the loaded knowledge already made (names by scope and key, and what
 * is read per node), shared by every run of a process: the same question is
 * linked again by a rerun with other switches, by every method and configuration
 * of an evaluation grid, and by several channels of one run, and what a name or
 * a node gives changes only with an import. Any import (graph, profiles,
 * documents) is noticed within KNOWLEDGE_CHECK_MS and starts the memory afresh,
 * as does another database.
 */
export class KnowledgeLookups {
  private readonly exact = new Map<string, LinkCandidate[]>();
  private readonly fuzzy = new Map<string, Promise<LinkCandidate[]>>();
  private readonly perNode = new Map<string, Map<string, unknown>>();
  private readonly whole = new Map<string, Promise<unknown>>();
  private readonly made = new Map<string, Promise<unknown>>();
  /** Every name in memory once read (holdNames): exact lookups then make no round trip. */
  private names: { table: NameTable | null; reading: Promise<void> } | null = null;
  private knowledge: { database: string; signature: string; checkedAt: number } | null = null;
  /** The knowledge check in flight, and for which database. */
  private checking: { database: string; done: Promise<void> } | null = null;

  constructor(private readonly checkEveryMs = KNOWLEDGE_CHECK_MS) {}

  /** exactCandidates, asking the database only for keys not looked up before in this scope; each key's hits in the order the query gave them. */
  async candidates(keys: string[], scope: Scope): Promise<LinkCandidate[]> {
    await this.forgetIfChanged();
    if (this.names?.table) return this.names.table.candidates(keys, scope);
    const at = (key: string) => `${scopeKey(scope)}|${key}`;
    const missing = keys.filter((k) => !this.exact.has(at(k)));
    if (missing.length) {
      const found = await exactCandidates(missing, scope);
      const hits = new Map<string, LinkCandidate[]>(missing.map((k) => [at(k), []]));
      for (const c of found) hits.get(at(c.key))?.push(c);
      for (const [k, v] of hits) this.exact.set(k, v);
    }
    return keys.flatMap((k) => this.exact.get(at(k)) ?? []);
  }

  /** fuzzyCandidates, one key at a time from memory: keys not looked up before in this scope go to the database together. */
  async fuzzyCandidates(keys: string[], scope: FuzzyScope): Promise<LinkCandidate[]> {
    await this.forgetIfChanged();
    const at = (key: string) => `${scopeKey(scope)}|${scope.minSimilarity}|${scope.limit}|${scope.aliasSources?.join(',') ?? ''}|${key}`;
    const missing = keys.filter((k) => !this.fuzzy.has(at(k)));
    if (missing.length) {
      const found = fuzzyCandidates(missing, scope);
      for (const k of missing) void cachedRead(this.fuzzy, at(k), async () => (await found).filter((c) => c.key === k));
    }
    return (await Promise.all(keys.map((k) => this.fuzzy.get(at(k))!))).flat();
  }

  /**
   * What `load` reads for each node (`what` names it: aliases for a search, profiles), from memory
   * for nodes read before or being read (a read ahead); the others are read together. A node `load`
   * gives nothing for is left out; a failed read is forgotten, so the next lookup asks again.
   */
  async byNode<T>(what: string, ids: string[], load: (ids: string[]) => Promise<Map<string, T>>): Promise<Map<string, T>> {
    await this.forgetIfChanged();
    const known = (this.perNode.get(what) ?? new Map()) as Map<string, Promise<T | null>>;
    this.perNode.set(what, known);
    const missing = [...new Set(ids)].filter((id) => !known.has(id));
    if (missing.length) {
      const loaded = load(missing);
      for (const id of missing) {
        const value = loaded.then((m) => m.get(id) ?? null);
        known.set(id, value);
        value.catch(() => known.get(id) === value && known.delete(id));
      }
    }
    const values = await Promise.all(ids.map((id) => known.get(id)!));
    const out = new Map<string, T>();
    for (const [i, id] of ids.entries()) if (values[i] !== null) out.set(id, values[i]);
    return out;
  }

  /** What `byNode` holds for one node (`what` names it), read or being read; undefined when it was not asked for. */
  heldForNode<T>(what: string, id: string): Promise<T | null> | undefined {
    return this.perNode.get(what)?.get(id) as Promise<T | null> | undefined;
  }

  /**
   * What `make` derives from the loaded knowledge alone for `key` (`what` names it: a text's links), from memory
   * until an import: a question's texts are linked again by every rerun, method and configuration of a grid.
   */
  async derived<T>(what: string, key: string, make: () => Promise<T>): Promise<T> {
    await this.forgetIfChanged();
    return (await cachedRead(this.made, `${what}|${key}`, make)) as T;
  }

  /** What `load` reads once for the whole loaded knowledge (`what` names it), from memory until an import. */
  async once<T>(what: string, load: () => Promise<T>): Promise<T> {
    await this.forgetIfChanged();
    return (await cachedRead(this.whole, what, load)) as T;
  }

  /**
   * Reads every name and alias into memory (NameTable, about 30 MB for Hetionet) for exact lookups and genes' names
   * without a round trip: a question asked for the first time otherwise waits for a chain of them. Until it is read,
   * lookups go to the database as before; an import drops it and starts reading it again. Workers hold it.
   */
  async holdNames(): Promise<void> {
    await this.forgetIfChanged();
    if (!this.names) {
      const held: { table: NameTable | null; reading: Promise<void> } = { table: null, reading: Promise.resolve() };
      held.reading = NameTable.read().then((table) => void (held.table = table));
      held.reading.catch(() => this.names === held && (this.names = null));
      this.names = held;
    }
    return this.names.reading;
  }

  /** Whether this process holds the names (holdNames was called, and they are read or being read again after an import). */
  holdsNames(): boolean {
    return this.names !== null;
  }

  /** The names held in memory (holdNames), once read; null before, and after an import. */
  heldNames(): NameTable | null {
    return this.names?.table ?? null;
  }

  /** Starts the memory afresh, as an import does. */
  forget(): void {
    this.names = null;
    this.whole.clear();
    this.forgetKeys();
  }

  /**
   * Forgets what was looked up per name and per node (and derived per key), keeping what was read once for the whole
   * knowledge (a spelling index): what a question asked for the first time finds, and what a
   * long-lived process drops when its per-key memory is full.
   */
  forgetKeys(): void {
    this.exact.clear();
    this.fuzzy.clear();
    this.perNode.clear();
    this.made.clear();
  }

  private size(): number {
    let n = this.exact.size + this.fuzzy.size + this.made.size;
    for (const m of this.perNode.values()) n += m.size;
    return n;
  }

  private async forgetIfChanged(): Promise<void> {
    const database = databaseKey();
    const now = Date.now();
    if (this.knowledge?.database === database && now - this.knowledge.checkedAt < this.checkEveryMs && this.size() < MAX_KEYS) return;
    // Lookups that ask while a check is in flight share it: one statement, not one per lookup (a run links six texts at once).
    if (this.checking?.database !== database) {
      const checking = { database, done: this.check(database, now).finally(() => this.checking === checking && (this.checking = null)) };
      this.checking = checking;
    }
    await this.checking.done;
  }

  private async check(database: string, now: number): Promise<void> {
    const signature = await importsSignature();
    const held = this.names !== null;
    if (this.knowledge?.database !== database || this.knowledge.signature !== signature) this.forget();
    else if (this.size() >= MAX_KEYS) this.forgetKeys();
    this.knowledge = { database, signature, checkedAt: now };
    // A process that held the names holds the new ones (read meanwhile, the lookups go to the database).
    if (held && !this.names) void this.holdNames().catch(() => undefined);
  }
}

function scopeKey(scope: Scope): string {
  return `${scope.aliases ? 1 : 0}|${scope.kinds?.join(',') ?? ''}`;
}

const globalLookups = globalThis as unknown as { hopscopeKnowledgeLookups?: KnowledgeLookups };

/** This process's name lookups (see KnowledgeLookups). */
export function sharedKnowledgeLookups(): KnowledgeLookups {
  return (globalLookups.hopscopeKnowledgeLookups ??= new KnowledgeLookups());
}
