/**
 * Entity linking: the mentions of a question, each tied to the span of text
 * that supports it. The contract readers build on (docs/linking.md):
 *
 * - explainLinks(text) → { links, rejected }. `links` are in text order, never
 *   overlapping, each with `start`/`end` offsets into the text (`mention` is
 *   exactly that slice), `match` (exact, alias, gene-full-name, fuzzy,
 *   fuzzy-gene-full-name, gene-derived, abbreviation), `confidence` (0–1),
 *   `edits` for a fuzzy match, `readings` (equally good nodes of other kinds)
 *   and `alternatives` (every other node the span matched, best first).
 *   `rejected` holds each reading turned down, with its span and the reason:
 *   clinical shorthand, a short or common-word alias not written as a gene, an
 *   English word, a look-alike too many edits away, a shorter piece inside a
 *   longer reading.
 * - linkEntities(text) is explainLinks' links; linkMention(mention) links one
 *   mention (best first, no offsets).
 *
 * No node is linked without a span of the text that names it.
 */
import { americanSpelling, analyse, type Word } from '@/lib/nlp/english';
import type { EntityLink, LinkAlternative, LinkMatch, LinkMethod, LinkReading, LinkRejection, LinkReport } from './types';
import { normaliseName } from './normalise';
import { abbreviates, abbreviationCandidates, diseaseNames } from './linking/abbreviations';
import { allowedEdits, edits, fuzzyConfidence } from './linking/edits';
import { derivedGrams, geneFullNames } from './linking/gene-derived';
import {
  DO_NARROWER,
  FULL_NAME_SOURCE,
  readNamesLike,
  SPELLING_VARIANT,
  WORDNET_BROADER,
  WORDNET_DERIVED,
  WORDNET_GLOSS,
  WORDNET_NARROWER,
  WORDNET_SYNONYM,
  WORDNET_WORD_SYNONYM,
} from './linking/store';
import { LAY_NAMES } from './linking/lay-terms';
import { headNounKeys, unmarkedPossessiveKeys } from './linking/variants';
import { spellingIndex, type NearName } from './linking/spelling-index';
import { wordnetVerbs } from './linking/verbs';
import { objectSlots, slotAt, type ObjectSlot } from './linking/slots';
import { CLINICAL_SHORTHAND, diseaseCue, geneContext, geneVerbNext, NAME_SHORTHAND, symptomCue } from './linking/words';
import { ALIAS_SCORE, exactCandidates, fuzzyCandidates, type LinkCandidate } from './store/link-sql';
import { sharedKnowledgeLookups, type KnowledgeLookups } from './query/lookups';
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
  /** Lowest trigram similarity a fuzzy candidate may have (linkMention: 0.45; linkEntities: 0.4, then checked by edit distance). */
  minSimilarity?: number;
  /** Name lookups made before (the process's, see KnowledgeLookups): words looked up before are not asked again. */
  lookups?: KnowledgeLookups;
}

function exactHits(keys: string[], scope: { aliases: boolean; kinds?: string[] }, opts: LinkOptions): Promise<LinkCandidate[]> {
  return opts.lookups ? opts.lookups.candidates(keys, scope) : exactCandidates(keys, scope);
}

function fuzzyHits(
  keys: string[],
  scope: { aliases: boolean; kinds?: string[]; minSimilarity: number; limit: number },
  opts: LinkOptions,
): Promise<LinkCandidate[]> {
  return opts.lookups ? opts.lookups.fuzzyCandidates(keys, scope) : fuzzyCandidates(keys, scope);
}

const METHOD_RANK: Record<LinkMethod, number> = { exact: 0, alias: 1, fuzzy: 2 };

/** A candidate with how it matched and how sure the linker is of it. */
interface Reading extends LinkCandidate {
  match: LinkMatch;
  confidence: number;
  edits?: number;
}

/** Confidence by alias source: a gene's full name is as good as a name; other designations and WordNet's everyday names are looser, a narrower lay name ("hay fever" for allergic rhinitis) the loosest. */
const ALIAS_CONFIDENCE: Record<string, number> = {
  [FULL_NAME_SOURCE]: 0.95,
  'ncbi-symbol': 0.95,
  'ncbi-other-designation': 0.85,
  [WORDNET_SYNONYM]: 0.85,
  [WORDNET_DERIVED]: 0.85,
  [WORDNET_NARROWER]: 0.75,
  [DO_NARROWER]: 0.75,
  [SPELLING_VARIANT]: 0.95,
  [WORDNET_WORD_SYNONYM]: 0.8,
  [WORDNET_GLOSS]: 0.7,
};
/** Alias sources of names as people also write them, each its own match: the other side's spelling, a word's synonym inside a name, a short definition. */
const WRITTEN_FORMS: Readonly<Record<string, LinkMatch>> = {
  [SPELLING_VARIANT]: 'spelling-variant',
  [WORDNET_WORD_SYNONYM]: 'word-synonym',
  [WORDNET_GLOSS]: 'gloss',
};
/** Alias sources that are everyday names (match 'lay-term'). */
const LAY_SOURCES: ReadonlySet<string> = new Set([WORDNET_SYNONYM, WORDNET_DERIVED, WORDNET_NARROWER, DO_NARROWER]);

/** How an exact or alias candidate matched (fuzzy ones are read in fuzzyReading). */
function reading(c: LinkCandidate): Reading {
  if (c.method === 'exact') return { ...c, match: 'exact', confidence: 1 };
  if (c.method === 'fuzzy')
    return { ...c, match: c.source === FULL_NAME_SOURCE ? 'fuzzy-gene-full-name' : 'fuzzy', confidence: Math.round(c.score * 900) / 1000 };
  // General words for the one disease below them ("clinical depression") are a narrower reading, as in addNarrowerDiseases.
  if (c.source === WORDNET_BROADER) return { ...c, match: 'narrower', confidence: NARROWER_CONFIDENCE };
  const match = c.source === FULL_NAME_SOURCE ? 'gene-full-name' : LAY_SOURCES.has(c.source ?? '') ? 'lay-term' : (WRITTEN_FORMS[c.source ?? ''] ?? 'alias');
  return { ...c, match, confidence: ALIAS_CONFIDENCE[c.source ?? ''] ?? ALIAS_SCORE };
}

/** A candidate read as an alias of its node in a way of its own (a spelled-out, everyday, reordered or derived name). */
function asAlias(c: LinkCandidate, match: LinkMatch, score: number, confidence = score): Reading {
  return { ...c, method: 'alias', score, match, confidence };
}

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
  let found = (await exactHits([key], scope, opts)).filter((c) => !nameOnly(opts) || sameName(c, mention.trim())).map(reading);
  if ((opts.fuzzy ?? true) && !found.length) {
    found = (await fuzzyHits([key], { ...scope, minSimilarity: opts.minSimilarity ?? 0.45, limit }, opts)).map((c) => fuzzyReading(c, key));
  }
  return bestPerNode(found)
    .slice(0, limit)
    .map((c) => toLink(c, mention));
}

