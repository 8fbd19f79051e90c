/**
 * Words that name a node kind ("genes", "medications", "side effects"). In a
 * question they say what kind of entity is asked for ("Which genes ...") or
 * introduce a hidden intermediate ("... treated by a compound that ...").
 */

import { kindOf, type KindConcept, type NodeKind } from '@/lib/llm/offline/metaedges';
import { nonOverlapping } from './relation-cues';

export interface KindWord {
  phrase: string;
  kind: NodeKind;
  start: number;
  end: number;
  plural: boolean;
  /** An adverb or adjective ("genetically") that hints at a kind but names no entity. */
  weak: boolean;
}

interface KindEntry {
  pattern: string;
  /** null: a phrase that contains a kind word but names no entity ("gene expression"). */
  concept: KindConcept | null;
  weak?: boolean;
}

const KIND_LEXICON: KindEntry[] = [
  {
    pattern: '(?:pharmacologic(?:al)?|drug|therapeutic|chemical) class(?:es)?|class(?:es)? of (?:drugs|compounds|medications)|drug famil(?:y|ies)',
    concept: 'pharmacologicClass',
  },
  { pattern: 'side[- ]effects?|adverse (?:effects?|events?|reactions?|drug reactions?)|undesirable effects?|AEs?|ADRs?|SEs?', concept: 'sideEffect' },
  {
    pattern: 'genes?|proteins?|gene products?|(?:drug|protein|molecular) targets?|targets of|receptors?|enzymes?|transporters?|kinases?|loci|locus',
    concept: 'gene',
  },
  { pattern: 'genetic(?:s|ally)?', concept: 'gene', weak: true },
  {
    pattern:
      'drugs?|compounds?|medications?|medicines?|meds|pharmaceuticals?|(?:small )?molecules?|chemicals?|agents?|substances?|therapeutics?|treatments?|therapies|tx|inhibitors?|antagonists?|agonists?',
    concept: 'compound',
  },
  { pattern: 'pharmacologic(?:al(?:ly)?)?', concept: 'compound', weak: true },
  {
    pattern:
      'diseases?|conditions?|disorders?|illness(?:es)?|syndromes?|cancers?|tumou?rs?|malignanc(?:y|ies)|diagnos(?:is|es)|patholog(?:y|ies)|indications?|dx|dz',
    concept: 'disease',
  },
  { pattern: 'symptoms?|sx|signs?|clinical (?:features?|signs?|manifestations?)|manifestations?|phenotypes?|complaints?', concept: 'symptom' },
  { pattern: 'pathways?|signal(?:l)?ing cascades?', concept: 'pathway' },
  {
    // "Where in the body …", "Where … located": a question about a place asks for an anatomical structure.
    pattern:
      'tissues?|organs?|anatomy|anatomical (?:structures?|sites?|entit(?:y|ies)|locations?|parts?)|body (?:parts?|sites?)|parts? of the body|glands?|where(?= (?:in the body|anatomically|is|are|does|do|did)\\b)(?: in the body| anatomically)?',
    concept: 'anatomy',
  },
  { pattern: 'biological process(?:es)?', concept: 'biologicalProcess' },
  { pattern: 'cellular components?|(?:subcellular )?compartments?|organelles?', concept: 'cellularComponent' },
  { pattern: 'molecular functions?', concept: 'molecularFunction' },
  { pattern: '(?:environmental )?exposures?|environmental (?:factors?|agents?)|toxicants?|pollutants?', concept: 'exposure' },
  { pattern: '(?:gene|protein) (?:expression|products? levels?)', concept: null },
];

const PATTERNS = KIND_LEXICON.map((entry) => ({
  ...entry,
  regex: new RegExp(`(?<![\\p{L}\\p{N}])(?:${entry.pattern})(?![\\p{L}\\p{N}])`, 'giu'),
}));

/** The head noun decides: "targets of" and "classes of drugs" read by their first noun; the clinical shorthands "sx", "tx", "dx" stand for either number and are read as lists. */
function isPlural(phrase: string): boolean {
  const head = (
    phrase
      .replace(/\s+of(?:\s.*)?$/i, '')
      .split(/[\s-]+/)
      .at(-1) ?? ''
  ).toLowerCase();
  return head === 'loci' || /^(?:[std]x|dz)$/.test(head) || (head.endsWith('s') && !/(?:ss|us|is)$/.test(head));
}

/** Kind words in the text naming a kind the loaded graph has, non-overlapping, in text order. */
export function findKindWords(text: string): KindWord[] {
  const found: (Omit<KindWord, 'kind'> & { kind: NodeKind | null })[] = [];
  for (const entry of PATTERNS) {
    const kind = entry.concept && kindOf(entry.concept);
    if (entry.concept && !kind) continue;
    for (const m of text.matchAll(entry.regex)) {
      found.push({ phrase: m[0], kind: kind ?? null, start: m.index, end: m.index + m[0].length, plural: isPlural(m[0]), weak: !!entry.weak });
    }
  }
  return nonOverlapping(found).filter((w): w is KindWord => w.kind !== null);
}
