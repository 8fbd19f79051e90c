/**
 * English word analysis for question reading and entity linking: part of
 * speech, lemma (which also folds British spelling: "utilised" → "utilize",
 * "tumours" → "tumor", "haemoglobin" → "hemoglobin") and whether a word is in
 * the English lexicon. wink-nlp with its shipped English web model does the
 * work: it installs from npm with no download at run time, and tags a question
 * in well under a millisecond.
 */

import winkNLP from 'wink-nlp';
import { BoundedMemo } from '@/lib/base/memo';
import { loadEnglishModel } from './english-model';

export type PartOfSpeech =
  'ADJ' | 'ADP' | 'ADV' | 'AUX' | 'CCONJ' | 'DET' | 'INTJ' | 'NOUN' | 'NUM' | 'PART' | 'PRON' | 'PROPN' | 'PUNCT' | 'SCONJ' | 'SYM' | 'VERB' | 'X' | 'SPACE';

export interface Word {
  /** As written. */
  text: string;
  start: number;
  end: number;
  pos: PartOfSpeech;
  /** Lower case, American spelling, base form. */
  lemma: string;
  /** The model's lexicon knows the word: an English word, not a coined symbol such as "lilrb2" or "mtr". */
  known: boolean;
}

type Nlp = ReturnType<typeof winkNLP>;

/**
 * The English model, loaded when a text is first analysed (./english-model.ts): loading it costs a tenth of a second or
 * more of CPU, which a command that reads no text (`hopscope sets list`) would otherwise spend starting.
 */
let english: { nlp: Nlp; its: Nlp['its']; firstUnknownId: number } | null = null;
export function englishModel(): NonNullable<typeof english> {
  if (english) return english;
  const nlp = winkNLP(loadEnglishModel(), ['sbd', 'pos']);
  const its = nlp.its;
  // The lexicon's words have the lowest ids; a word it does not know gets the next free id when first read.
  const firstUnknownId = nlp.readDoc('qxzqvjkw').tokens().out(its.uniqueId)[0] as unknown as number;
  return (english = { nlp, its, firstUnknownId });
}

/** Texts analysed before: linking and the reader analyse the same question, options and queries run after run. */
const analysed = new BoundedMemo<string, readonly Word[]>(5_000);

/** The words of a text with offsets; punctuation is left out. Shared with every caller that analyses the same text. */
export function analyse(text: string): readonly Word[] {
  return analysed.get(text, analyseNow);
}

function analyseNow(text: string): Word[] {
  const { nlp, its, firstUnknownId } = englishModel();
  const tokens = nlp.readDoc(text).tokens();
  const values = tokens.out(its.value) as string[];
  const pos = tokens.out(its.pos) as PartOfSpeech[];
  // its.lemma is typed for the model addon it reads; it returns a string per token like its.value,
  // or nothing for a contraction written without its apostrophe ("doesnt"): the word is its own lemma then.
  const lemmas = tokens.out(its.lemma as unknown as typeof its.value) as string[];
  // Lexicon look-ups in lower case: "Graph" opening a sentence is the English word "graph".
  const lower = nlp.readDoc(text.toLowerCase()).tokens().out(its.uniqueId) as unknown as number[];
  const ids = lower.length === values.length ? lower : (tokens.out(its.uniqueId) as unknown as number[]);
  const words: Word[] = [];
  let at = 0;
  values.forEach((value, i) => {
    const start = text.indexOf(value, at);
    if (start < 0) return; // an expanded contraction ("can't" → "ca", "n't") keeps its place at the next token
    at = start + value.length;
    if (!/[\p{L}\p{N}]/u.test(value)) return;
    words.push({ text: value, start, end: at, pos: pos[i], lemma: americanSpelling((lemmas[i] ?? value).toLowerCase()), known: ids[i] < firstUnknownId });
  });
  return words;
}

/**
 * The American spelling of a lower-case word, by the regular British
 * patterns the model's lemmas leave alone: ae/oe ("leukaemia", "oesophagus",
 * "diarrhoea", "coeliac"), -our ("tumour"), -ise/-isation ("immunised"),
 * -yse ("analyse"), -tre ("fibre"), -ogue ("analogue").
 */
export function americanSpelling(word: string): string {
  if (word.length < 5) return word;
  return word
    .replace(/(?<=[a-z])ae|(?<=rh|pn|^c|^f)oe|^oe(?=[a-z]{3})/g, 'e')
    .replace(/our(s?)$/, 'or$1')
    .replace(/is(e|es|ed|ing|ation|ations)$/, 'iz$1')
    .replace(/ys(e|es|ed|ing)$/, 'yz$1')
    .replace(/([tb])re(s?)$/, '$1er$2')
    .replace(/ogue(s?)$/, 'og$1');
}