/** Longest span a mention may cover, in words: pathway names run to ten ("Activation of BIM and translocation to mitochondria"). */
const MAX_GRAM = 10;
/** Longest span looked up from an opening quote: a name in quotes may be a long pathway's ("The role of Nef in HIV-1 replication and disease pathogenesis"). */
const MAX_QUOTED_GRAM = 16;
/** Fuzzy lookups per text (in memory, well under a millisecond each): the longest windows around unread words. */
const MAX_FUZZY_SPANS = 80;
/** A fuzzy window shorter than this (characters) is not looked up: too many look-alikes, too little to go on. */
const MIN_FUZZY_WORD = 5;
/** Longest window looked up fuzzily, in words ("DnaJ (Hsp40) homolog, subfamily B, member 14" is seven). */
const MAX_FUZZY_GRAM = 8;
/** Extra fuzzy candidates kept per window, for those the checks drop. */
const FUZZY_SPARES = 4;
/** Score and confidence of readings built from a gene's full name or a disease's initials (derived, so below a stored alias). */
const DERIVED_SCORE = 0.85;
const ABBREVIATION_SCORE = 0.75;
/** Confidence of a name read with a clinical abbreviation spelt out ("pancreatic CA"). */
const SPELLED_CONFIDENCE = 0.8;
/** Confidence of a name read from a lay term of lib/kg/linking/lay-terms.ts ("heart attack"). */
const LAY_CONFIDENCE = 0.85;
/** Confidence of an organ's cancer named by another head noun ("liver carcinoma" → liver cancer). */
const HEAD_NOUN_CONFIDENCE = 0.8;
/** Confidence of a name read from the same words in another order ("blurred vision" → "Vision blurred"). */
const REORDERED_CONFIDENCE = 0.85;
/** Confidence of a disease read from the general words its name ends with ("macular degeneration"), beside the condition so named. */
const NARROWER_CONFIDENCE = 0.7;

interface Span {
  first: number;
  last: number;
  candidates: Reading[];
}

/**
 * Spots and links the entity mentions of a whole text (a question): word n-grams
 * up to ten words are looked up in one query, the longest matches win and
 * matches never overlap; words left unread get a few fuzzy lookups. Returns the
 * links in text order with their character offsets.
 */
export async function linkEntities(text: string, opts: LinkOptions = {}): Promise<EntityLink[]> {
  return (await explainLinks(text, opts)).links;
}

/**
 * Builds what linking reads from the whole knowledge once per process (every
 * spelling name in its buckets, the diseases' names, every name and alias in
 * memory), so that no question waits for it: workers call it before their first run.
 */
export async function prepareLinking(lookups: KnowledgeLookups = sharedKnowledgeLookups()): Promise<void> {
  await Promise.all([spellingIndex(lookups).then((index) => index.hold()), diseaseNames(lookups), lookups.holdNames()]);
}

/** Longest rejection list kept for the trace. */
const MAX_REJECTIONS = 40;

/**
 * linkEntities with its reasons: the candidates that were turned down, each
 * with why. Lemmas (wink-nlp) give each span a second key in base form and
 * American spelling ("tumours" → "tumor", "leukaemia" → "leukemia"). Besides
 * names and aliases: a gene symbol spelt out by its full name reads conditions
 * named after it ("G6PD deficiency"), a disease's initials read the disease
 * ("PCOS"), and a span within a few edits of a name reads that name, a longer
 * span beating the shorter exact pieces inside it ("nicotine dependance").
 * With `lookups`, a text linked before with the same options is read from them
 * (a copy: a caller may change its own), as its names would be.
 */
export async function explainLinks(text: string, opts: LinkOptions = {}): Promise<LinkReport> {
  if (!opts.lookups) return linkText(text, opts);
  const key = JSON.stringify([text, opts.aliases ?? true, opts.fuzzy ?? true, opts.kinds ?? null, opts.limit ?? null, opts.minSimilarity ?? null]);
  return structuredClone(await opts.lookups.derived('links', key, () => linkText(text, opts)));
}

