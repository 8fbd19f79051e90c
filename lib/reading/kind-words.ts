/**
 * Words that name a node kind ("genes", "medications", "side effects"). In a
 * question they say what kind of entity is asked for ("Which genes ...") or
 * introduce a hidden intermediate ("... treated by a compound that ...").
 * The nouns are each concept's record in ./concepts.ts, found by word forms
 * (lemmas and regular suffixes, ./phrases.ts), so "illnesses", "tumours" and
 * "diagnoses" need no pattern of their own.
 */

import { kindOf, type NodeKind } from '@/lib/llm/offline/metaedges';
import { KIND_CONCEPTS, KIND_WORDS, type KindConcept } from './concepts';
import { americanSpelling } from '@/lib/nlp/english';
import { analyseText, matchAt, type AnalysedText } from './phrases';
import { nonOverlapping } from './relation-cues';

export interface KindWord {
  phrase: string;
  kind: NodeKind;
  start: number;
  end: number;
  plural: boolean;
  /** An adverb or adjective ("genetically") that hints at a kind but names no entity. */
  weak: boolean;
  /** A pronoun taking up a set its own sentence named before it: that set's word (./discourse.ts). */
  refers?: { start: number; end: number };
}

interface KindPhrase {
  words: string[];
  /** null: a phrase that contains a kind noun but names no entity ("gene expression"). */
  concept: KindConcept | null;
  weak: boolean;
}

/** Phrases that contain a kind noun but name no entity. */
const NAMING_NO_ENTITY = ['gene expression', 'protein expression', 'gene product level', 'protein product level'];

// "Where in the body …", "Where … located": a question about a place asks for an anatomical structure, however many.
const WHERE = /(?<![\p{L}\p{N}])where(?= (?:in the body|anatomically|is|are|does|do|did)\b)(?: in the body| anatomically)?(?![\p{L}\p{N}])/giu;

const PHRASES: KindPhrase[] = [
  ...KIND_CONCEPTS.flatMap((concept) => [
    ...KIND_WORDS[concept].nouns.map((text) => ({ words: text.split(' '), concept, weak: false })),
    ...KIND_WORDS[concept].hints.map((text) => ({ words: text.split(' '), concept, weak: true })),
  ]),
  ...NAMING_NO_ENTITY.map((text) => ({ words: text.split(' '), concept: null, weak: false })),
];

const BY_FIRST = new Map<string, KindPhrase[]>();
for (const p of PHRASES) BY_FIRST.set(p.words[0], [...(BY_FIRST.get(p.words[0]) ?? []), p]);

/** The head noun decides: "targets of" and "classes of drugs" read by their first noun; the clinical shorthands "sx", "tx", "dx" stand for either number and are read as lists. */
function isPlural(phrase: string): boolean {
  const head = (
    phrase
      .replace(/\s+of(?:\s.*)?$/i, '')
      .split(/[\s-]+/)
      .at(-1) ?? ''
  ).toLowerCase();
  return /^where\b/i.test(phrase) || head === 'loci' || /^(?:[std]x|dz)$/.test(head) || (head.endsWith('s') && !/(?:ss|us|is)$/.test(head));
}

// After these a verb takes its bare form ("to treat", "do … bind", "can cause").
const BARE_VERB_AFTER = new Set(['to', 'do', 'can', 'could', 'will', 'would', 'should', 'may', 'might', 'must']);

function inflectedAfterTo(t: AnalysedText, i: number): boolean {
  const word = t.words[i];
  return i > 0 && BARE_VERB_AFTER.has(t.words[i - 1].lemma) && word.text.toLowerCase() !== word.lemma.toLowerCase();
}

/** Kind words in the text naming a kind the loaded graph has, non-overlapping, in text order. */
export function findKindWords(text: string | AnalysedText): KindWord[] {
  const t = typeof text === 'string' ? analyseText(text) : text;
  const found: (Omit<KindWord, 'kind'> & { kind: NodeKind | null })[] = [];
  const add = (concept: KindConcept | null, start: number, end: number, weak: boolean) => {
    const kind = concept && kindOf(concept);
    if (concept && !kind) return;
    const phrase = t.text.slice(start, end);
    found.push({ phrase, kind: kind ?? null, start, end, plural: isPlural(phrase), weak });
  };
  for (let i = 0; i < t.words.length; i++) {
    const candidates = new Set<KindPhrase>();
    for (const forms of [t.forms[i], t.joined[i]]) for (const f of forms ?? []) for (const p of BY_FIRST.get(f) ?? []) candidates.add(p);
    for (const p of candidates) {
      // A one-word kind noun used as a verb ("compounded", "signed") names no kind; after "to" or an auxiliary a verb takes its bare
      // form, so an inflected word there is the noun the tagger misread ("similar to drugs for gout", "what do drugs for gout cause").
      if (p.words.length === 1 && t.words[i].pos === 'VERB' && !inflectedAfterTo(t, i)) continue;
      // A shorthand made a participle ("tx'd") is the verb.
      if (/['’]d$/i.test(t.words[i].text)) continue;
      // A modifier before the head noun is not inflected: "drugs target" is no "drug target".
      if (p.words.length > 1 && !p.words.includes('of') && americanSpelling(t.words[i].text.toLowerCase()) !== p.words[0]) continue;
      const m = matchAt(t, i, p.words, new Set([p.words[0]]));
      if (m) add(p.concept, m.start, m.end, p.weak);
    }
  }
  for (const m of t.text.matchAll(WHERE)) add('anatomy', m.index, m.index + m[0].length, false);
  return nonOverlapping(found).filter((w): w is KindWord => w.kind !== null);
}
