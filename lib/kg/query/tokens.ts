import { normaliseName } from '../normalise';

/** A word of the linked text: a run of letters, digits and marks, with its offsets and normalised form. */
export interface Token {
  start: number;
  end: number;
  /** normaliseName of the word; may hold a space ("HIF1α" → "hif1 alpha"). */
  norm: string;
}

/**
 * Words such that the normalised form of any span of consecutive tokens is their
 * norms joined by single spaces: exactly normaliseName of the span's text, since
 * whatever lies between two tokens normalises to one space.
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}\p{M}]+/gu)) {
    const norm = normaliseName(m[0]);
    if (norm) tokens.push({ start: m.index, end: m.index + m[0].length, norm });
  }
  return tokens;
}

/** Function words: never the first or last word of a linked mention. "s" is the possessive's remainder. */
export const FUNCTION_WORDS = new Set(
  `a an the of in on at to for from by with without within and or nor not no but both either neither as is are was were be been
   being do does did has have had which what who whom whose where when why how that this these those it its their them they there
   than then also any all each every some many much more most other others same such only can could may might must should would
   will shall into onto between among via per s i we you he she me us my our your his her if so very about against following
   given name list well`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * Question vocabulary (kind nouns, relation verbs): fine inside a name ("Crohn's
 * disease") but never a mention on its own, so a span made only of these and
 * function words is not looked up.
 */
export const QUESTION_WORDS = new Set(
  `gene genes protein proteins compound compounds drug drugs medication medications disease diseases disorder disorders condition
   conditions symptom symptoms side effect effects pathway pathways anatomy tissue tissues organ organs node nodes entity entities
   associated association associates associate treat treats treated treating treatment treatments bind binds binding bound target
   targets targeted interact interacts interacting interaction interactions express expresses expressed expression regulate
   regulates regulated upregulate upregulates upregulated downregulate downregulates downregulated cause causes caused causing
   palliate palliates palliated resemble resembles resembling localize localizes localized localise localises present presents
   participate participates participating include includes included common shared share shares number count total connected
   related linked involved known used use uses patient patients option options answer answers question type kind`
    .split(/\s+/)
    .filter(Boolean),
);

export function isFunctionWord(norm: string): boolean {
  return FUNCTION_WORDS.has(norm);
}

export function isStopword(norm: string): boolean {
  return FUNCTION_WORDS.has(norm) || QUESTION_WORDS.has(norm);
}
