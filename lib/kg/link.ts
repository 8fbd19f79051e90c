import type { EntityLink, LinkMethod } from './types';
import { normaliseName } from './normalise';
import { exactCandidates, fuzzyCandidates, type LinkCandidate } from './query/link-sql';
import { isFunctionWord, isStopword, QUESTION_WORDS, tokenize, type Token } from './query/tokens';

export interface LinkOptions {
  /** Match node_aliases (gene symbols and synonyms, disease names). Default true. */
  aliases?: boolean;
  /** Trigram matching for misspellings. Default true. */
  fuzzy?: boolean;
  kinds?: string[];
  /** Links per mention (linkMention: default 5; linkEntities: default 1). */
  limit?: number;
  /** Lowest trigram similarity a fuzzy link may have (linkMention: 0.45; linkEntities: 0.5). */
  minSimilarity?: number;
}

const METHOD_RANK: Record<LinkMethod, number> = { exact: 0, alias: 1, fuzzy: 2 };

/**
 * Candidate nodes for one mention, best first. With aliases and fuzzy both off
 * (the `entity` switch off) only a node whose name equals the mention up to case
 * is linked; otherwise 'exact' means equal after normaliseName. Fuzzy matching
 * runs only when no name or alias matched: it is for misspellings, and next to
 * an exact hit its near-misses ("response to metformin") are noise.
 */
export async function linkMention(mention: string, opts: LinkOptions = {}): Promise<EntityLink[]> {
  const key = normaliseName(mention);
  if (!key) return [];
  const limit = Math.max(1, opts.limit ?? 5);
  const scope = { aliases: opts.aliases ?? true, kinds: opts.kinds };
  let found = (await exactCandidates([key], scope)).filter((c) => !nameOnly(opts) || sameName(c, mention.trim()));
  if ((opts.fuzzy ?? true) && !found.length) {
    found = await fuzzyCandidates([key], { ...scope, minSimilarity: opts.minSimilarity ?? 0.45, limit });
  }
  return bestPerNode(found)
    .slice(0, limit)
    .map((c) => toLink(c, mention));
}

/** Longest span a mention may cover, in words. */
const MAX_GRAM = 6;
/** Fuzzy lookups per text: each is a trigram index scan of 1–5 ms, so only the longest leftover spans get one. */
const MAX_FUZZY_SPANS = 6;
/** A single leftover word shorter than this is not looked up fuzzily: too many look-alikes, too little to go on. */
const MIN_FUZZY_WORD = 5;
/** Longest leftover span looked up fuzzily, in words. */
const MAX_FUZZY_GRAM = 4;
/** Extra fuzzy candidates fetched per span, for those the spelling-variant check drops. */
const FUZZY_SPARES = 4;

interface Span {
  first: number;
  last: number;
  candidates: LinkCandidate[];
}

/**
 * Spots and links the entity mentions of a whole text (a question): word n-grams
 * up to six words are looked up in one query, the longest matches win and
 * matches never overlap; words left over get a few fuzzy lookups. Returns the
 * links in text order with their character offsets.
 */
export async function linkEntities(text: string, opts: LinkOptions = {}): Promise<EntityLink[]> {
  const tokens = tokenize(text);
  const perMention = Math.max(1, opts.limit ?? 1);
  const scope = { aliases: opts.aliases ?? true, kinds: opts.kinds };
  const spanText = (first: number, last: number) => text.slice(tokens[first].start, tokens[last].end);
  const usable = (c: LinkCandidate, first: number, last: number) => {
    const written = spanText(first, last);
    return plausibleCase(c.matched, written) && (!nameOnly(opts) || sameName(c, written));
  };

  const grams = candidateGrams(tokens);
  const byKey = groupBy(await exactCandidates([...new Set(grams.map((g) => g.key))], scope), (c) => c.key);
  const spans: Span[] = grams
    .map(({ first, last, key }) => ({ first, last, candidates: (byKey.get(key) ?? []).filter((c) => usable(c, first, last)) }))
    .filter((s) => s.candidates.length > 0);
  const covered = new Uint8Array(tokens.length);
  // Longest first; among equal lengths a name beats an alias, then the earlier span.
  const accepted = pickSpans(
    spans.sort((a, b) => b.last - b.first - (a.last - a.first) || bestRank(a) - bestRank(b) || a.first - b.first),
    covered,
  );

  if (opts.fuzzy ?? true) {
    // One query for all leftover spans; names only, since the 120k gene synonyms are
    // where most look-alikes of ordinary words live. Best similarity wins, then length.
    const leftover = leftoverGrams(tokens, covered);
    const fuzzyScope = { aliases: false, kinds: opts.kinds, minSimilarity: opts.minSimilarity ?? 0.5, limit: perMention + FUZZY_SPARES };
    const byKey = groupBy(await fuzzyCandidates([...new Set(leftover.map((g) => g.key))], fuzzyScope), (c) => c.key);
    const linked = leftover
      .map(({ first, last, key }) => ({ first, last, candidates: (byKey.get(key) ?? []).filter((c) => spellingVariant(key, c.matched) && usable(c, first, last)) }))
      .filter((s) => s.candidates.length > 0)
      .sort((a, b) => b.candidates[0].score - a.candidates[0].score || b.last - b.first - (a.last - a.first) || a.first - b.first);
    accepted.push(...pickSpans(linked, covered));
  }

  return accepted
    .sort((a, b) => a.first - b.first)
    .flatMap((s) =>
      bestPerNode(s.candidates)
        .slice(0, perMention)
        .map((c) => ({ ...toLink(c, spanText(s.first, s.last)), start: tokens[s.first].start, end: tokens[s.last].end })),
    );
}

