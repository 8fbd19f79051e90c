/**
 * Lexical similarity for when no embedding endpoint exists: ReGraM's MMR and
 * BioWeave's cross-verification need a Sim(a, b) in [0, 1], and retrieval over
 * short texts (textified triples, sentences) needs a ranking. Both work on the
 * stemmed content terms of text.ts, so "treats" meets "treated".
 */

import { BoundedMemo } from '@/lib/base/memo';
import { contentTerms } from './text';

/** A text's term vector: stemmed content term → weight. */
export type TermVector = ReadonlyMap<string, number>;
type Weights = TermVector;

/** A text's content terms counted, and how many there are: what every measure here starts from. */
interface Counted {
  tf: ReadonlyMap<string, number>;
  length: number;
  /** The log-tf vector with no idf (Sim between two texts), made when first asked. */
  plain?: Weights;
}

/**
 * Texts counted before: a run compares the same triples and passages in every retrieval, hop and proposer, and a
 * question asked again (a rerun, an evaluation grid) compares them again.
 */
const counted = new BoundedMemo<string, Counted>(10_000);

function countTerms(text: string): Counted {
  return counted.get(text, () => {
    const terms = contentTerms(text);
    const tf = new Map<string, number>();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    return { tf, length: terms.length };
  });
}

/**
 * A text's distinct content terms in the order they first occur (as `new Set(contentTerms(text))`), counted once
 * per text: ReGraM reads each of a hop's queries against every candidate, and a rerun reads the same queries again.
 */
export function distinctTerms(text: string): Iterable<string> {
  return countTerms(text).tf.keys();
}

/** Cosine of two term vectors. */
export function cosine(a: Weights, b: Weights): number {
  let dot = 0;
  for (const [t, w] of a) {
    const v = b.get(t);
    if (v !== undefined) dot += w * v;
  }
  const na = squaresOf(a);
  const nb = squaresOf(b);
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/** The sum of a plain vector's squared weights, kept with it: MMR compares each candidate with every selected triple. */
const plainSquares = new WeakMap<Weights, number>();

function squaresOf(v: Weights): number {
  const kept = plainSquares.get(v);
  if (kept !== undefined) return kept;
  let sum = 0;
  for (const w of v.values()) sum += w * w;
  return sum;
}

/** Log-scaled term frequency times idf; build once when one text is compared with many. */
export function termVector(text: string, idf?: (term: string) => number): Weights {
  const c = countTerms(text);
  if (!idf && c.plain) return c.plain;
  const weights = new Map<string, number>();
  for (const [t, f] of c.tf) weights.set(t, (1 + Math.log(f)) * (idf ? idf(t) : 1));
  if (!idf) {
    c.plain = weights;
    plainSquares.set(weights, squaresOf(weights));
  }
  return weights;
}

/**
 * The cosine of texts against one another, when each is compared with many (MMR: every candidate with each triple it
 * selects): each text's plain vector kept as term ids and weights, and the text compared against spread over the
 * vocabulary, so a comparison reads arrays, not maps. The same sums in the same order as `cosine` of their `termVector`s.
 */
export class CosineTable {
  private readonly ids = new Map<string, number>();
  private readonly vectors = new Map<string, { ids: Int32Array; weights: Float64Array; squares: number }>();
  /** The text compared against, spread over the vocabulary. */
  private spread: { text: string | null; ids: Int32Array; weights: Float64Array; present: Uint8Array } = {
    text: null,
    ids: new Int32Array(0),
    weights: new Float64Array(0),
    present: new Uint8Array(0),
  };

  /** Texts whose vectors are kept. */
  get size(): number {
    return this.vectors.size;
  }

  cosine(a: string, b: string): number {
    const va = this.vector(a);
    const vb = this.vector(b);
    const against = this.against(b, vb.ids, vb.weights);
    let dot = 0;
    for (let i = 0; i < va.ids.length; i++) {
      const id = va.ids[i];
      if (id < against.present.length && against.present[id]) dot += va.weights[i] * against.weights[id];
    }
    return va.squares && vb.squares ? dot / Math.sqrt(va.squares * vb.squares) : 0;
  }

  private vector(text: string) {
    let v = this.vectors.get(text);
    if (!v) {
      const weights = termVector(text);
      const ids = new Int32Array(weights.size);
      const values = new Float64Array(weights.size);
      let i = 0;
      for (const [t, w] of weights) {
        let id = this.ids.get(t);
        if (id === undefined) this.ids.set(t, (id = this.ids.size));
        ids[i] = id;
        values[i++] = w;
      }
      v = { ids, weights: values, squares: squaresOf(weights) };
      this.vectors.set(text, v);
    }
    return v;
  }

  private against(text: string, ids: Int32Array, weights: Float64Array) {
    const s = this.spread;
    if (s.text === text) return s;
    if (s.present.length < this.ids.size) {
      s.weights = new Float64Array(this.ids.size * 2);
      s.present = new Uint8Array(this.ids.size * 2);
    } else for (const id of s.ids) s.present[id] = 0;
    for (let i = 0; i < ids.length; i++) {
      s.weights[ids[i]] = weights[i];
      s.present[ids[i]] = 1;
    }
    s.text = text;
    s.ids = ids;
    return s;
  }
}

/**
 * Cosine of the two texts' term vectors, log-scaled term frequency times idf;
 * without an idf (no corpus at hand) every term weighs the same.
 */
export function lexicalSimilarity(a: string, b: string, idf?: (term: string) => number): number {
  return cosine(termVector(a, idf), termVector(b, idf));
}

export interface Bm25Hit {
  /** Position of the text in the indexed list. */
  index: number;
  score: number;
}

const BM25_PARAMS = { k1: 1.2, b: 0.75 };

/** BM25's idf of a term `n` of `docs` texts hold, floored at a small positive value so very common terms still count a little. */
function bm25Idf(docs: number, n: number): number {
  return Math.max(0.01, Math.log(1 + (docs - n + 0.5) / (n + 0.5)));
}

/** What a term (its idf, `f` times in a text of `length` terms) adds to the text's score. */
function bm25Term(idf: number, f: number, length: number, avgLength: number, { k1, b }: { k1: number; b: number }): number {
  return (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * length) / (avgLength || 1)));
}