async function linkText(text: string, opts: LinkOptions): Promise<LinkReport> {
  const tokens = tokenize(text);
  const words = analyse(text);
  const perMention = Math.max(1, opts.limit ?? 1);
  const scope = { aliases: opts.aliases ?? true, kinds: opts.kinds };
  const rich = !nameOnly(opts);
  const lookups = opts.lookups ?? sharedKnowledgeLookups();
  const rejected: LinkRejection[] = [];
  const spanText = (first: number, last: number) => text.slice(tokens[first].start, tokens[last].end);
  const reject = (c: Reading, first: number, last: number, why: string) =>
    rejected.push(rejection(c, spanText(first, last), tokens[first].start, tokens[last].end, why));
  const usable = (c: Reading, first: number, last: number) => {
    const written = spanText(first, last);
    if (!rich && !sameName(c, written)) return false;
    const why = implausible(c, written, text, tokens, words, first, last);
    if (why) reject(c, first, last, why);
    return !why;
  };

  const grams = candidateGrams(text, tokens, rich ? words : null);
  const keys = [
    ...new Set(
      grams.flatMap((g) => [
        g.key,
        ...(g.lemmaKey ? [g.lemmaKey] : []),
        ...(g.spelledKeys ?? []),
        ...(g.layKeys ?? []),
        ...(g.invertedKeys ?? []),
        ...(g.bareKeys ?? []),
        ...(g.headKeys ?? []),
      ]),
    ),
  ];
  const byKey = groupBy(await exactHits(keys, scope, opts), (c) => c.key);
  const spans: Span[] = grams
    .map(({ first, last, key, lemmaKey, spelledKeys, layKeys, invertedKeys, bareKeys, headKeys }) => {
      const found = [key, ...(lemmaKey ? [lemmaKey] : []), ...(bareKeys ?? [])].flatMap((k) => byKey.get(k) ?? []).map(reading);
      const spelled = (spelledKeys ?? [])
        .flatMap((k) => byKey.get(k) ?? [])
        .map((c) => asAlias(c, 'abbreviation', ABBREVIATION_SCORE, Math.min(SPELLED_CONFIDENCE, reading(c).confidence)));
      const lay = (layKeys ?? []).flatMap((k) => (byKey.get(k) ?? []).filter((c) => c.method === 'exact')).map((c) => asAlias(c, 'lay-term', LAY_CONFIDENCE));
      // Reordered, a span reads a name or an everyday name ("diabetes in pregnancy" → "pregnancy diabetes", gestational diabetes).
      const reordered = (invertedKeys ?? [])
        .flatMap((k) => byKey.get(k) ?? [])
        .filter((c) => c.method === 'exact' || LAY_SOURCES.has(c.source ?? '') || c.source === SPELLING_VARIANT || c.source === WORDNET_WORD_SYNONYM)
        .map((c) => asAlias(c, 'reordered', REORDERED_CONFIDENCE, Math.min(REORDERED_CONFIDENCE, reading(c).confidence)));
      // Another head noun for a cancer names the organ's cancer ("liver carcinoma", "tumour of the larynx"): diseases only.
      const headed = (headKeys ?? [])
        .flatMap((k) => (byKey.get(k) ?? []).filter((c) => isConcept(c.kind, 'disease') && (c.method === 'exact' || LAY_SOURCES.has(c.source ?? ''))))
        .map((c) => asAlias(c, 'head-noun', HEAD_NOUN_CONFIDENCE));
      return { first, last, candidates: [...found, ...spelled, ...lay, ...reordered, ...headed].filter((c) => usable(c, first, last)) };
    })
    .filter((s) => s.candidates.length > 0);
  if (rich && scope.aliases)
    spans.push(
      ...(await initialsInNameSpans(text, tokens, grams, spans, scope, reject)).filter(
        (s) => (s.candidates = s.candidates.filter((c) => usable(c, s.first, s.last))).length,
      ),
    );
  for (const s of spans) s.candidates = spelledOverGeneAlias(s, tokens, spans, (c, why) => reject(c, s.first, s.last, why));
  if (rich && scope.aliases) {
    spans.push(
      ...(await geneDerivedSpans(text, tokens, spans, scope, opts, lookups)).filter(
        (s) => (s.candidates = s.candidates.filter((c) => usable(c, s.first, s.last))).length,
      ),
    );
    spans.push(...(await abbreviationSpans(text, tokens, spans, lookups, reject)));
  }

  const covered = new Uint8Array(tokens.length);
  // Longest first; among equal lengths a name beats an alias, then the earlier span.
  const ordered = spans.sort((a, b) => b.last - b.first - (a.last - a.first) || bestRank(a) - bestRank(b) || a.first - b.first);
  const accepted = pickSpans(ordered, covered);
  for (const s of ordered) {
    if (accepted.includes(s)) continue;
    const winner = accepted.find((a) => a.first <= s.last && s.first <= a.last);
    if (winner) reject(bestPerNode(s.candidates)[0], s.first, s.last, `inside or across the longer reading '${spanText(winner.first, winner.last)}'`);
  }

  if ((opts.fuzzy ?? true) && rich) {
    const inOrder = [...accepted].sort((a, b) => a.first - b.first);
    const pairs = inOrder.slice(1).flatMap((b, i): [Span, Span][] => (inOrder[i].last + 1 === b.first ? [[inOrder[i], b]] : []));
    const windows = fuzzyWindows(text, tokens, words, covered, pairs);
    const spans = windows.map((w) => w.key);
    const index = spans.length ? await spellingIndex(lookups, spans) : null;
    const fuzzyUsable = (c: Reading, first: number, last: number) => {
      const why = fuzzyImplausible(c, tokens, words, first, last);
      if (why) reject(c, first, last, why);
      return !why && usable(c, first, last);
    };
    const linked = windows
      .map(({ first, last, key }) => ({
        first,
        last,
        candidates: index!
          .near(key, scope)
          .slice(0, perMention + FUZZY_SPARES)
          .map((c) => fuzzyReading(c, key))
          .filter((c) => fuzzyUsable(c, first, last)),
      }))
      .filter((s) => s.candidates.length > 0)
      // The longest window that reads as a name wins, then the closest spelling.
      .sort((a, b) => b.last - b.first - (a.last - a.first) || bestEdits(a) - bestEdits(b) || a.first - b.first);
    for (const w of linked) {
      const inside = accepted.filter((a) => a.first <= w.last && w.first <= a.last);
      const crossing = inside.find((a) => a.first < w.first || a.last > w.last || a.last - a.first >= w.last - w.first);
      if (crossing) {
        reject(bestPerNode(w.candidates)[0], w.first, w.last, `crosses the reading '${spanText(crossing.first, crossing.last)}'`);
        continue;
      }
      // A longer span read approximately beats its split into shorter exact pieces ("nicotine dependance": not Nicotine + Dependence).
      for (const piece of inside) {
        accepted.splice(accepted.indexOf(piece), 1);
        reject(
          bestPerNode(piece.candidates)[0],
          piece.first,
          piece.last,
          `a piece of the longer reading '${spanText(w.first, w.last)}' (${bestPerNode(w.candidates)[0].name}, within a few edits)`,
        );
      }
      covered.fill(1, w.first, w.last + 1);
      accepted.push(w);
    }
  }

  // An abbreviation in brackets right after a name it spells restates that name ("metabolic syndrome X (MetS)").
  for (const s of [...accepted]) {
    const restated = accepted.some((a) => a.last === s.first - 1) && restatedAbbreviation(text, tokens, s.first, s.last);
    if (!restated) continue;
    accepted.splice(accepted.indexOf(s), 1);
    reject(bestPerNode(s.candidates)[0], s.first, s.last, `in brackets after '${restated}', whose letters it spells: the same entity named again`);
  }
  if (rich) await addNarrowerDiseases(accepted, tokens, lookups);

  const links = accepted
    .sort((a, b) => a.first - b.first)
    .flatMap((s) => {
      const ranked = bestPerNode(s.candidates);
      const at = { start: tokens[s.first].start, end: tokens[s.last].end };
      const others = otherReadings(ranked, perMention);
      const alternatives = ranked.slice(perMention, perMention + MAX_ALTERNATIVES).map(alternative);
      const modifiers = rich ? droppedModifiers(tokens, words, covered, s.first) : undefined;
      return ranked.slice(0, perMention).map((c) => ({
        ...withModifiers(toLink(c, spanText(s.first, s.last)), isCondition(c.kind) ? modifiers : undefined),
        ...at,
        ...(others.length ? { readings: others } : {}),
        ...(alternatives.length ? { alternatives } : {}),
      }));
    });
  const distinct = [...new Map(rejected.map((r) => [`${r.start}:${r.end}:${r.nodeId}:${r.reason}`, r])).values()];
  return { links, rejected: distinct.slice(0, MAX_REJECTIONS) };
}

/** A condition read by its head with the modifiers before it dropped keeps this share of its confidence. */
const MODIFIED_HEAD_FACTOR = 0.9;
const isCondition = (kind: string) => isConcept(kind, 'disease') || isConcept(kind, 'symptom') || isConcept(kind, 'sideEffect');

/**
 * The words right before a span that modify it and that no name takes in ("patchy" in "patchy hair loss", "very" in
 * "being very overweight"): lower-case adjectives, and adverbs of degree before an adjective, no link covers. The span names the condition by its
 * head, the writer's degree or extent dropped; undefined where there are none.
 */
function droppedModifiers(tokens: readonly Token[], words: readonly Word[], covered: Uint8Array, first: number): string | undefined {
  const wordAt = (i: number) => words.find((w) => w.start === tokens[i].start);
  let from = first;
  for (let i = first - 1; i >= 0 && !covered[i]; i--) {
    const word = wordAt(i);
    if (!word || word.text !== word.text.toLowerCase() || !/^[a-z]{3,}$/.test(tokens[i].norm)) break;
    // An adjective, or an adverb of degree before one ("very overweight"), not "only", "also" before a name.
    const degree = word.pos === 'ADV' && wordAt(i + 1)?.pos === 'ADJ' && tokens[i].norm !== 'not';
    if (!(word.pos === 'ADJ' && !isStopword(tokens[i].norm)) && !degree) break;
    from = i;
  }
  return from < first
    ? tokens
        .slice(from, first)
        .map((t) => t.norm)
        .join(' ')
    : undefined;
}

/** A link with the modifiers its span left out recorded and its confidence lowered for them. */
function withModifiers(link: EntityLink, modifiers: string | undefined): EntityLink {
  if (!modifiers) return link;
  return { ...link, modifiers, confidence: Math.round((link.confidence ?? 1) * MODIFIED_HEAD_FACTOR * 1000) / 1000 };
}

/** Other nodes kept per link as its alternatives. */
const MAX_ALTERNATIVES = 5;

/**
 * Conditions named after a gene written by its symbol: each symbol read as a
 * gene ("G6PD", written as a symbol) is spelt out by the gene's full name from
 * NCBI gene_info and the spans around it are looked up again ("G6PD
 * deficiency" → the side effect "Glucose-6-phosphate dehydrogenase
 * deficiency"). Genes themselves are not read this way.
 */
