import type { Word } from '@/lib/nlp/english';
import type { Token } from '../query/tokens';

/**
 * Head nouns that name a malignant growth where the graph's disease names say "cancer" ("liver carcinoma",
 * "tumour of the larynx": liver cancer, larynx cancer). From WordNet 3.1: carcinoma is a hyponym of {cancer,
 * malignant neoplastic disease}; {tumor, tumour, neoplasm} and {malignancy, malignant neoplasm} are its near kin
 * (a benign tumour is rarely what a question about an organ's tumour means).
 */
const CANCER_HEADS: ReadonlySet<string> = new Set(['carcinoma', 'neoplasm', 'tumor', 'tumour', 'malignancy']);
/** A qualifier the graph's cancer names leave out ("malignant tumour of the liver" is liver cancer). */
const MALIGNANT = 'malignant';

/**
 * The span's words (as lemmas, and inverted: "liver tumor" for "tumour of the liver") with a cancer head noun read as
 * "cancer": "<organ> cancer", the organ's words as written. None without a word before the head.
 */
export function headNounKeys(variants: readonly (readonly string[])[]): string[] {
  const keys = new Set<string>();
  for (const words of variants) {
    if (words.length < 2 || !CANCER_HEADS.has(words[words.length - 1])) continue;
    const organ = words.slice(0, -1).filter((w) => w !== MALIGNANT);
    if (organ.length) keys.add([...organ, 'cancer'].join(' '));
  }
  return [...keys];
}

/**
 * The span with the possessive of an eponym restored where the writer left out its apostrophe ("Crohns disease",
 * "parkinsons", "Bells palsy" → "crohn s disease", "parkinson s", "bell s palsy": the names' normal form): a word
 * ending in one s (not "ss") written with a capital, or one the English lexicon does not know. None when no word is such.
 */
export function unmarkedPossessiveKeys(text: string, tokens: readonly Token[], first: number, last: number, words: readonly Word[]): string[] {
  let changed = false;
  const norms = tokens.slice(first, last + 1).map((t) => {
    if (!/^[a-z]{3,}[^s]s$/.test(t.norm)) return t.norm;
    const capital = /^\p{Lu}/u.test(text.slice(t.start, t.end));
    const word = words.find((w) => w.start === t.start);
    if (!capital && word?.known) return t.norm;
    changed = true;
    return `${t.norm.slice(0, -1)} s`;
  });
  return changed ? [norms.join(' ')] : [];
}