interface Gram {
  first: number;
  last: number;
  key: string;
}

/** Spans worth a lookup: no function word at either end, not made only of stopwords, not a bare number or letter. */
function candidateGrams(tokens: Token[]): Gram[] {
  const grams: Gram[] = [];
  for (let first = 0; first < tokens.length; first++) {
    if (isFunctionWord(tokens[first].norm)) continue;
    for (let last = first; last < Math.min(tokens.length, first + MAX_GRAM); last++) {
      if (isFunctionWord(tokens[last].norm)) continue;
      const words = tokens.slice(first, last + 1).map((t) => t.norm);
      if (words.every(isStopword)) continue;
      if (first === last && (words[0].length < 2 || /^\d+$/.test(words[0]))) continue;
      grams.push({ first, last, key: words.join(' ') });
    }
  }
  return grams;
}

/**
 * Spans for fuzzy lookup among the words no exact match took: runs between
 * function words, sub-spans not starting with question vocabulary ("treats
 * Crohns disease" → "Crohns disease"), longest first, at least MIN_FUZZY_WORD
 * characters.
 */
function leftoverGrams(tokens: Token[], covered: Uint8Array): Gram[] {
  const grams: Gram[] = [];
  const free = (i: number) => !covered[i] && !isFunctionWord(tokens[i].norm);
  for (let first = 0; first < tokens.length; first++) {
    if (!free(first) || QUESTION_WORDS.has(tokens[first].norm)) continue;
    for (let last = first; last < Math.min(tokens.length, first + MAX_FUZZY_GRAM) && free(last); last++) {
      const key = tokens
        .slice(first, last + 1)
        .map((t) => t.norm)
        .join(' ');
      if (key.length >= MIN_FUZZY_WORD) grams.push({ first, last, key });
    }
  }
  return grams.sort((a, b) => b.key.length - a.key.length || a.first - b.first).slice(0, MAX_FUZZY_SPANS);
}

function pickSpans<S extends Span>(ordered: S[], covered: Uint8Array): S[] {
  const picked: S[] = [];
  for (const span of ordered) {
    if (covered.subarray(span.first, span.last + 1).some((c) => c === 1)) continue;
    covered.fill(1, span.first, span.last + 1);
    picked.push(span);
  }
  return picked;
}

function bestRank(span: Span): number {
  return Math.min(...span.candidates.map((c) => METHOD_RANK[c.method]));
}

/**
 * Short all-capital symbols made of letters (gene symbols such as SET, MET, CAT,
 * aliases such as AS or MS) are common words in lower case, so they link only
 * where the text writes them in capitals too.
 */
function plausibleCase(matched: string, written: string): boolean {
  const shortSymbol = /^[A-Z]{1,5}$/.test(matched);
  return !shortSymbol || written === written.toUpperCase();
}

/**
 * In free text a fuzzy hit must look like another spelling of the span, not a
 * longer name that contains one of its words ("pressure" → "Head pressure",
 * "mutated" → the alias "AT mutated"): their normalised lengths stay within 20%.
 */
function spellingVariant(key: string, matched: string): boolean {
  const ratio = key.length / normaliseName(matched).length;
  return ratio >= 0.8 && ratio <= 1.25;
}

function nameOnly(opts: LinkOptions): boolean {
  return opts.aliases === false && opts.fuzzy === false;
}

function sameName(c: LinkCandidate, written: string): boolean {
  return c.method === 'exact' && c.name.toLowerCase() === written.toLowerCase();
}

/**
 * Among nodes matching equally well, the kinds questions usually mean come first:
 * SIDER side effects repeat many disease names ("Osteoarthritis"), and the disease
 * is the node with the biology around it.
 */
const KIND_PREFERENCE = ['Disease', 'Compound', 'Gene', 'Anatomy', 'Symptom', 'Pharmacologic Class', 'Pathway', 'Biological Process', 'Molecular Function', 'Cellular Component', 'Side Effect'];
const kindRank = (kind: string) => {
  const i = KIND_PREFERENCE.indexOf(kind);
  return i < 0 ? KIND_PREFERENCE.length : i;
};

/** One candidate per node (its best way of matching), ranked: method, score, kind, then the better-connected node. */
function bestPerNode(candidates: LinkCandidate[]): LinkCandidate[] {
  const ranked = [...candidates].sort(
    (a, b) =>
      METHOD_RANK[a.method] - METHOD_RANK[b.method] ||
      b.score - a.score ||
      kindRank(a.kind) - kindRank(b.kind) ||
      b.degree - a.degree ||
      a.id.localeCompare(b.id),
  );
  const seen = new Set<string>();
  return ranked.filter((c) => !seen.has(c.id) && seen.add(c.id));
}

function toLink(c: LinkCandidate, mention: string): EntityLink {
  return { nodeId: c.id, kind: c.kind, name: c.name, mention, matched: c.matched, method: c.method, score: Math.round(c.score * 1000) / 1000 };
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}