async function geneDerivedSpans(
  text: string,
  tokens: Token[],
  spans: Span[],
  scope: { aliases: boolean; kinds?: string[] },
  opts: LinkOptions,
  lookups: KnowledgeLookups,
): Promise<Span[]> {
  const symbols = new Map<number, string[]>();
  for (const s of spans) {
    if (s.first !== s.last || !/[A-Z0-9]/.test(text.slice(tokens[s.first].start, tokens[s.first].end))) continue;
    const genes = s.candidates.filter((c) => isConcept(c.kind, 'gene') && (c.method === 'exact' || c.source === 'ncbi-symbol' || c.source === 'ncbi-synonym'));
    if (genes.length) symbols.set(s.first, [...(symbols.get(s.first) ?? []), ...genes.map((g) => g.id)]);
  }
  if (!symbols.size) return [];
  const names = await geneFullNames([...new Set([...symbols.values()].flat())], lookups);
  const fullNames = new Map([...symbols].map(([at, ids]) => [at, [...new Set(ids.flatMap((id) => names.get(id) ?? []))]]));
  const grams = derivedGrams(tokens, fullNames);
  if (!grams.length) return [];
  const byKey = groupBy(await exactHits([...new Set(grams.map((g) => g.key))], scope, opts), (c) => c.key);
  return grams
    .map(({ first, last, key }) => ({
      first,
      last,
      candidates: (byKey.get(key) ?? []).filter((c) => !isConcept(c.kind, 'gene')).map((c) => asAlias(c, 'gene-derived', DERIVED_SCORE)),
    }))
    .filter((s) => s.candidates.length > 0);
}

/** A word written as initials: a capital, then one to five capitals or digits ("MS", "PNS", "DM2"). */
const INITIALS = /^[A-Z][A-Z0-9]{1,5}$/;

/** Words around the initials inside a name, at most ("PNS neoplasm", "acute MI of the heart" is too long). */
const MAX_AROUND_INITIALS = 3;

/**
 * Initials inside a name ("PNS neoplasm", "CNS depression"): a span of a word in capitals and up to three other
 * words that no name reads is looked up as the graph's names (not genes') with those other words in place and,
 * where the capitals stand, words whose initials they spell: "peripheral nervous system neoplasm". Initials spelt
 * out in two ways are turned down, naming the names.
 */
async function initialsInNameSpans(
  text: string,
  tokens: Token[],
  grams: Gram[],
  spans: Span[],
  scope: { kinds?: string[] },
  reject: (c: Reading, first: number, last: number, why: string) => void,
): Promise<Span[]> {
  const capitals = (i: number) => INITIALS.test(text.slice(tokens[i].start, tokens[i].end));
  const open = grams.flatMap(({ first, last, spelledKeys }) => {
    if (last === first || last - first > MAX_AROUND_INITIALS || spelledKeys || spans.some((s) => s.first === first && s.last === last)) return [];
    const at = [...Array(last - first + 1).keys()].map((k) => first + k).filter(capitals);
    // A gene's symbol ("G6PD deficiency") is spelt out by the gene's full name instead (geneDerivedSpans).
    const symbol = spans.some((s) => s.first === at[0] && s.last === at[0] && s.candidates.some((c) => c.method === 'exact' && isConcept(c.kind, 'gene')));
    if (at.length !== 1 || symbol || CLINICAL_SHORTHAND.has(tokens[at[0]].norm)) return [];
    const before = tokens.slice(first, at[0]).map((t) => `${t.norm} `);
    const after = tokens.slice(at[0] + 1, last + 1).map((t) => ` ${t.norm}`);
    return [{ first, last, initials: tokens[at[0]].norm, prefix: before.join(''), suffix: after.join('') }];
  });
  if (!open.length) return [];
  const names = await readNamesLike([...new Set(open.map((o) => `${o.prefix}%${o.suffix}`))]);
  return open.flatMap(({ first, last, initials, prefix, suffix }) => {
    const spelled = names.filter((n) => {
      if (isConcept(n.kind, 'gene') || (scope.kinds?.length && !scope.kinds.includes(n.kind))) return false;
      if (!n.normalised.startsWith(prefix) || !n.normalised.endsWith(suffix)) return false;
      return abbreviates(initials, n.normalised.slice(prefix.length, n.normalised.length - suffix.length)) === 'initials';
    });
    const candidates = spelled.map((n): Reading => ({
      ...{ key: `${prefix}${initials}${suffix}`, id: n.id, kind: n.kind, name: n.name, degree: n.degree, matched: n.matched, source: n.source },
      ...{ method: 'alias', score: ABBREVIATION_SCORE, match: 'abbreviation', confidence: SPELLED_CONFIDENCE },
    }));
    const ways = new Set(spelled.map((n) => n.normalised));
    if (ways.size > 1 && new Set(spelled.map((n) => n.id)).size > 1) {
      for (const c of candidates) reject(c, first, last, `its initials spell several names (${[...new Set(spelled.map((n) => n.name))].join(', ')})`);
      return [];
    }
    return candidates.length ? [{ first, last, candidates }] : [];
  });
}

/**
 * A span read both as a clinical abbreviation spelt out and as a gene's alias
 * ("DM2": type 2 diabetes, and an alias of CNBP) is the disease where the
 * words around it speak of one ("associated with HTN and DM2"), as initials
 * are (abbreviationSpans); over an official symbol ("CAD") only a strong cue
 * ("treat CAD") reads the disease.
 */
function spelledOverGeneAlias(span: Span, tokens: Token[], spans: Span[], reject: (c: Reading, why: string) => void): Reading[] {
  const spelled = span.candidates.find((c) => c.match === 'abbreviation');
  const at = span.first;
  const cue = spelled && at === span.last ? (diseaseCue(tokens, at) ?? coordinatedWithDisease(tokens, at, spans)) : null;
  if (!cue) return span.candidates;
  return span.candidates.filter((c) => {
    const gene = isConcept(c.kind, 'gene') && (c.method === 'alias' || cue === 'strong');
    if (gene) reject(c, `'${tokens[at].norm}' is written next to words of a disease: read as ${spelled!.name}`);
    return !gene;
  });
}

/**
 * Diseases written by their initials ("MS", "PCOS", "T2DM"): a word in
 * capitals, not clinical shorthand and not next to a word that says a gene
 * is meant, whose letters are the initials of exactly one disease of the
 * graph, and only where the question speaks of a disease near it ("treat MS",
 * "symptoms of PCOS", "associated with") or writes them where a relation phrase
 * takes a disease ("used for MS": lib/kg/linking/slots.ts): without that, capitals are as likely
 * a lab's or a note's. Over an official gene symbol ("GC") only a strong cue
 * (treat, symptoms, patients…) reads the disease; the gene reading is then
 * turned down with that reason. An abbreviation several diseases share is
 * turned down, naming them.
 */
