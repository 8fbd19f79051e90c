import { allPassageTexts, corpusShape, readCalibration, saveCalibration, type CorpusDb, type CorpusPassage } from '@/lib/corpus/store';
import { databaseKey, searchAliasesOf } from '@/lib/kg/store';
import type { NameTable } from '@/lib/kg/linking/name-table';
import { findEntityMentions, type CandidateEntity } from '@/lib/llm/offline/passages';
import { contentTerms, isStopword, wordTokens } from '@/lib/llm/offline/text';

/**
 * When a passage is relevant to a question: it mentions one of the question's
 * linked entities (by name or alias), or its words cover enough of the query's
 * content words that it clears a threshold calibrated on the corpus.
 *
 * Calibration: the threshold is the 99th percentile of the coverage scores of
 * hard negatives. From a seeded sample of up to 200 corpus passages, the first
 * sentence of each (with at least 5 content words) is a pseudo-query; the 10 passages of *other* documents (among a
 * seeded sample of 1,200) that cover most of its words (its nearest lexical neighbours, which are still about
 * something else; a passage holding the sentence itself, the same text stored again, is not one) are its hard negatives, and the threshold is set where only
 * 1 % of their scores reach. A corpus of fewer than 20 documents has too few
 * negatives to calibrate on: then no passage is admitted by score alone.
 */

export interface Relevance {
  /** Names of the question entities the passage mentions. */
  sharedEntities: string[];
  /** Share of the query's content words the passage contains (0..1). */
  coverage: number;
}

export interface Calibration {
  threshold: number;
  /** Hard-negative pairs scored. */
  negatives: number;
  documents: number;
  method: string;
}

export const MIN_CALIBRATION_DOCUMENTS = 20;
const SAMPLE = 200;
/** Passages the hard negatives are drawn from (a seeded sample of the corpus). */
const NEGATIVE_POOL = 1200;
const PER_QUERY = 10;
const PERCENTILE = 0.99;
/** Pseudo-queries shorter than this (a label, a fragment) say too little to score against. */
const MIN_QUERY_TERMS = 5;

export function relevanceOf(text: string, query: string, entities: CandidateEntity[]): Relevance {
  return { sharedEntities: [...new Set(entityMentions(text, entities).map((m) => m.name))], coverage: coverage(query, text) };
}

/** Where the text names the entities, by name or alias; a symbol written in lower case is not a mention. */
export function entityMentions(text: string, entities: CandidateEntity[]) {
  return findEntityMentions(text, entities).filter(
    (m) =>
      !otherCasing(
        m.mention,
        entities.find((e) => e.nodeId === m.nodeId)!,
      ),
  );
}

/**
 * A symbol (EGFR, MS) written with lower-case letters in prose is another word
 * ("eGFR", the filtration rate): passages write gene symbols in capitals.
 */
function otherCasing(mention: string, entity: CandidateEntity): boolean {
  if (!/[a-z]/.test(mention)) return false;
  return [entity.name, ...(entity.aliases ?? [])].some((s) => /[A-Z]/.test(s) && !/[a-z]/.test(s) && s.toLowerCase() === mention.toLowerCase());
}

/** Share of the query's content words (stop words and question words dropped) that the text contains. */
export function coverage(query: string, text: string): number {
  const q = new Set(contentTerms(query));
  if (!q.size) return 0;
  const t = new Set(contentTerms(text));
  let hit = 0;
  for (const w of q) if (t.has(w)) hit++;
  return hit / q.size;
}

/** Words safe for to_tsquery: letters and digits only, so user text can never inject tsquery syntax. */
export function queryTerms(query: string): string[] {
  const words = wordTokens(query)
    .map((t) => t.text.toLowerCase())
    .filter((w) => !isStopword(w))
    .flatMap((w) => w.match(/[a-z0-9]+/g) ?? []);
  return [...new Set(words.filter((w) => w.length > 2))].slice(0, 32);
}

/** A tsquery matching any of the surfaces as a phrase: "(multiple <-> sclerosis) | (ms)". */
export function surfaceQuery(surfaces: string[]): string {
  const phrases = surfaces.map((s) => (s.toLowerCase().match(/[a-z0-9]+/g) ?? []).join(' <-> ')).filter(Boolean);
  return [...new Set(phrases)].map((p) => `(${p})`).join(' | ');
}

const ALIASES_PER_ENTITY = 15;
/** Synonyms shorter than this ("MS", "AR") name too many other things in prose; a node's own name is always used. */
export const MIN_ALIAS = 4;

/** The aliases a passage search looks for, per node: the longest 15 of 4+ characters (from the names held in memory, if any). */
export async function searchAliases(nodeIds: string[], held: NameTable | null = null): Promise<Map<string, string[]>> {
  const wanted = { perNode: ALIASES_PER_ENTITY, minLength: MIN_ALIAS };
  return held ? held.longestAliases(nodeIds, wanted) : searchAliasesOf(nodeIds, wanted);
}

/** What the process knows of the corpus's calibration; the corpus is looked at again after SIGNATURE_CHECK_MS. */
let calibrated: { database: string; signature: string; checkedAt: number; value: Promise<Calibration> } | null = null;
/** Documents attached meanwhile wait this long to count. */
const SIGNATURE_CHECK_MS = 10_000;

/**
 * The corpus's threshold: kept in `corpus_calibrations` under the corpus's signature, so it is
 * computed once per corpus (by its import, see storeCalibration, or by the first run after the
 * documents changed) and not again by every process that searches documents.
 */
export async function calibration(): Promise<Calibration> {
  return (await calibratedCorpus()).calibration;
}

