import type { DirectionFilter, KgNode } from '@/lib/kg';
import { isConcept, kindNoun } from '@/lib/kg/relations';
import { metaedgeInfo } from '@/lib/llm/offline/metaedges';

/**
 * The words generated questions are written with: a noun per node kind, how a
 * node is named in a sentence, and a verb phrase per metaedge in both reading
 * directions, all read from the loaded metagraph (lib/kg/relations.ts), because
 * a graph's own verbs ("associates", "indication") only read well from one side.
 */

export { kindNoun };

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
function mentionStyle(kind: string): MentionStyle {
  if (isConcept(kind, 'disease') || isConcept(kind, 'compound')) return 'bare';
  return isConcept(kind, 'anatomy') ? 'the' : 'typed';
}

export function mention(node: KgNode): string {
  const style = mentionStyle(node.kind);
  if (style === 'bare') return node.name;
  return style === 'the' ? `the ${node.name}` : `the ${kindNoun(node.kind)} ${node.name}`;
}

/** Two nodes of one kind: "the genes BRCA1 and TP53", "the liver and the heart", "asthma and psoriasis". */
export function mentionPair(a: KgNode, b: KgNode): string {
  const style = mentionStyle(a.kind);
  if (style === 'typed') return `the ${kindNoun(a.kind, true)} ${a.name} and ${b.name}`;
  return `${mention(a)} and ${mention(b)}`;
}

export function hasPhrasing(metaedge: string): boolean {
  return !!metaedgeInfo(metaedge)?.sense;
}

/**
 * The verb phrase for walking `metaedge` from a node: 'out' when that node is the
 * stored edge's source. Symmetric metaedges ('both') read the same either way.
 */
export function relationPhrase(metaedge: string, from: DirectionFilter, plural = false): string {
  const relation = metaedgeInfo(metaedge);
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