async function abbreviationSpans(
  text: string,
  tokens: Token[],
  spans: Span[],
  lookups: KnowledgeLookups,
  reject: (c: Reading, first: number, last: number, why: string) => void,
): Promise<Span[]> {
  const out: Span[] = [];
  let slots: ObjectSlot[] | undefined;
  // The object of a relation phrase whose metaedges take a disease there, not a gene ("used for MS", "indicated in RA"),
  // where the initials end their noun phrase ("used for MS analysis" is not the disease).
  const diseaseSlot = async (i: number): Promise<'strong' | null> => {
    if (tokens[i + 1] && !isFunctionWord(tokens[i + 1].norm)) return null;
    const wants = slotAt((slots ??= await objectSlots(text)), text, tokens[i].start);
    return wants?.has('disease') && !wants.has('gene') ? 'strong' : null;
  };
  for (let i = 0; i < tokens.length; i++) {
    const written = text.slice(tokens[i].start, tokens[i].end);
    if (!INITIALS.test(written) || CLINICAL_SHORTHAND.has(tokens[i].norm) || geneContext(tokens, i, i)) continue;
    const cue = diseaseCue(tokens, i) ?? coordinatedWithDisease(tokens, i, [...spans, ...out]) ?? (await diseaseSlot(i));
    const symptoms = symptomCue(tokens, i);
    const symbol = spans.find((s) => s.first === i && s.last === i && s.candidates.some((c) => c.method === 'exact'));
    if ((!cue && !symptoms) || (symbol && cue !== 'strong')) continue;
    const found = (await abbreviationCandidates(written, lookups, ABBREVIATION_SCORE, { disease: !!cue, symptom: symptoms })).map((c): Reading => ({
      ...c,
      match: 'abbreviation',
      confidence: ABBREVIATION_SCORE,
    }));
    if (found.length > 1) for (const c of found) reject(c, i, i, `'${written}' abbreviates several diseases (${found.map((f) => f.name).join(', ')})`);
    if (found.length !== 1) continue;
    if (symbol) {
      spans.splice(spans.indexOf(symbol), 1);
      for (const c of symbol.candidates) reject(c, i, i, `'${written}' is written next to words of a disease: read as ${found[0].name}`);
    }
    out.push({ first: i, last: i, candidates: found });
  }
  return out;
}

/**
 * A side effect or symptom named by two words or more that the name of exactly one disease ends with ("macular
 * degeneration": the side effect, and the disease age related macular degeneration) takes that disease as a further
 * reading (`narrower`), never as the link: a question whose relation only diseases have ("genes associated with
 * macular degeneration") reads the disease, one about side effects the side effect. One whose last words name a
 * disease ("erythrodermic psoriasis") takes that disease as a `broader` reading the same way.
 */
async function addNarrowerDiseases(spans: Span[], tokens: Token[], lookups: KnowledgeLookups): Promise<void> {
  const condition = (c: Reading) => c.method === 'exact' && (isConcept(c.kind, 'sideEffect') || isConcept(c.kind, 'symptom'));
  const open = spans.filter((s) => s.last > s.first && s.candidates.some(condition) && !s.candidates.some((c) => isConcept(c.kind, 'disease')));
  if (!open.length) return;
  const diseases = await diseaseNames(lookups);
  for (const s of open) {
    const key = tokens
      .slice(s.first, s.last + 1)
      .map((t) => t.norm)
      .join(' ');
    const named = diseases.filter((d) => d.normalised.endsWith(` ${key}`));
    // "erythrodermic psoriasis", "community acquired pneumonia": the words that end the span name its head, a broader
    // disease (the longest such tail), read where the question's relation wants a disease ("treatment for …").
    const words = key.split(' ');
    const tails = words.slice(1).map((_, i) => words.slice(i + 1).join(' '));
    const broader = tails.map((tail) => diseases.find((d) => d.normalised === tail)).find((d) => !!d);
    for (const [d, match, confidence] of [
      ...(named.length === 1 ? [[named[0], 'narrower', NARROWER_CONFIDENCE] as const] : []),
      ...(broader ? [[broader, 'broader', NARROWER_CONFIDENCE] as const] : []),
    ])
      s.candidates.push({
        ...{ key, id: d.id, kind: d.kind, name: d.name, degree: d.degree, matched: d.name, source: null },
        ...{ method: 'alias', score: confidence, match, confidence },
      });
  }
}

/** Conjunctions across which a disease's neighbour is read as one too ("COPD and RA", "PCOS or MS"). */
const COORDINATORS: ReadonlySet<string> = new Set(['and', 'or', 'nor', 'vs', 'versus']);

/** 'weak' when token `at` is coordinated with a span read as a disease ("treat COPD and RA"): the cue of the one carries to the other. */
function coordinatedWithDisease(tokens: Token[], at: number, spans: Span[]): 'weak' | null {
  const disease = (s: Span) => s.candidates.some((c) => isConcept(c.kind, 'disease'));
  const before = COORDINATORS.has(tokens[at - 1]?.norm ?? '') && spans.some((s) => s.last === at - 2 && disease(s));
  const after = COORDINATORS.has(tokens[at + 1]?.norm ?? '') && spans.some((s) => s.first === at + 2 && disease(s));
  return before || after ? 'weak' : null;
}

/**
 * The best node of each further kind that matched as well as the best one
 * (same method and score), or that a name or everyday name of it matched
 * exactly (not a gene's alias): other readings of the mention ("nausea" the
 * Symptom and the Side Effect; "alcoholism" the disease alcohol dependence, as
 * a lay term, and SIDER's side effect Alcoholism), for a reader whose relations pick the kind.
 */
function otherReadings(ranked: Reading[], perMention: number): LinkReading[] {
  const best = ranked[0];
  const kinds = new Set(ranked.slice(0, perMention).map((c) => c.kind));
  const others: LinkReading[] = [];
  const asWell = (c: Reading) =>
    (c.method === best.method && c.score === best.score) ||
    (best.method !== 'fuzzy' &&
      (c.match === 'exact' || c.match === 'lay-term' || c.match === 'narrower' || c.match === 'broader') &&
      !isConcept(c.kind, 'gene'));
  for (const c of ranked.slice(perMention)) {
    if (!asWell(c) || kinds.has(c.kind)) continue;
    kinds.add(c.kind);
    others.push({ nodeId: c.id, kind: c.kind, name: c.name });
  }
  return others;
}

function alternative(c: Reading): LinkAlternative {
  return { nodeId: c.id, kind: c.kind, name: c.name, matched: c.matched, match: c.match, confidence: c.confidence };
}

function rejection(c: Reading, mention: string, start: number, end: number, reason: string): LinkRejection {
  return { mention, start, end, nodeId: c.id, name: c.name, kind: c.kind, matched: c.matched, method: c.method, match: c.match, reason };
}

interface Gram {
  first: number;
  last: number;
  key: string;
  /** The span in base forms and American spelling, when that differs from `key`. */
  lemmaKey?: string;
  /** The span with a clinical abbreviation spelt out ("pancreatic cancer" for "pancreatic CA"). */
  spelledKeys?: string[];
  /** The names a lay term means ("myocardial infarction" for "heart attack"), lib/kg/linking/lay-terms.ts. */
  layKeys?: string[];
  /** The span's "<head> of the <modifier>" as "<modifier> <head>" ("ureter cancer"). */
  invertedKeys?: string[];
  /** The span with an eponym's possessive restored ("crohn s disease" for "Crohns disease"). */
  bareKeys?: string[];
  /** The span, as written or inverted, with another head noun for a cancer read as "cancer" ("liver cancer" for "liver carcinoma"). */
  headKeys?: string[];
}

/**
 * Spans worth a lookup: no function word at either end, not made only of
 * stopwords, not a bare number or letter. With `words` (not in exact-name-only
 * mode), each also gets its lemma key.
 */
