/**
 * Sim(a, b) between short texts (a question and a textified triple, two
 * evidence units), as ReGraM's MMR and BioWeave's cross-verification score
 * relevance and redundancy. The papers use the cosine of sentence embeddings;
 * with an embedding model configured (HOPSCOPE_EMBEDDING_MODEL) that is what
 * runs, through the endpoint's /v1/embeddings. Otherwise (the offline engine,
 * no embedding model, or an endpoint that failed during the run) a lexical
 * similarity stands in, and every comparison says which one it was and why.
 */

import { ModelCallError } from './errors';
import type { EmbeddingClient } from './embeddings';
import type { CallRecorder } from './types';
import { Bm25Index, CosineTable, distinctTerms } from './offline/lexical';

/** Which similarity a comparison used, recorded with every score table. */
export interface SimilarityUse {
  /** 'embedding:<model>' or 'lexical'. */
  kind: string;
  measure: string;
  /** Why this one: the configuration, or what made the run fall back. */
  why: string;
  /** With embeddings: where the compared texts' vectors came from. */
  vectors?: { texts: number; cached: number; embedded: number; requests: number };
}

/** A set of texts (and the queries put to them) made comparable. */
export interface Comparison {
  used: SimilarityUse;
  /** Sim(query, t) in [0, 1] for each compared text t, in order; `query` must be one of the queries given. */
  relevance(query: string): number[];
  /** Sim(a, b) in [0, 1] of two of the texts or queries given. */
  between(a: string, b: string): number;
}

export interface Similarity {
  /** What a comparison made now would use. */
  current(): SimilarityUse;
  compare(texts: string[], queries?: string[]): Promise<Comparison>;
}

export const LEXICAL_MEASURE =
  "stands in for the papers' sentence-embedding cosine. Relevance of a text to a query: its BM25 (idf over the texts compared) over the BM25 " +
  'of a text holding every query term, capped at 1, so covering all of the query counts most; between two texts: the cosine of their ' +
  'log-tf vectors of stemmed content terms, no idf, so two texts that differ in one name stay near duplicates';

export const LEXICAL_WHY = {
  offline: 'offline engine: no embedding endpoint',
  unconfigured: 'fallback: no HOPSCOPE_EMBEDDING_MODEL',
} as const;

export class LexicalSimilarity implements Similarity {
  /**
   * One table for the run's comparisons (a similarity serves one run): its retrievals compare the same triples again
   * and again (EIGEN-1's ranking, ReGraM's hops), and a text's vector is made once. A cosine does not depend on the
   * table it is read from.
   */
  private table = new CosineTable();

  constructor(private readonly why: string) {}

  current(): SimilarityUse {
    return { kind: 'lexical', measure: LEXICAL_MEASURE, why: this.why };
  }

  async compare(texts: string[]): Promise<Comparison> {
    if (this.table.size >= TABLE_TEXTS) this.table = new CosineTable();
    return lexicalComparison(texts, this.current(), this.table);
  }
}

/** Texts a similarity's table keeps before it starts again (a client that outlives a run). */
const TABLE_TEXTS = 20_000;

function lexicalComparison(texts: string[], used: SimilarityUse, table = new CosineTable()): Comparison {
  // The index only serves relevance: a caller that compares texts with one another (EIGEN-1's ranking) never builds it.
  let index: Bm25Index | undefined;
  return { used, relevance: (query) => queryMatch((index ??= new Bm25Index(texts)), query), between: (a, b) => table.cosine(a, b) };
}

/**
 * Each indexed text's BM25 for the query, over the score of a text of average
 * length holding every query term once (the sum of their idf): how much of
 * the query the text covers, the query's rare terms counting most.
 */
export function queryMatch(index: Bm25Index, query: string): number[] {
  const terms = [...distinctTerms(query)];
  const ideal = terms.reduce((sum, t) => sum + index.idf(t), 0);
  // The scores are this call's own: made relative in place (a hop asks this of every reading of q_i).
  const scores = index.scoreTerms(terms);
  for (let i = 0; i < scores.length; i++) scores[i] = ideal > 0 ? Math.min(1, scores[i] / ideal) : 0;
  return scores;
}

/**
 * Cosine of the endpoint's embeddings. Vectors are kept for the run (and in
 * Postgres across runs, by the client's cache). When the endpoint fails after
 * its retries, this run goes on lexical, and every later comparison says why.
 */
export class EmbeddingSimilarity implements Similarity {
  private readonly vectors = new Map<string, Float32Array>();
  private failure: string | null = null;

  /** `recorder` gives, when asked, where the run records an embedding request as a model call (its current step). */
  constructor(
    private readonly client: EmbeddingClient,
    private readonly recorder: (() => CallRecorder | null) | null = null,
  ) {}

  current(): SimilarityUse {
    if (this.failure)
      return { kind: 'lexical', measure: LEXICAL_MEASURE, why: `fallback: the embedding endpoint failed (${this.failure}); lexical for the rest of this run` };
    return {
      kind: `embedding:${this.client.model}`,
      measure: `cosine of the two texts' embeddings from the endpoint's /v1/embeddings (model ${this.client.model}), floored at 0, for relevance and between texts alike`,
      why: 'HOPSCOPE_EMBEDDING_MODEL is set',
    };
  }

  async compare(texts: string[], queries: string[] = []): Promise<Comparison> {
    if (this.failure) return lexicalComparison(texts, this.current());
    const all = [...new Set([...texts, ...queries])];
    const missing = all.filter((t) => !this.vectors.has(t));
    let vectors = { cached: 0, embedded: 0, requests: 0 };
    if (missing.length) {
      try {
        const got = await this.client.embed(missing, this.recorder?.());
        missing.forEach((t, i) => this.vectors.set(t, got.vectors[i]));
        vectors = { cached: got.cached, embedded: got.embedded, requests: got.requests };
      } catch (err) {
        if (!(err instanceof ModelCallError)) throw err;
        this.failure = `${err.kind}: ${err.message}`;
        return lexicalComparison(texts, this.current());
      }
    }
    const sim = (a: string, b: string) => vectorCosine(this.vectors.get(a)!, this.vectors.get(b)!);
    return {
      used: { ...this.current(), vectors: { texts: all.length, ...vectors } },
      relevance: (query) => texts.map((t) => sim(query, t)),
      between: sim,
    };
  }
}

/** Cosine floored at 0 (opposed reads as unrelated); 0 with a zero vector. */
export function vectorCosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? Math.max(0, Math.min(1, dot / Math.sqrt(na * nb))) : 0;
}
