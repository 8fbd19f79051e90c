/**
 * Finding the registry's phrases in a text by word forms, not by a pattern per
 * phrasing. A text word matches a phrase word when one of its forms is that
 * word: its lemma (wink-nlp, lib/nlp/english.ts), its written form, or a base
 * the regular English suffixes give back ("upregulated" → "upregulate",
 * "covaries" → "covary", where the model's lexicon has no lemma). A verb
 * phrase's first word also matches its nominal forms ("regulation",
 * "inhibitor", "treatment", "resemblance"). Two words written apart ("up
 * regulated", "co-expressed") match a phrase word written as one, and an
 * article inside a phrase is skipped ("control the expression of").
 */

import { BoundedMemo } from '@/lib/base/memo';
import { analyse, americanSpelling, type Word } from '@/lib/nlp/english';

export interface PhraseWordsMatch {
  start: number;
  end: number;
  /** Index of the last word matched. */
  last: number;
}

const ARTICLES = new Set(['the', 'a', 'an']);

/** Bases a written word may have by the regular suffixes (longest words only: "is" is no plural of "i"). */
function bases(word: string): string[] {
  const out = [word];
  if (word.length < 4) return out;
  const strip = (suffix: string, ...adds: string[]) => {
    if (!word.endsWith(suffix) || word.length - suffix.length < 2) return;
    const stem = word.slice(0, -suffix.length);
    for (const add of adds) out.push(stem + add);
    // A doubled final consonant ("targetted", "controlled") is one.
    if (/([b-df-hj-np-tv-z])\1$/.test(stem)) out.push(stem.slice(0, -1));
  };
  strip('ies', 'y');
  strip('ied', 'y');
  strip('es', '', 'e');
  strip('s', '');
  strip('ed', '', 'e');
  strip('ing', '', 'e');
  return out;
}

/** The nominal forms of a verb: "regulate" → "regulation", "regulator"; "treat" → "treatment"; "covary" → "covariance". */
export function nominalForms(verb: string): string[] {
  const stem = verb.replace(/e$/, '');
  const y = verb.replace(/y$/, 'i');
  const forms = [`${stem}ion`, `${stem}ation`, `${stem}or`, `${stem}er`, `${verb}ment`, `${stem}ance`, `${y}ation`, `${y}ance`];
  if (verb.endsWith('ize')) forms.push(`${stem}ation`);
  return forms;
}

/** Every form a text word can take part in a match as. */
export function wordForms(word: Word): Set<string> {
  const lower = word.text.toLowerCase().replace(/[-‐‑]/g, '');
  const forms = new Set<string>();
  for (const w of new Set([lower, americanSpelling(lower), word.lemma.replace(/[-‐‑]/g, '')])) for (const b of bases(w)) forms.add(b);
  // An abbreviation's plural ("AEs", "ADRs", "SEs"): too short for the suffix rules.
  if (/^[A-Z]{2,}s$/.test(word.text)) forms.add(lower.slice(0, -1));
  // A shorthand made a participle by an apostrophe ("tx'd", "dx'd"): the shorthand itself.
  const clipped = /^(.+)['’]d$/.exec(lower);
  if (clipped) forms.add(clipped[1]);
  return forms;
}

/** A text analysed once for matching: its words, each word's forms, and the forms of each word run together with the next. */
export interface AnalysedText {
  text: string;
  words: readonly Word[];
  forms: readonly ReadonlySet<string>[];
  /** Forms of word i written together with word i+1 ("up regulated", "co-expressed"); null when they are not adjacent. */
  joined: readonly (ReadonlySet<string> | null)[];
}

/** Texts analysed for matching before: the offline roles read the same questions, queries and evidence texts run after run. */
const analysedTexts = new BoundedMemo<string, AnalysedText>(2_000);

/** The text analysed for matching; shared with every caller that asks for the same text. */
export function analyseText(text: string): AnalysedText {
  return analysedTexts.get(text, analyseNow);
}

/**
 * "SOCS3-interacting", "IL6-binding": the tokenizer keeps a symbol and the word hyphened to it as one token; the word after
 * the last hyphen is a word of its own (it may name a relation), the symbol before it another.
 */
function hyphenParts(words: readonly Word[]): Word[] {
  return words.flatMap((w) => {
    const tail = /[-‐‑](\p{L}{3,})$/u.exec(w.text);
    if (!tail || !/[\p{L}\p{N}]/u.test(w.text.slice(0, tail.index))) return [w];
    const cut = w.start + tail.index;
    const head = { ...w, text: w.text.slice(0, tail.index), end: cut, lemma: w.text.slice(0, tail.index).toLowerCase() };
    return [head, { ...w, text: tail[1], start: cut + 1, lemma: americanSpelling(tail[1].toLowerCase()) }];
  });
}

function analyseNow(text: string): AnalysedText {
  const words = hyphenParts(analyse(text));
  const forms = words.map(wordForms);
  // The suffix "-like" ("alcoholism-like conditions", "etofibrate-like compounds") says "similar", as the word does.
  words.forEach((w, i) => {
    if (i > 0 && w.lemma === 'like' && /^[-‐‑]$/.test(text.slice(words[i - 1].end, w.start))) forms[i].add('similar');
  });
  const joined = words.map((w, i) => {
    const next = words[i + 1];
    if (!next || !/^[\s-‐‑]?$/.test(text.slice(w.end, next.start))) return null;
    return wordForms({ ...next, text: w.text + next.text, lemma: w.text.toLowerCase() + next.lemma });
  });
  return { text, words, forms, joined };
}

/**
 * Matches phrase words (base forms) at word `i`; `first` holds the forms the
 * first word may take (its own, plus nominal ones for a verb). Returns the
 * match or null.
 */
export function matchAt(t: AnalysedText, i: number, words: readonly string[], first: ReadonlySet<string>): PhraseWordsMatch | null {
  let at = i;
  for (let k = 0; k < words.length; k++) {
    const wanted = (form: ReadonlySet<string> | null) => !!form && (k === 0 ? [...first].some((f) => form.has(f)) : form.has(words[k]));
    if (k > 0) while (at < t.words.length && ARTICLES.has(t.words[at].lemma) && !ARTICLES.has(words[k])) at++;
    if (at >= t.words.length) return null;
    if (wanted(t.forms[at])) at++;
    else if (wanted(t.joined[at])) at += 2;
    else return null;
    // A phrase does not run over a sentence or clause break.
    if (k < words.length - 1 && at < t.words.length && /[.;:?!]/.test(t.text.slice(t.words[at - 1].end, t.words[at].start))) return null;
  }
  return { start: t.words[i].start, end: t.words[at - 1].end, last: at - 1 };
}