/**
 * One query's BM25 against `texts`, the same scores as `new Bm25Index(texts).scoreAll(query)` without the index: only
 * the query's terms are looked up in each text (kg-rag ranks its whole neighbourhood, 130–1,170 triples, against the
 * question once; the index's postings of every term were most of that).
 */
export function bm25Scores(texts: string[], query: string): number[] {
  const counts = texts.map(countTerms);
  const avgLength = counts.reduce((s, c) => s + c.length, 0) / Math.max(1, texts.length);
  const scores = new Array<number>(texts.length).fill(0);
  for (const t of distinctTerms(query)) {
    const holding: number[] = [];
    for (let i = 0; i < counts.length; i++) if (counts[i].tf.has(t)) holding.push(i);
    const idf = bm25Idf(texts.length, holding.length);
    for (const i of holding) scores[i] += bm25Term(idf, counts[i].tf.get(t)!, counts[i].length, avgLength, BM25_PARAMS);
  }
  return scores;
}

/** Okapi BM25 over a small list of short texts, plus TF-IDF cosine with the same idf. */
export class Bm25Index {
  private readonly docs: ReadonlyMap<string, number>[];
  private readonly lengths: number[];
  private readonly avgLength: number;
  /**
   * Per term, the texts holding it and how often, as pairs in one array (index, frequency, index, …): a query's score
   * reads only the texts that share a term with it.
   */
  private readonly postings = new Map<string, number[]>();

  constructor(
    texts: string[],
    private readonly params: { k1: number; b: number } = BM25_PARAMS,
  ) {
    const counts = texts.map(countTerms);
    this.docs = counts.map((c) => c.tf);
    this.lengths = counts.map((c) => c.length);
    this.avgLength = this.lengths.reduce((s, n) => s + n, 0) / Math.max(1, texts.length);
    for (const [index, doc] of this.docs.entries()) {
      for (const [t, f] of doc) {
        const list = this.postings.get(t);
        if (list) list.push(index, f);
        else this.postings.set(t, [index, f]);
      }
    }
  }

  get size(): number {
    return this.docs.length;
  }

  idf = (term: string): number => bm25Idf(this.docs.length, (this.postings.get(term)?.length ?? 0) / 2);

  score(query: string, index: number): number {
    return this.scoreAll(query)[index];
  }

  /** The query's score for every indexed text, the query read once: each term adds to the texts that hold it, in the query's term order. */
  scoreAll(query: string): number[] {
    return this.scoreTerms(distinctTerms(query));
  }

  /** scoreAll for a query's distinct terms (distinctTerms), read by a caller that also weighs them. */
  scoreTerms(terms: Iterable<string>): number[] {
    const scores = new Array<number>(this.docs.length).fill(0);
    for (const t of terms) {
      const idf = this.idf(t);
      const list = this.postings.get(t) ?? [];
      for (let p = 0; p < list.length; p += 2) scores[list[p]] += bm25Term(idf, list[p + 1], this.lengths[list[p]], this.avgLength, this.params);
    }
    return scores;
  }

  /** Texts with a positive score, best first; ties keep index order so results are deterministic. */
  search(query: string, limit = this.docs.length): Bm25Hit[] {
    return this.scoreAll(query)
      .map((score, index) => ({ index, score }))
      .filter((hit) => hit.score > 0)
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .slice(0, limit);
  }

  /** TF-IDF cosine of two texts with this index's idf: a Sim in [0, 1] for MMR. */
  similarity(a: string, b: string): number {
    return lexicalSimilarity(a, b, this.idf);
  }
}