function candidateGrams(text: string, tokens: Token[], words: readonly Word[] | null): Gram[] {
  const lemmas = tokens.map((t) => (words ? lemmaOf(t, words) : t.norm));
  const grams: Gram[] = [];
  const edge = nameEdges(text, tokens);
  for (let first = 0; first < tokens.length; first++) {
    if (!edge.starts[first]) continue;
    for (let last = first; last < Math.min(tokens.length, first + (edge.quoted[first] ? MAX_QUOTED_GRAM : MAX_GRAM)); last++) {
      if (!edge.ends[last]) continue;
      const norms = tokens.slice(first, last + 1).map((t) => t.norm);
      if (norms.every(isStopword)) continue;
      if (first === last && (norms[0].length < 2 || /^\d+$/.test(norms[0]))) continue;
      const key = norms.join(' ');
      const base = lemmas.slice(first, last + 1);
      const lemmaKey = base.every(isStopword) ? undefined : base.join(' ');
      const spelledKeys = words ? spelledOut(norms) : [];
      // In base forms and as written: a derived name keeps its plural ("polyps in the nose" → "nose polyps").
      const invertedKeys = words ? [...new Set([inverted(base), inverted(norms)].filter((k): k is string => !!k))] : [];
      const layKeys = words ? [key, lemmaKey, ...invertedKeys].flatMap((k) => (k ? (LAY_NAMES.get(k) ?? []) : [])) : [];
      const bareKeys = words ? unmarkedPossessiveKeys(text, tokens, first, last, words) : [];
      const headKeys = words ? headNounKeys([base, ...invertedKeys.map((k) => k.split(' '))]) : [];
      grams.push({
        first,
        last,
        key,
        ...(lemmaKey && lemmaKey !== key ? { lemmaKey } : {}),
        ...(spelledKeys.length ? { spelledKeys } : {}),
        ...(layKeys.length ? { layKeys } : {}),
        ...(invertedKeys.length ? { invertedKeys } : {}),
        ...(bareKeys.length ? { bareKeys } : {}),
        ...(headKeys.length ? { headKeys } : {}),
      });
    }
  }
  return grams;
}

/** Words between a name's head and its modifier written after it ("cancer of the ureter"). */
const OF = new Set(['of', 'in']);
const ARTICLES = new Set(['the', 'a', 'an']);

/**
 * "<head> of (the) <modifier>" as the name writes it, "<modifier> <head>" ("cancer of the ureter" → "ureter cancer",
 * "infection of the ear" → "ear infection"): a head of one or two words, a modifier of one to three.
 */
function inverted(words: string[]): string | undefined {
  const at = words.findIndex((w) => OF.has(w));
  if (at < 1 || at > 2) return undefined;
  const modifier = words.slice(ARTICLES.has(words[at + 1]) ? at + 2 : at + 1);
  if (modifier.length < 1 || modifier.length > 3 || modifier.some((w) => OF.has(w) || isFunctionWord(w))) return undefined;
  return [...modifier, ...words.slice(0, at)].join(' ');
}

/** A span's words with its one clinical abbreviation spelt out (NAME_SHORTHAND), each way it may be; none when it holds none or several. */
function spelledOut(norms: string[]): string[] {
  const at = norms.map((n, i) => (NAME_SHORTHAND.has(n) ? i : -1)).filter((i) => i >= 0);
  if (at.length !== 1) return [];
  return NAME_SHORTHAND.get(norms[at[0]])!.map((words) => [...norms.slice(0, at[0]), words, ...norms.slice(at[0] + 1)].join(' '));
}

/**
 * Which words may start and end a name: not function words, except a
 * function word written as a symbol ("WAS", "IT"), one joined to the next word
 * by a hyphen ("A-kinase") or, after another word, a
 * capital letter ("complement factor I", "vitamin A") or a possessive's s
 * ("Alzheimer's", Disease Ontology's short name for the disease).
 */
