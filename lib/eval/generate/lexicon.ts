import type { DirectionFilter, KgNode } from '@/lib/kg';

/**
 * The words generated questions are written with: a noun per node kind, how a
 * node is named in a sentence, and a verb phrase per Hetionet metaedge in both
 * reading directions. Hand-written because Hetionet's own verbs ("associates",
 * "participates") only read well from the source side.
 */

const KIND_NOUNS: Record<string, [one: string, many: string]> = {
  Anatomy: ['anatomical structure', 'anatomical structures'],
  'Biological Process': ['biological process', 'biological processes'],
  'Cellular Component': ['cellular component', 'cellular components'],
  Compound: ['compound', 'compounds'],
  Disease: ['disease', 'diseases'],
  Gene: ['gene', 'genes'],
  'Molecular Function': ['molecular function', 'molecular functions'],
  Pathway: ['pathway', 'pathways'],
  'Pharmacologic Class': ['pharmacologic class', 'pharmacologic classes'],
  'Side Effect': ['side effect', 'side effects'],
  Symptom: ['symptom', 'symptoms'],
};

export function kindNoun(kind: string, plural = false): string {
  const nouns = KIND_NOUNS[kind] ?? [kind.toLowerCase(), `${kind.toLowerCase()}s`];
  return nouns[plural ? 1 : 0];
}

/** "a gene", "an anatomical structure". */
export function aKind(kind: string): string {
  const noun = kindNoun(kind);
  return `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
}

/**
 * Diseases and compounds read well by name alone; anatomy names are common
 * nouns ("the liver"); gene symbols, pathway and class names need their kind
 * in front to be understood ("the gene BRCA1").
 */
type MentionStyle = 'bare' | 'the' | 'typed';
const MENTION_STYLE: Record<string, MentionStyle> = { Disease: 'bare', Compound: 'bare', Anatomy: 'the' };

export function mention(node: KgNode): string {
  const style = MENTION_STYLE[node.kind] ?? 'typed';
  if (style === 'bare') return node.name;
  return style === 'the' ? `the ${node.name}` : `the ${kindNoun(node.kind)} ${node.name}`;
}

/** Two nodes of one kind: "the genes BRCA1 and TP53", "the liver and the heart", "asthma and psoriasis". */
export function mentionPair(a: KgNode, b: KgNode): string {
  const style = MENTION_STYLE[a.kind] ?? 'typed';
  if (style === 'typed') return `the ${kindNoun(a.kind, true)} ${a.name} and ${b.name}`;
  return `${mention(a)} and ${mention(b)}`;
}

/** Verb phrases (third person singular) reading a metaedge from its source and from its target. */
const RELATIONS: Record<string, { forward: string; backward: string }> = {
  AdG: { forward: 'downregulates', backward: 'is downregulated in' },
  AeG: { forward: 'expresses', backward: 'is expressed in' },
  AuG: { forward: 'upregulates', backward: 'is upregulated in' },
  CbG: { forward: 'binds', backward: 'is bound by' },
  CcSE: { forward: 'causes', backward: 'is caused by' },
  CdG: { forward: 'downregulates', backward: 'is downregulated by' },
  CpD: { forward: 'palliates', backward: 'is palliated by' },
  CrC: { forward: 'resembles', backward: 'resembles' },
  CtD: { forward: 'treats', backward: 'is treated by' },
  CuG: { forward: 'upregulates', backward: 'is upregulated by' },
  DaG: { forward: 'is associated with', backward: 'is associated with' },
  DdG: { forward: 'downregulates', backward: 'is downregulated in' },
  DlA: { forward: 'localizes to', backward: 'is a site of' },
  DpS: { forward: 'presents with', backward: 'occurs in' },
  DrD: { forward: 'resembles', backward: 'resembles' },
  DuG: { forward: 'upregulates', backward: 'is upregulated in' },
  GcG: { forward: 'covaries with', backward: 'covaries with' },
  GiG: { forward: 'interacts with', backward: 'interacts with' },
  GpBP: { forward: 'participates in', backward: 'involves' },
  GpCC: { forward: 'participates in', backward: 'involves' },
  GpMF: { forward: 'participates in', backward: 'involves' },
  GpPW: { forward: 'participates in', backward: 'involves' },
  'Gr>G': { forward: 'regulates', backward: 'is regulated by' },
  PCiC: { forward: 'includes', backward: 'belongs to' },
};

export function hasPhrasing(metaedge: string): boolean {
  return metaedge in RELATIONS;
}

/**
 * The verb phrase for walking `metaedge` from a node: 'out' when that node is the
 * stored edge's source. Symmetric metaedges ('both') read the same either way.
 */
export function relationPhrase(metaedge: string, from: DirectionFilter, plural = false): string {
  const relation = RELATIONS[metaedge];
  if (!relation) throw new Error(`no phrasing for metaedge ${metaedge}`);
  const singular = from === 'in' ? relation.backward : relation.forward;
  return plural ? pluralVerb(singular) : singular;
}

export function flip(direction: DirectionFilter): DirectionFilter {
  return direction === 'out' ? 'in' : direction === 'in' ? 'out' : 'both';
}

/** "is bound by" → "are bound by", "covaries with" → "covary with", "expresses" → "express", "treats" → "treat". */
export function pluralVerb(phrase: string): string {
  const [verb, ...rest] = phrase.split(' ');
  const plural =
    verb === 'is' ? 'are' : verb.endsWith('ies') ? `${verb.slice(0, -3)}y` : /(ss|sh|ch|x)es$/.test(verb) ? verb.slice(0, -2) : verb.replace(/s$/, '');
  return [plural, ...rest].join(' ');
}

/** "are associated with" → "are both associated with"; "treat" → "both treat". */
export function bothPlural(phrase: string): string {
  return phrase.startsWith('are ') ? `are both ${phrase.slice(4)}` : `both ${phrase}`;
}

/** Capitalises the first letter and collapses stray spaces: templates are filled with free text. */
export function sentence(text: string): string {
  const tidy = text.replace(/\s+/g, ' ').trim();
  return tidy.charAt(0).toUpperCase() + tidy.slice(1);
}
