import { analyse, type Word } from '@/lib/nlp/english';
import type { EntityLink, LinkMethod, LinkReading, LinkRejection, LinkReport } from './types';
import { normaliseName } from './normalise';
import { exactCandidates, fuzzyCandidates, type LinkCandidate } from './query/link-sql';
import type { KnowledgeLookups } from './query/lookups';
import { isFunctionWord, isStopword, QUESTION_WORDS, tokenize, type Token } from './query/tokens';
import { conceptsOf, isConcept, type KindConcept } from './relations';

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
  /** Name lookups made before (the process's, see KnowledgeLookups): words looked up before are not asked again. */
  lookups?: KnowledgeLookups;
}

function exactHits(keys: string[], scope: { aliases: boolean; kinds?: string[] }, opts: LinkOptions): Promise<LinkCandidate[]> {
  return opts.lookups ? opts.lookups.candidates(keys, scope) : exactCandidates(keys, scope);
}

function fuzzyHits(keys: string[], scope: { aliases: boolean; kinds?: string[]; minSimilarity: number; limit: number }, opts: LinkOptions): Promise<LinkCandidate[]> {
  return opts.lookups ? opts.lookups.fuzzyCandidates(keys, scope) : fuzzyCandidates(keys, scope);
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
  let found = (await exactHits([key], scope, opts)).filter((c) => !nameOnly(opts) || sameName(c, mention.trim()));
  if ((opts.fuzzy ?? true) && !found.length) {
    found = await fuzzyHits([key], { ...scope, minSimilarity: opts.minSimilarity ?? 0.45, limit }, opts);
  }
  return bestPerNode(found)
    .slice(0, limit)
    .map((c) => toLink(c, mention));
}

/** Longest span a mention may cover, in words: pathway names run to ten ("Activation of BIM and translocation to mitochondria"). */
const MAX_GRAM = 10;
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
  return (await explainLinks(text, opts)).links;
}

/** Longest rejection list kept for the trace. */
const MAX_REJECTIONS = 40;

/**
 * linkEntities with its reasons: the candidates that were turned down, each
 * with why. A link also carries the mention's readings of other kinds (see
 * otherReadings). Lemmas (wink-nlp) give each span a
 * second key in base form and American spelling ("tumours" → "tumor",
 * "leukaemia" → "leukemia"), looked up beside the written form.
 */