function nameEdges(text: string, tokens: Token[]): { starts: boolean[]; ends: boolean[]; quoted: boolean[] } {
  const written = (i: number) => text.slice(tokens[i].start, tokens[i].end);
  const symbol = (i: number) => /^[A-Z]{2,}$/.test(written(i));
  // A letter joined to the next word by a hyphen is part of it ("A-kinase anchor protein 4", "S-adenosylmethionine").
  const joined = (i: number) => i + 1 < tokens.length && text.slice(tokens[i].end, tokens[i + 1].start) === '-';
  // A name in quotes is the writer's whole name, function words at its ends included ('the pathway "The AIM2 inflammasome"').
  const opensQuote = (i: number) => /(?:^|\s)["“‘']$/.test(text.slice(i > 0 ? tokens[i - 1].end : 0, tokens[i].start));
  const closesQuote = (i: number) => /^["”’'](?:[\s?.!,;:)]|$)/.test(text.slice(tokens[i].end, i + 1 < tokens.length ? tokens[i + 1].start : text.length));
  const plain = tokens.map((t, i) => !isFunctionWord(t.norm) || symbol(i) || joined(i));
  const starts = plain.map((p, i) => p || opensQuote(i));
  const ends = tokens.map(
    (t, i) =>
      plain[i] || closesQuote(i) || (i > 0 && (/^[A-Z]$/.test(written(i)) || (t.norm === 's' && /^['’]$/.test(text.slice(tokens[i - 1].end, t.start))))),
  );
  return { starts, ends, quoted: tokens.map((_, i) => opensQuote(i)) };
}

/** A lower-case noun's lemma in normal form ("tumours" → "tumor"); symbols, capitals and other words keep their form. */
function lemmaOf(token: Token, words: readonly Word[]): string {
  const word = words.find((w) => w.start === token.start && w.end === token.end);
  if (!word || word.text !== word.text.toLowerCase() || !/^[a-z]+$/.test(token.norm) || !['NOUN', 'PROPN', 'ADJ'].includes(word.pos)) return token.norm;
  return normaliseName(word.lemma) || token.norm;
}

/** Forms of "be": a bare verb never follows one. */
const BE: ReadonlySet<string> = new Set(['is', 'are', 'was', 'were', 'be', 'been', 'being', 'am']);

/** Punctuation that ends a phrase: a name never runs across it (commas and brackets it may: "DnaJ (Hsp40) homolog, subfamily B"). */
const PHRASE_BREAK = /[;:?!"“”]|\.\s/;

/**
 * Windows for fuzzy lookup: each word no reading took (not a function word,
 * question vocabulary or shorthand, not a number) with the words around it up
 * to a phrase break, never starting or ending on a function word; windows may
 * take in words an exact reading took ("nicotine dependance"), question
 * vocabulary ("crohn disease", "protein kinase C") and function words inside
 * ("secretion by cell"); and two readings side by side, which may be one
 * name misspelt ("Pleura fibrosis"). Longest first, at most MAX_FUZZY_SPANS.
 */
function fuzzyWindows(text: string, tokens: Token[], words: readonly Word[], covered: Uint8Array, pairs: [Span, Span][]): Gram[] {
  const breaksBefore = (i: number) => i > 0 && PHRASE_BREAK.test(text.slice(tokens[i - 1].end, tokens[i].start));
  // A name neither starts nor ends on a function word, nor on an English verb in lower case ("presents", "orders"; "swelling", "increased" may).
  const edge = nameEdges(text, tokens);
  // A word read as a name ("zinc", whatever the tagger says) is never a plain verb.
  // Nor is a word right after an article, a preposition or a form of "be", where no bare verb stands ("is prostrate
  // cancer …": a misspelt name).
  const noVerbSlot = (i: number) => {
    const before = i > 0 ? words.find((w) => w.start === tokens[i - 1].start) : undefined;
    return !!before && (before.pos === 'DET' || before.pos === 'ADP' || BE.has(tokens[i - 1].norm));
  };
  const plainWord = tokens.map((t, i) => {
    const word = words.find((w) => w.start === t.start);
    return (
      !covered[i] && !!word?.known && (word.pos === 'VERB' || word.pos === 'AUX') && !/(ing|ed)$/.test(t.norm) && /\p{Ll}/u.test(word.text) && !noVerbSlot(i)
    );
  });
  const unread = (i: number) => {
    const n = tokens[i].norm;
    return !covered[i] && !plainWord[i] && !isFunctionWord(n) && !QUESTION_WORDS.has(n) && !CLINICAL_SHORTHAND.has(n) && n.length >= 3 && !/^\d+$/.test(n);
  };
  const canStart = (i: number) => edge.starts[i] && !plainWord[i];
  const canEnd = (i: number) => edge.ends[i] && !plainWord[i];
  const grams = new Map<string, Gram>();
  // Two readings side by side may be one name misspelt ("Pleura fibrosis": Pleural fibrosis, not the pleura and Fibrosis).
  for (const [a, b] of pairs) {
    const key = tokens
      .slice(a.first, b.last + 1)
      .map((t) => t.norm)
      .join(' ');
    if (b.last - a.first < MAX_FUZZY_GRAM && !breaksBefore(b.first)) grams.set(`${a.first}:${b.last}`, { first: a.first, last: b.last, key });
  }
  for (let i = 0; i < tokens.length; i++) {
    if (!unread(i)) continue;
    let left = i;
    while (left > 0 && i - left + 1 < MAX_FUZZY_GRAM && !breaksBefore(left)) left--;
    let right = i;
    while (right + 1 < tokens.length && right - i + 1 < MAX_FUZZY_GRAM && !breaksBefore(right + 1)) right++;
    for (let first = left; first <= i; first++) {
      for (let last = i; last <= right && last - first < MAX_FUZZY_GRAM; last++) {
        if ((first < i && !canStart(first)) || (last > i && !canEnd(last))) continue;
        const key = tokens
          .slice(first, last + 1)
          .map((t) => t.norm)
          .join(' ');
        if (key.length >= MIN_FUZZY_WORD) grams.set(`${first}:${last}`, { first, last, key });
      }
    }
  }
  return [...grams.values()]
    .sort((a, b) => b.last - b.first - (a.last - a.first) || b.key.length - a.key.length || a.first - b.first)
    .slice(0, MAX_FUZZY_SPANS);
}

/** A fuzzy candidate read against the window it was found for: its edits and confidence (names in another word order: 'reordered'). */
function fuzzyReading(c: LinkCandidate | NearName, key: string): Reading {
  if ('reordered' in c && c.reordered) return { ...reading(c), match: 'reordered', edits: 0, confidence: REORDERED_CONFIDENCE };
  const name = normaliseName(c.matched);
  const n = 'edits' in c ? c.edits : edits(key, name);
  return { ...reading(c), edits: n, confidence: fuzzyConfidence(n, name.length) };
}

/**
 * Why a fuzzy candidate may not be read from its window, or null: more edits
 * than the name's length allows (allowedEdits), a gene symbol (a word that
 * resembles one is a word), or one word the English lexicon knows ("tests" is
 * not a misspelt "testis", nor "vision" a misspelt "virion"): a misspelt word
 * is read inside a longer span only ("nicotine dependance").
 */
function fuzzyImplausible(c: Reading, tokens: Token[], words: readonly Word[], first: number, last: number): string | null {
  const length = normaliseName(c.matched).length;
  if ((c.edits ?? Infinity) > allowedEdits(length))
    return `${c.edits} edits from '${c.matched}': a name of ${length} characters allows ${allowedEdits(length)}`;
  if (symbolLike(c) && c.source !== FULL_NAME_SOURCE && !/\s/.test(c.matched.trim()) && (isConcept(c.kind, 'gene') || length <= SHORT_SYMBOL))
    return 'a gene symbol is never matched fuzzily: a word that resembles one is a word';
  const word = first === last ? words.find((w) => w.start === tokens[first].start) : undefined;
  const [norm, name] = [tokens[first].norm, normaliseName(c.matched)];
  // The same word in British and American spelling ("haemoglobinemia", "Haemoglobinaemia") is one word spelt two ways, not a look-alike.
  if (word?.known && !pluralOf(norm, name) && americanSpelling(norm) !== americanSpelling(name))
    return `'${word.text}' is an English word spelt right, not a misspelt name`;
  return null;
}

/** One word is the other's plural ("prostaglandin" / "Prostaglandins"): another form of the same word, not a look-alike. */
function pluralOf(a: string, b: string): boolean {
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return long === `${short}s` || long === `${short}es`;
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

function bestEdits(span: Span): number {
  return Math.min(...span.candidates.map((c) => c.edits ?? 0));
}

/** Longest name in capitals (not a gene's) still read as a symbol, never fuzzily: an abbreviation ("COPD"), not a drug's name in capitals ("SIMEPREVIR"). */
const SHORT_SYMBOL = 6;

/** A name or alias written as a symbol: capitals and digits ("GRAP2", "SET", "MS"), or any gene's name. */
function symbolLike(c: LinkCandidate): boolean {
  return isConcept(c.kind, 'gene') || (/^[A-Z0-9-]+$/.test(c.matched) && /[A-Z]/.test(c.matched));
}

/** First- and second-person possessives: "my PI", "our PT" name the writer's people and things, never a gene ("my MS" may still be a disease). */
const PERSONAL_POSSESSIVES = new Set(['my', 'our', 'your']);
/** Parts of speech a symbol is never read from when written in lower case ("was", "can", "has", "all", "set"). */
const NEVER_SYMBOL: ReadonlySet<string> = new Set(['AUX', 'VERB', 'ADP', 'DET', 'PRON', 'CCONJ', 'SCONJ', 'PART', 'ADV', 'INTJ']);
/** An alias of at most this many letters (no digits), or of two characters ("S3"), is too ambiguous to read as a gene unless written as one. */
const SHORT_ALIAS = 4;

/**
 * Why a node may not be read from the written span, or null when it may.
 * Clinical shorthand ("SE", "tx", "MOA") is a question word: only a gene
 * reading written as a gene ("the SE gene") may take it. A gene's alias that
 * is short (letters only, four or fewer) or an English word links only when
 * written as a gene ("MS protein", "expression of SE", "hERG", "bind HERG"). Otherwise a symbol
 * written as one (capitals, or with a digit: "MTR", "lilrb2") may be read; in
 * lower case only a word the English lexicon does not know, of four letters
 * or more and not a verb or function word ("sparc", "apoe"), or any word right
 * next to "gene"/"protein" ("the mtr gene"). So "graph", "set", "was", "can"
 * never become genes. A gene symbol without digits after "my", "our" or
 * "your" is the writer's own ("my PI") and never one.
 */
function implausible(c: Reading, written: string, text: string, tokens: Token[], words: readonly Word[], first: number, last: number): string | null {
  const gene = isConcept(c.kind, 'gene');
  const asGene = geneContext(tokens, first, last);
  if (first === last && CLINICAL_SHORTHAND.has(tokens[first].norm) && !(gene && asGene))
    return `'${written}' is clinical shorthand, a question word${gene ? " (a gene only when written as one: 'the " + written + " gene')" : ''}`;
  if (first === last && /^\p{Ll}+$/u.test(written) && strandedBefore(tokens, words, first, text))
    return `'${written}' comes between its subject and the preposition it takes ('${tokens[last + 1].norm}'): the verb of its clause ("which classes does it fall under?", "compounds that fall into …"), not a name`;
  const word = words.find((w) => w.start === tokens[first].start);
  // A node with no edge in the loaded graph named by one everyday word ("learning", "growth") is the word.
  if (first === last && c.degree === 0 && word?.known && /^\p{Ll}+$/u.test(written))
    return `'${written}' is an everyday word, and ${c.name} has no edge in the loaded graph`;
  // A short word joined by a hyphen to the next is its prefix ("co-expressed", "re-uptake"), not a gene's alias.
  if (gene && first === last && /^\p{Ll}{1,4}$/u.test(written) && /^-\p{L}/u.test(text.slice(tokens[first].end)))
    return `'${written}' is a prefix joined to the next word, not a gene`;
  if (!symbolLike(c) || /\s/.test(c.matched.trim())) return null;
  const before = tokens[first - 1];
  if (before && PERSONAL_POSSESSIVES.has(before.norm) && gene && !/\d/.test(written))
    return `'${written}' follows '${before.norm}': the writer's own (a person, a lab), not a gene`;
  // Written with a capital after a small letter ("hERG") or next to a verb of genes ("bind HERG"), an alias is written as a gene.
  if (gene && c.method === 'alias' && first === last && !asGene && !/\p{Ll}\p{Lu}/u.test(written) && !geneVerbNext(tokens, first, last)) {
    const norm = tokens[first].norm;
    if ((/^[a-z]+$/.test(norm) && norm.length <= SHORT_ALIAS) || norm.length <= 2 || word?.known)
      return `'${written}' is a short or common-word alias of ${c.name}: a gene only when written as one ('the ${written} gene', '${written} protein')`;
  }
  if (/\d/.test(written) || (written === written.toUpperCase() && /\p{Lu}.*\p{Lu}/u.test(written))) return null;
  if (asGene) return null;
  // A writer who writes a symbol in lower case with its digits ("dlx5") writes the others so too: three letters may then be one ("tkt").
  const shortest = lowerCaseSymbols(tokens, words) ? 3 : 4;
  if (first === last && word && !word.known && written.length >= shortest && !NEVER_SYMBOL.has(word.pos)) return null;
  return `'${written}' is an English word, not written as a symbol (capitals or digits) and not next to 'gene' or 'protein'`;
}

/** Words before a bracket an abbreviation in it may spell. */
const ABBREVIATED_WORDS = 6;

/**
 * The words an abbreviation in brackets restates ("metabolic syndrome X (MetS)", "tumor protein p53 (TP53)"): its
 * letters, in order, from the initial of one of the few words before the bracket; null when it spells none.
 */
function restatedAbbreviation(text: string, tokens: Token[], first: number, last: number): string | null {
  if (first === 0 || !/\(\s*$/.test(text.slice(tokens[first - 1].end, tokens[first].start)) || !/^\s*\)/.test(text.slice(tokens[last].end))) return null;
  const letters = text
    .slice(tokens[first].start, tokens[last].end)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  if (letters.length < 2 || !/[A-Z]/.test(text.slice(tokens[first].start, tokens[last].end))) return null;
  const end = tokens[first - 1].end;
  for (let k = first - 1; k >= Math.max(0, first - ABBREVIATED_WORDS); k--) {
    const words = text.slice(tokens[k].start, end).toLowerCase();
    if (words[0] !== letters[0]) continue;
    let at = 0;
    for (const ch of letters) if ((at = words.indexOf(ch, at) + 1) === 0) break;
    if (at > 0) return text.slice(tokens[k].start, end);
  }
  return null;
}

/** Prepositions a question strands at the end of its clause ("fall into?", "belong to?", "located in?"). */
const STRANDABLE: ReadonlySet<string> = new Set(['into', 'under', 'to', 'in', 'within', 'on', 'onto', 'with', 'from', 'of', 'for', 'by', 'at']);

/**
 * Whether the word at `at` is a verb stranding its preposition at the end of the clause ("does atomoxetine fall
 * under?", "do any of them fall into?"): after a subject (not after "is", an article or a preposition: "which class is
 * aspirin in?" names aspirin).
 */
function strandedBefore(tokens: Token[], words: readonly Word[], at: number, text: string): boolean {
  const prep = tokens[at + 1];
  if (!prep || !STRANDABLE.has(prep.norm)) return false;
  const subject = at > 0 ? words.find((w) => w.start === tokens[at - 1].start) : undefined;
  if (!subject || !['NOUN', 'PROPN', 'PRON'].includes(subject.pos)) return false;
  const after = tokens[at + 2];
  if (!after || /[?.!;:]/.test(text.slice(prep.end, after.start))) return true;
  // Before an object the preposition governs ("compounds fall into any of the classes"), a word WordNet has as a verb
  // is the clause's verb too, however the tagger reads it: a name after its subject would need a verb between them.
  const word = words.find((w) => w.start === tokens[at].start);
  return wordnetVerbs().has(word?.lemma ?? tokens[at].norm) || wordnetVerbs().has(tokens[at].norm);
}

/** Whether the text writes a symbol in lower case with its digits ("dlx5", "brca1"): a word the English lexicon does not know. */
function lowerCaseSymbols(tokens: Token[], words: readonly Word[]): boolean {
  return tokens.some((t) => /^[a-z]+[0-9][a-z0-9]*$/.test(t.norm) && words.some((w) => w.start === t.start && w.text === t.norm && !w.known));
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
const KIND_PREFERENCE: KindConcept[] = [
  'disease',
  'compound',
  'gene',
  'anatomy',
  'symptom',
  'pharmacologicClass',
  'pathway',
  'biologicalProcess',
  'molecularFunction',
  'cellularComponent',
  'sideEffect',
];
const kindRanks = new Map<string, number>();
const kindRank = (kind: string) => {
  let rank = kindRanks.get(kind);
  if (rank === undefined) {
    const ranks = conceptsOf(kind)
      .map((c) => KIND_PREFERENCE.indexOf(c))
      .filter((i) => i >= 0);
    kindRanks.set(kind, (rank = ranks.length ? Math.min(...ranks) : KIND_PREFERENCE.length));
  }
  return rank;
};

/**
 * One candidate per node (its best way of matching), ranked: method, confidence, kind, then the better-connected node.
 * A disease named by the span, by its name or an everyday name, comes before a side effect of that name ("alcoholism":
 * alcohol dependence, then SIDER's Alcoholism): SIDER's terms repeat the conditions, the disease has the biology around it.
 */
function bestPerNode(candidates: Reading[]): Reading[] {
  const ranked = [...candidates].sort(
    (a, b) =>
      diseaseFirst(a, b) ||
      METHOD_RANK[a.method] - METHOD_RANK[b.method] ||
      b.confidence - a.confidence ||
      kindRank(a.kind) - kindRank(b.kind) ||
      b.degree - a.degree ||
      a.id.localeCompare(b.id),
  );
  const seen = new Set<string>();
  return ranked.filter((c) => !seen.has(c.id) && seen.add(c.id));
}

/** Negative when `a` is a disease and `b` a side effect both named (not misspelt) by the span, positive the other way round. */
function diseaseFirst(a: Reading, b: Reading): number {
  if (a.method === 'fuzzy' || b.method === 'fuzzy' || [a.match, b.match].some((m) => m === 'narrower' || m === 'broader')) return 0;
  const rank = (c: Reading) => (isConcept(c.kind, 'disease') ? -1 : isConcept(c.kind, 'sideEffect') ? 1 : 0);
  return Math.abs(rank(a) - rank(b)) === 2 ? rank(a) - rank(b) : 0;
}

function toLink(c: Reading, mention: string): EntityLink {
  return {
    nodeId: c.id,
    kind: c.kind,
    name: c.name,
    mention,
    matched: c.matched,
    method: c.method,
    score: Math.round(c.score * 1000) / 1000,
    match: c.match,
    confidence: c.confidence,
    ...(c.edits !== undefined ? { edits: c.edits } : {}),
  };
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}
