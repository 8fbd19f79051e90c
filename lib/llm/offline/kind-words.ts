/**
 * Words that name a node kind ("genes", "medications", "side effects"). In a
 * question they say what kind of entity is asked for ("Which genes ...") or
 * introduce a hidden intermediate ("... treated by a compound that ...").
 */

import { KIND, type NodeKind } from './metaedges';
import { nonOverlapping } from './cues';

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
  kind: NodeKind | null;
  weak?: boolean;
}

const KIND_LEXICON: KindEntry[] = [
  { pattern: '(?:pharmacologic(?:al)?|drug|therapeutic|chemical) class(?:es)?|class(?:es)? of (?:drugs|compounds|medications)|drug famil(?:y|ies)', kind: KIND.pharmacologicClass },
  { pattern: 'side[- ]effects?|adverse (?:effects?|events?|reactions?|drug reactions?)|undesirable effects?', kind: KIND.sideEffect },
  { pattern: 'genes?|proteins?|gene products?|(?:drug|protein|molecular) targets?|targets of|receptors?|enzymes?|transporters?|kinases?|loci|locus', kind: KIND.gene },
  { pattern: 'genetic(?:s|ally)?', kind: KIND.gene, weak: true },
  {
    pattern: 'drugs?|compounds?|medications?|medicines?|pharmaceuticals?|(?:small )?molecules?|chemicals?|agents?|substances?|therapeutics?|treatments?|therapies|inhibitors?|antagonists?|agonists?',
    kind: KIND.compound,
  },
  { pattern: 'pharmacologic(?:al(?:ly)?)?', kind: KIND.compound, weak: true },
  { pattern: 'diseases?|conditions?|disorders?|illness(?:es)?|syndromes?|cancers?|tumou?rs?|malignanc(?:y|ies)|diagnos(?:is|es)|patholog(?:y|ies)|indications?', kind: KIND.disease },
  { pattern: 'symptoms?|signs?|clinical (?:features?|signs?|manifestations?)|manifestations?|phenotypes?|complaints?', kind: KIND.symptom },
  { pattern: 'pathways?|signal(?:l)?ing cascades?', kind: KIND.pathway },
  {
    pattern: 'tissues?|organs?|anatomy|anatomical (?:structures?|sites?|entit(?:y|ies)|locations?|parts?)|body (?:parts?|sites?)|glands?',
    kind: KIND.anatomy,
  },
  { pattern: 'biological process(?:es)?', kind: KIND.biologicalProcess },
  { pattern: 'cellular components?|(?:subcellular )?compartments?|organelles?', kind: KIND.cellularComponent },
  { pattern: 'molecular functions?', kind: KIND.molecularFunction },
  { pattern: '(?:gene|protein) (?:expression|products? levels?)', kind: null },
];

const PATTERNS = KIND_LEXICON.map((entry) => ({
  ...entry,
  regex: new RegExp(`(?<![\\p{L}\\p{N}])(?:${entry.pattern})(?![\\p{L}\\p{N}])`, 'giu'),
}));

/** The head noun decides: "targets of" and "classes of drugs" read by their first noun. */
function isPlural(phrase: string): boolean {
  const head = (phrase.replace(/\s+of(?:\s.*)?$/i, '').split(/[\s-]+/).at(-1) ?? '').toLowerCase();
  return head === 'loci' || (head.endsWith('s') && !/(?:ss|us|is)$/.test(head));
}

/** Kind words in the text, non-overlapping, in text order. */
export function findKindWords(text: string): KindWord[] {
  const found: (Omit<KindWord, 'kind'> & { kind: NodeKind | null })[] = [];
  for (const entry of PATTERNS) {
    for (const m of text.matchAll(entry.regex)) {
      found.push({ phrase: m[0], kind: entry.kind, start: m.index, end: m.index + m[0].length, plural: isPlural(m[0]), weak: !!entry.weak });
    }
  }
  return nonOverlapping(found).filter((w): w is KindWord => w.kind !== null);
}