export async function explainLinks(text: string, opts: LinkOptions = {}): Promise<LinkReport> {
  const tokens = tokenize(text);
  const words = analyse(text);
  const perMention = Math.max(1, opts.limit ?? 1);
  const scope = { aliases: opts.aliases ?? true, kinds: opts.kinds };
  const rejected: LinkRejection[] = [];
  const spanText = (first: number, last: number) => text.slice(tokens[first].start, tokens[last].end);
  const usable = (c: LinkCandidate, first: number, last: number) => {
    const written = spanText(first, last);
    if (nameOnly(opts) && !sameName(c, written)) return false;
    const why = implausible(c, written, tokens, words, first, last);
    if (why) rejected.push(rejection(c, written, tokens[first].start, tokens[last].end, why));
    return !why;
  };

  const grams = candidateGrams(tokens, nameOnly(opts) ? null : words);
  const keys = [...new Set(grams.flatMap((g) => (g.lemmaKey ? [g.key, g.lemmaKey] : [g.key])))];
  const byKey = groupBy(await exactHits(keys, scope, opts), (c) => c.key);
  const spans: Span[] = grams
    .map(({ first, last, key, lemmaKey }) => {
      const found = [...(byKey.get(key) ?? []), ...(lemmaKey ? (byKey.get(lemmaKey) ?? []) : [])];
      return { first, last, candidates: found.filter((c) => usable(c, first, last)) };
    })
    .filter((s) => s.candidates.length > 0);
  const covered = new Uint8Array(tokens.length);
  // Longest first; among equal lengths a name beats an alias, then the earlier span.
  const ordered = spans.sort((a, b) => b.last - b.first - (a.last - a.first) || bestRank(a) - bestRank(b) || a.first - b.first);
  const accepted = pickSpans(ordered, covered);
  for (const s of ordered) {
    if (accepted.includes(s)) continue;
    const winner = accepted.find((a) => a.first <= s.last && s.first <= a.last);
    const c = bestPerNode(s.candidates)[0];
    if (winner) rejected.push(rejection(c, spanText(s.first, s.last), tokens[s.first].start, tokens[s.last].end, `inside or across the longer reading '${spanText(winner.first, winner.last)}'`));
  }

  if (opts.fuzzy ?? true) {
    // One query for all leftover spans; names only, since the 120k gene synonyms are
    // where most look-alikes of ordinary words live. Best similarity wins, then length.
    const leftover = leftoverGrams(tokens, covered);
    const fuzzyScope = { aliases: false, kinds: opts.kinds, minSimilarity: opts.minSimilarity ?? 0.5, limit: perMention + FUZZY_SPARES };
    const byKey = groupBy(await fuzzyHits([...new Set(leftover.map((g) => g.key))], fuzzyScope, opts), (c) => c.key);
    const fuzzyUsable = (c: LinkCandidate, key: string, first: number, last: number) => {
      const why = !spellingVariant(key, c.matched) ? 'fuzzy hit is not another spelling of the span (lengths differ by over 20%)' : symbolLike(c) ? 'a gene symbol is never matched fuzzily: a word that resembles one is a word' : null;
      if (why) rejected.push(rejection(c, spanText(first, last), tokens[first].start, tokens[last].end, why));
      return !why && usable(c, first, last);
    };
    const linked = leftover
      .map(({ first, last, key }) => ({ first, last, candidates: (byKey.get(key) ?? []).filter((c) => fuzzyUsable(c, key, first, last)) }))
      .filter((s) => s.candidates.length > 0)
      .sort((a, b) => b.candidates[0].score - a.candidates[0].score || b.last - b.first - (a.last - a.first) || a.first - b.first);
    accepted.push(...pickSpans(linked, covered));
  }

  const links = accepted
    .sort((a, b) => a.first - b.first)
    .flatMap((s) => {
      const ranked = bestPerNode(s.candidates);
      const at = { start: tokens[s.first].start, end: tokens[s.last].end };
      const others = otherReadings(ranked, perMention);
      return ranked.slice(0, perMention).map((c) => ({ ...toLink(c, spanText(s.first, s.last)), ...at, ...(others.length ? { readings: others } : {}) }));
    });
  const distinct = [...new Map(rejected.map((r) => [`${r.start}:${r.end}:${r.nodeId}:${r.reason}`, r])).values()];
  return { links, rejected: distinct.slice(0, MAX_REJECTIONS) };
}

/**
 * The best node of each further kind that matched as well as the best one
 * (same method and score): other readings of the mention ("nausea" the
 * Symptom and the Side Effect), for a reader whose relations pick the kind.
 */
function otherReadings(ranked: LinkCandidate[], perMention: number): LinkReading[] {
  const best = ranked[0];
  const kinds = new Set(ranked.slice(0, perMention).map((c) => c.kind));
  const others: LinkReading[] = [];
  for (const c of ranked.slice(perMention)) {
    if (c.method !== best.method || c.score !== best.score || kinds.has(c.kind)) continue;
    kinds.add(c.kind);
    others.push({ nodeId: c.id, kind: c.kind, name: c.name });
  }
  return others;
}

function rejection(c: LinkCandidate, mention: string, start: number, end: number, reason: string): LinkRejection {
  return { mention, start, end, nodeId: c.id, name: c.name, kind: c.kind, matched: c.matched, method: c.method, reason };
}

interface Gram {
  first: number;
  last: number;
  key: string;
  /** The span in base forms and American spelling, when that differs from `key`. */
  lemmaKey?: string;
}

/**
 * Spans worth a lookup: no function word at either end, not made only of
 * stopwords, not a bare number or letter. With `words` (not in exact-name-only
 * mode), each also gets its lemma key.
 */
function candidateGrams(tokens: Token[], words: Word[] | null): Gram[] {
  const lemmas = tokens.map((t) => (words ? lemmaOf(t, words) : t.norm));
  const grams: Gram[] = [];
  for (let first = 0; first < tokens.length; first++) {
    if (isFunctionWord(tokens[first].norm)) continue;
    for (let last = first; last < Math.min(tokens.length, first + MAX_GRAM); last++) {
      if (isFunctionWord(tokens[last].norm)) continue;
      const norms = tokens.slice(first, last + 1).map((t) => t.norm);
      if (norms.every(isStopword)) continue;
      if (first === last && (norms[0].length < 2 || /^\d+$/.test(norms[0]))) continue;
      const key = norms.join(' ');
      const base = lemmas.slice(first, last + 1);
      const lemmaKey = base.every(isStopword) ? undefined : base.join(' ');
      grams.push({ first, last, key, ...(lemmaKey && lemmaKey !== key ? { lemmaKey } : {}) });
    }
  }
  return grams;
}

