import { BoundedMemo } from '@/lib/base/memo';
import { normaliseName } from '@/lib/kg/normalise';

/**
 * Text primitives the offline rules share: one normal form for comparing names,
 * word tokens with their offsets (so matches can be cited as spans), and
 * sentence splitting for passages.
 */

/**
 * The KG's own name normalisation (lower case, ASCII folding, punctuation to
 * space), so names from questions, options, passages and evidence compare
 * equal exactly when the linker would call them equal.
 */
export const normalise = normaliseName;

export interface Token {
  /** Normal form of the word (see normalise). */
  text: string;
  start: number;
  end: number;
}

/**
 * Word tokens of the raw text with character offsets; token texts are in
 * normal form. A word whose normal form has several words ("TNFα" → "tnf
 * alpha") gives one token per word, all with the word's offsets.
 */
export function wordTokens(text: string): Token[] {
  const tokens: Token[] = [];
  for (const m of text.matchAll(WORD)) {
    for (const part of wordOf(m[0]).parts) tokens.push({ text: part, start: m.index, end: m.index + m[0].length });
  }
  return tokens;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** What one written word gives: its normal-form words, and those as content terms (stopwords dropped, stemmed). */
interface WordForms {
  parts: string[];
  terms: string[];
}

/** Written words seen, with their forms: texts repeat words, and normalising and stemming each again costs more than the lookup. */
const wordForms = new BoundedMemo<string, WordForms>(100_000);

function wordOf(word: string): WordForms {
  return wordForms.get(word, () => {
    const parts = normalise(word).split(' ').filter(Boolean);
    return { parts, terms: parts.filter((w) => !isStopword(w)).map(stem) };
  });
}

const STOPWORDS = new Set(
  (
    'a an the and or but nor of in on at to for from by with without into onto over under as is are was were be been being ' +
    'do does did doing has have had having this that these those it its they them their there here which what who whom whose ' +
    'how when where why than then so such can could may might must shall should will would also both either neither each ' +
    'any all some no not only very more most less least other another same own about between among after before during ' +
    'through i we you he she our your his her us me my one s'
  ).split(' '),
);

export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/**
 * A light suffix stripper, enough for "treats/treated/treating" to meet
 * "treat"; deterministic and language-model free, not a linguistic stemmer.
 */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ing') && word.length > 5) return word.slice(0, -3);
  if (word.endsWith('ed') && word.length > 4) return word.slice(0, -2);
  if (word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** Content terms of a text: normal-form words, stopwords dropped, stemmed. */
export function contentTerms(text: string): string[] {
  const terms: string[] = [];
  for (const m of text.matchAll(WORD)) terms.push(...wordOf(m[0]).terms);
  return terms;
}

export interface Sentence {
  text: string;
  start: number;
  end: number;
}

// Words whose trailing period does not end a sentence in biomedical prose.
const ABBREVIATIONS = /\b(?:e\.g|i\.e|et al|vs|fig|figs|dr|approx|no|ref|refs|resp|ca|cf|incl)\.$/i;

/**
 * Sentences with offsets into the text. A boundary is ., ! or ? followed by
 * space and an upper-case letter, digit, quote or bracket, unless the period
 * closes a known abbreviation.
 */
export function splitSentences(text: string): Sentence[] {
  const sentences: Sentence[] = [];
  let start = 0;
  for (const m of text.matchAll(/[.!?]+["')\]]?(\s+)(?=["'(\[]?[\p{Lu}\p{N}])/gu)) {
    const end = m.index + m[0].length - m[1].length;
    if (ABBREVIATIONS.test(text.slice(start, end))) continue;
    pushSentence(text, start, end, sentences);
    start = m.index + m[0].length;
  }
  pushSentence(text, start, text.length, sentences);
  return sentences;
}

function pushSentence(text: string, start: number, end: number, into: Sentence[]): void {
  const raw = text.slice(start, end);
  const lead = raw.length - raw.trimStart().length;
  const trimmed = raw.trim();
  if (trimmed) into.push({ text: trimmed, start: start + lead, end: start + lead + trimmed.length });
}
