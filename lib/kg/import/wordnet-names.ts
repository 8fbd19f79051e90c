import { americanSpelling } from '@/lib/nlp/english';
import { normaliseName } from '../normalise';

/** A noun synset as wordnet.ts reads it from data.noun. */
export interface Synset {
  lexicon: string;
  lemmas: string[];
  hypernyms: string[];
  /** The definition, as written after `|`. */
  gloss: string;
}

/** noun.state (conditions) and noun.body: a gloss read as a name must speak of one of them ("loss of hair"). */
const STATE_FILE = '26';
const BODY_FILE = '08';
/** Function words a short gloss may hold besides its two or three words ("inflammation of the gums"). */
const GLOSS_FUNCTION_WORDS: ReadonlySet<string> = new Set(['of', 'the', 'a', 'an', 'in', 'on', 'to']);
/** Heads that name a class of conditions or a manner of speaking, not one condition ("acute blood disorder", "kind of pain"). */
const GENERIC_GLOSS_HEADS: ReadonlySet<string> = new Set([
  'disease',
  'disorder',
  'condition',
  'syndrome',
  'illness',
  'symptom',
  'kind',
  'type',
  'form',
  'sort',
]);
const MAX_GLOSS_WORDS = 3;
/** Heads that say how much or whether of what follows ("lack of vitality", "presence of protein"): the state must be in what follows. */
const MEASURE_HEADS: ReadonlySet<string> = new Set(['lack', 'absence', 'presence', 'loss', 'excess', 'state', 'deficiency', 'inability', 'failure']);

/**
 * A name in the other side's spelling, word by word (lib/nlp/english americanSpelling: "Oesophageal haemorrhage" →
 * "esophageal hemorrhage"), or null where no word changes. The linker folds a question's nouns the same way, so
 * a British name and its American writing meet in one key.
 */
export function spellingVariant(normalised: string): string | null {
  const american = normalised
    .split(' ')
    .map((w) => americanSpelling(w))
    .join(' ');
  return american === normalised ? null : american;
}

/**
 * A condition's name of several words with one word replaced by a synonym from that word's first noun sense, where
 * that sense is a state (noun.state) and is the synonym's first noun sense too, a synonym of one word that WordNet
 * has as no verb or adjective (`otherWords`: "harm", "lack" stay words of their own): "Gastrointestinal haemorrhage" →
 * "gastrointestinal bleeding", "Upper gastrointestinal hemorrhage" → "upper gastrointestinal bleeding". One-word names
 * take their synonyms as whole names already (WORDNET_SYNONYM); this reads the head or modifier a writer put in
 * everyday words. The name's own spelling variant is read too.
 */
export function wordSynonymNames(
  normalised: string,
  synsets: ReadonlyMap<string, Synset>,
  senses: ReadonlyMap<string, string[]>,
  otherWords: ReadonlySet<string>,
): string[] {
  const out = new Set<string>();
  for (const name of [normalised, spellingVariant(normalised) ?? normalised]) {
    const words = name.split(' ');
    if (words.length < 2) continue;
    words.forEach((word, i) => {
      const offset = senses.get(word)?.[0];
      const synset = offset ? synsets.get(offset) : undefined;
      if (!synset || synset.lexicon !== STATE_FILE || word.length < 4) return;
      for (const lemma of synset.lemmas) {
        const other = lemma.toLowerCase();
        if (!/^[a-z]{4,}$/.test(lemma) || other === word || otherWords.has(other) || senses.get(other)?.[0] !== offset || words.includes(other)) continue;
        out.add([...words.slice(0, i), other, ...words.slice(i + 1)].join(' '));
      }
    });
  }
  out.delete(normalised);
  return [...out];
}

/**
 * A synset's definition read as a name people write, where it is one: two or three words (function words aside),
 * before any ";" or "(", one of them a state or part of the body in its first noun sense (not a head of measure:
 * "lack of vitality" is no condition), and not headed by a class word ("loss of hair" → alopecia, "patchy baldness" → alopecia areata, "inflammation of the gums" → gingivitis; not
 * "acute blood disorder", "second stage", "lack of vitality"). A gloss "<head> of (the) <modifier>" (one word for the head) is also written
 * "<modifier> <head>" ("hair loss", "gum inflammation"), as people put it. A definition is looser than a synonym.
 */
export function glossNames(synset: Synset, synsets: ReadonlyMap<string, Synset>, senses: ReadonlyMap<string, string[]>): string[] {
  const definition = synset.gloss
    .split(/[;(]/)[0]
    .trim()
    .replace(/^(?:a|an|the)\s+/i, '');
  if (!/^[a-z][a-z -]*[a-z]$/.test(definition)) return [];
  const words = definition.split(/\s+/);
  const content = words.filter((w) => !GLOSS_FUNCTION_WORDS.has(w));
  if (content.length < 2 || content.length > MAX_GLOSS_WORDS || words.length > MAX_GLOSS_WORDS + 3) return [];
  const of = words.indexOf('of');
  const head = of > 0 ? words[of - 1] : content[content.length - 1];
  if (GENERIC_GLOSS_HEADS.has(head)) return [];
  const lexiconOf = (w: string) => {
    const offset = senses.get(w)?.[0] ?? senses.get(w.replace(/s$/, ''))?.[0];
    return offset ? synsets.get(offset)?.lexicon : undefined;
  };
  const telling = MEASURE_HEADS.has(head) ? content.filter((w) => w !== head) : content;
  if (!telling.some((w) => [STATE_FILE, BODY_FILE].includes(lexiconOf(w) ?? ''))) return [];
  const names = [normaliseName(definition)];
  const modifier = words.slice(of + 1).filter((w) => w !== 'the' && w !== 'a' && w !== 'an');
  if (of === 1 && modifier.length >= 1 && modifier.length <= 2 && modifier.every((w) => !GLOSS_FUNCTION_WORDS.has(w)))
    names.push(normaliseName([...modifier, ...words.slice(0, of)].join(' ')));
  return names;
}