/**
 * The corpus as last checked (its signature, at most SIGNATURE_CHECK_MS old) with its calibration: what a passage
 * search's memory is keyed by (./doc.ts), so searches see attached documents when the calibration does.
 */
export async function calibratedCorpus(): Promise<{ signature: string; calibration: Calibration }> {
  const database = databaseKey();
  let entry = calibrated;
  if (entry?.database !== database || Date.now() - entry.checkedAt >= SIGNATURE_CHECK_MS) {
    const corpus = await corpusSignature();
    if (calibrated?.database === database && calibrated.signature === corpus.signature) calibrated.checkedAt = Date.now();
    else {
      const made = { database, signature: corpus.signature, checkedAt: Date.now(), value: storedOrComputed(corpus) };
      calibrated = made;
      // A calibration that failed (a lost database) is not kept: the next caller computes it again.
      made.value.catch(() => {
        if (calibrated === made) calibrated = null;
      });
    }
    entry = calibrated!;
  }
  return { signature: entry.signature, calibration: await entry.value };
}

/** Computes and stores the calibration of the corpus as it is now in `db` (by default the process's database): the end of a corpus import. */
export async function storeCalibration(db?: CorpusDb): Promise<Calibration> {
  return storedOrComputed(await corpusSignature(db), db);
}

interface CorpusSignature {
  signature: string;
  documents: number;
}

/** The corpus as the calibration sees it (lib/corpus/store.ts corpusShape), as one text. */
async function corpusSignature(db?: CorpusDb): Promise<CorpusSignature> {
  const { documents, passages, ids, imported } = await corpusShape(db);
  return { signature: `${CALIBRATION_VERSION}:${documents}:${passages}:${ids}:${imported ?? ''}`, documents };
}

/** Part of the signature: a change to how the calibration is computed makes the stored ones stale. */
const CALIBRATION_VERSION = 1;

async function storedOrComputed(corpus: CorpusSignature, db?: CorpusDb): Promise<Calibration> {
  const stored = await readCalibration(corpus.signature, db);
  // JSON has no Infinity: a corpus too small to calibrate is stored with a null threshold.
  if (stored) return { ...stored, threshold: stored.threshold ?? Infinity };
  const value = await calibrate(corpus.documents, db);
  await saveCalibration(corpus.signature, { ...value, threshold: Number.isFinite(value.threshold) ? value.threshold : null }, db);
  return value;
}

async function calibrate(documents: number, db?: CorpusDb): Promise<Calibration> {
  if (documents < MIN_CALIBRATION_DOCUMENTS) {
    return {
      threshold: Infinity,
      negatives: 0,
      documents,
      method: `corpus of ${documents} document(s) is too small to calibrate (< ${MIN_CALIBRATION_DOCUMENTS}): no passage is admitted by score alone`,
    };
  }
  return calibrateOn(await allPassageTexts(db), documents);
}

/** The calibration over given passages (pure: the same corpus gives the same threshold). */
export function calibrateOn(rows: CorpusPassage[], documents: number): Calibration {
  // Negatives come from a seeded sample of the corpus, so calibration stays cheap on a large one.
  const pool = rows
    .map((r) => ({ r, key: seededKey(r.id) }))
    .sort((a, b) => a.key - b.key)
    .slice(0, NEGATIVE_POOL)
    .map((x) => x.r);
  const terms = pool.map((r) => new Set(contentTerms(r.text)));
  // Normalised once per passage, not once per (sample, passage) pair: that was most of a first model-mode run's wait.
  const spaced = pool.map((r) => normaliseSpace(r.text));
  const sample = pool.slice(0, SAMPLE).map((r, i) => ({ r, i }));
  const scores: number[] = [];
  for (const { r, i } of sample) {
    const query = new Set(contentTerms(r.text.split(/(?<=[.!?])\s+/)[0] ?? r.text));
    if (query.size < MIN_QUERY_TERMS) continue;
    // The same text in another document (a reprint, a test fixture stored twice) is that passage again, not a negative.
    const sentence = normaliseSpace(r.text.split(/(?<=[.!?])\s+/)[0] ?? r.text);
    const against = pool
      .flatMap((other, j) => (other.documentId === r.documentId || j === i ? [] : [{ j, score: share(query, terms[j]) }]))
      .sort((a, b) => b.score - a.score);
    // Best first, skipping copies until PER_QUERY are kept: the text search runs on a few passages, not on all.
    const kept: number[] = [];
    for (const { j, score } of against) {
      if (kept.length === PER_QUERY) break;
      if (!spaced[j].includes(sentence)) kept.push(score);
    }
    scores.push(...kept);
  }
  if (!scores.length) return { threshold: Infinity, negatives: 0, documents, method: 'no hard negatives found: no passage is admitted by score alone' };
  scores.sort((a, b) => a - b);
  const threshold = scores[Math.min(scores.length - 1, Math.floor(PERCENTILE * scores.length))];
  return {
    threshold: Math.round(threshold * 1000) / 1000,
    negatives: scores.length,
    documents,
    method: `99th percentile of query-word coverage over ${scores.length} hard negatives: the first sentences of ${sample.length} seeded-sampled passages against the ${PER_QUERY} best-covering passages of other documents among ${pool.length} sampled`,
  };
}

function normaliseSpace(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

function share(query: Set<string>, text: Set<string>): number {
  let hit = 0;
  for (const w of query) if (text.has(w)) hit++;
  return hit / query.size;
}

/** A stable pseudo-random order (FNV-1a of the id), so the sample is the same on every run. */
function seededKey(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