/** A lower-case noun's lemma in normal form ("tumours" → "tumor"); symbols, capitals and other words keep their form. */
function lemmaOf(token: Token, words: Word[]): string {
  const word = words.find((w) => w.start === token.start && w.end === token.end);
  if (!word || word.text !== word.text.toLowerCase() || !/^[a-z]+$/.test(token.norm) || !['NOUN', 'PROPN', 'ADJ'].includes(word.pos)) return token.norm;
  return normaliseName(word.lemma) || token.norm;
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

/** A name or alias written as a symbol: capitals and digits ("GRAP2", "SET", "MS"), or any gene's name. */
function symbolLike(c: LinkCandidate): boolean {
  return isConcept(c.kind, 'gene') || (/^[A-Z0-9-]+$/.test(c.matched) && /[A-Z]/.test(c.matched));
}

/** Words next to a lower-case symbol that say a gene is meant ("the mtr gene", "protein lilrb2"). */
const GENE_CONTEXT = new Set(['gene', 'genes', 'protein', 'proteins', 'symbol', 'locus', 'allele', 'alleles', 'mutation', 'mutations', 'variant', 'variants', 'polymorphism', 'polymorphisms', 'knockout', 'isoform', 'isoforms']);
/** First- and second-person possessives: "my PI", "our PT" name the writer's people and things, never a gene ("my MS" may still be a disease). */
const PERSONAL_POSSESSIVES = new Set(['my', 'our', 'your']);
/** Parts of speech a symbol is never read from when written in lower case ("was", "can", "has", "all", "set"). */
const NEVER_SYMBOL: ReadonlySet<string> = new Set(['AUX', 'VERB', 'ADP', 'DET', 'PRON', 'CCONJ', 'SCONJ', 'PART', 'ADV', 'INTJ']);

/**
 * Why a symbol may not be read from the written span, or null when it may.
 * Written as a symbol (capitals, or with a digit: "MTR", "lilrb2") it may;
 * in lower case only a word the English lexicon does not know, of four
 * letters or more and not a verb or function word ("sparc", "apoe"), or any
 * word right next to "gene"/"protein" ("the mtr gene"). So "graph", "set",
 * "was", "can" never become genes. A gene symbol without digits after "my",
 * "our" or "your" is the writer's own ("my PI") and never one.
 */
function implausible(c: LinkCandidate, written: string, tokens: Token[], words: Word[], first: number, last: number): string | null {
  if (!symbolLike(c) || /\s/.test(c.matched.trim())) return null;
  const before = tokens[first - 1];
  if (before && PERSONAL_POSSESSIVES.has(before.norm) && isConcept(c.kind, 'gene') && !/\d/.test(written)) return `'${written}' follows '${before.norm}': the writer's own (a person, a lab), not a gene`;
  if (/\d/.test(written) || (written === written.toUpperCase() && /\p{Lu}.*\p{Lu}/u.test(written))) return null;
  const neighbours = [tokens[first - 1]?.norm, tokens[last + 1]?.norm];
  if (neighbours.some((n) => n && GENE_CONTEXT.has(n))) return null;
  const word = words.find((w) => w.start === tokens[first].start);
  if (first === last && word && !word.known && written.length >= 4 && !NEVER_SYMBOL.has(word.pos)) return null;
  return `'${written}' is an English word, not written as a symbol (capitals or digits) and not next to 'gene' or 'protein'`;
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
const KIND_PREFERENCE: KindConcept[] = ['disease', 'compound', 'gene', 'anatomy', 'symptom', 'pharmacologicClass', 'pathway', 'biologicalProcess', 'molecularFunction', 'cellularComponent', 'sideEffect'];
const kindRanks = new Map<string, number>();
const kindRank = (kind: string) => {
  let rank = kindRanks.get(kind);
  if (rank === undefined) {
    const ranks = conceptsOf(kind).map((c) => KIND_PREFERENCE.indexOf(c)).filter((i) => i >= 0);
    kindRanks.set(kind, (rank = ranks.length ? Math.min(...ranks) : KIND_PREFERENCE.length));
  }
  return rank;
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
