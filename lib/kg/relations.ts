/**
 * What a graph's node kinds and metaedges mean, read from its metagraph rather
 * than from a table of one graph's codes. A kind is matched to a concept by
 * its name ("Gene" and "Gene/Protein" are both genes; "Compound" and "Drug"
 * both compounds); a metaedge to a relation sense by its verb or display
 * relation ("treats" and "indication" both treat; "binds" and "target" both
 * bind). The sense gives the English clauses, ReGraM's relation category and
 * the question domain; a metaedge whose verb no sense reads keeps its own verb.
 */

import type { KindConcept } from '@/lib/reading/concepts';
import { senses, verbKey, type SenseRecord } from '@/lib/reading/senses';
import type { RelationCategory } from './metaedge-categories';

export type { KindConcept };

interface ConceptDef {
  concept: KindConcept;
  /** Its name when no graph is loaded. */
  label: string;
  /** Kind names that mean it. */
  names: RegExp;
  /** A noun other than the kind's own name ("anatomical structure" for Anatomy). */
  noun?: [one: string, many: string];
}

/** In this order: metaedges are listed by their agent's concept, then the other end's. */
const CONCEPTS: readonly ConceptDef[] = [
  { concept: 'compound', label: 'Compound', names: /\b(?:compounds?|drugs?|chemicals?)\b/i },
  { concept: 'pharmacologicClass', label: 'Pharmacologic Class', names: /\bclass(?:es)?\b/i },
  { concept: 'disease', label: 'Disease', names: /\bdiseases?\b/i },
  { concept: 'anatomy', label: 'Anatomy', names: /\b(?:anatomy|tissues?)\b/i, noun: ['anatomical structure', 'anatomical structures'] },
  { concept: 'gene', label: 'Gene', names: /\b(?:genes?|proteins?)\b/i },
  { concept: 'pathway', label: 'Pathway', names: /\bpathways?\b/i },
  { concept: 'biologicalProcess', label: 'Biological Process', names: /\bbiological[ _]process(?:es)?\b/i },
  { concept: 'cellularComponent', label: 'Cellular Component', names: /\bcellular[ _]components?\b/i },
  { concept: 'molecularFunction', label: 'Molecular Function', names: /\bmolecular[ _]functions?\b/i },
  { concept: 'symptom', label: 'Symptom', names: /\b(?:symptoms?|phenotypes?)\b/i },
  { concept: 'sideEffect', label: 'Side Effect', names: /\beffects?\b/i },
  { concept: 'exposure', label: 'Exposure', names: /\bexposures?\b/i },
];

/** Kinds compare loosely: evidence may spell "SideEffect" or "side effect". */
export function sameKind(a: string, b: string): boolean {
  return a.replace(/[^a-z]/gi, '').toLowerCase() === b.replace(/[^a-z]/gi, '').toLowerCase();
}

/** The concepts a kind name means ("Effect/Phenotype": symptom and side effect). */
export function conceptsOf(kind: string): KindConcept[] {
  return CONCEPTS.filter((c) => c.names.test(kind)).map((c) => c.concept);
}

export function isConcept(kind: string, concept: KindConcept): boolean {
  return conceptsOf(kind).includes(concept);
}

/** Of `kinds` (a loaded graph's), the one meaning `concept`; with no kinds given, the concept's own label. */
export function kindFor(concept: KindConcept, kinds: readonly string[] | null): string | null {
  const def = CONCEPTS.find((c) => c.concept === concept)!;
  if (!kinds) return def.label;
  return kinds.find((k) => sameKind(k, def.label)) ?? kinds.find((k) => def.names.test(k)) ?? null;
}

function conceptRank(kind: string): number {
  const i = CONCEPTS.findIndex((c) => c.names.test(kind));
  return i < 0 ? CONCEPTS.length : i;
}

/** "gene", "genes"; "anatomical structures"; "gene/protein", "genes/proteins". */
export function kindNoun(kind: string, plural = false): string {
  const special = CONCEPTS.find((c) => c.noun && c.names.test(kind))?.noun;
  if (special) return special[plural ? 1 : 0];
  const noun = kind.replace(/_/g, ' ').toLowerCase();
  return plural ? noun.split('/').map(pluralNoun).join('/') : noun;
}

function pluralNoun(noun: string): string {
  if (/(?:s|x|z|ch|sh)$/.test(noun)) return `${noun}es`;
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  return `${noun}s`;
}

export type Domain = 'GENE_PROTEIN' | 'DRUG_THERAPY' | 'DISEASE_SYMPTOM' | 'PATHWAY_METABOLISM' | 'INTEGRATED';

/** The domain a kind belongs to (ReGraM's question typing). */
export function kindDomain(kind: string): Domain | null {
  const concepts = conceptsOf(kind);
  const has = (...cs: KindConcept[]) => cs.some((c) => concepts.includes(c));
  if (has('gene')) return 'GENE_PROTEIN';
  if (has('compound', 'pharmacologicClass')) return 'DRUG_THERAPY';
  if (has('disease', 'symptom', 'sideEffect', 'anatomy', 'exposure')) return 'DISEASE_SYMPTOM';
  if (has('pathway', 'biologicalProcess', 'cellularComponent', 'molecularFunction')) return 'PATHWAY_METABOLISM';
  return null;
}

const GENE_SETS: KindConcept[] = ['pathway', 'biologicalProcess', 'cellularComponent', 'molecularFunction'];

interface Ends {
  agent: string;
  other: string;
}

/** A metaedge as the metagraph stores it. */
export interface MetaedgeRow {
  abbr: string;
  sourceKind: string;
  verb: string;
  targetKind: string;
  directed: boolean;
}

/** A metaedge with its reading: which kinds it joins, its sense, and how to say it from either end. */
export interface MetaedgeInfo {
  abbr: string;
  source: string;
  target: string;
  /** Source and target mean different things (Gene → regulates → Gene). */
  directed: boolean;
  /** The metagraph's verb ("treats", "indication"). */
  verb: string;
  /** The sense id ("treat"), or null for a verb no sense reads. */
  sense: string | null;
  /** Clause with the source as grammatical subject, `{x}` the target: "treat {x}". */
  sourceClause: string;
  /** Clause with the target as grammatical subject, `{x}` the source: "are treated by {x}". */
  targetClause: string;
  /** Third person singular statements from the source and from the target ("treats", "is treated by"). */
  forward: string;
  backward: string;
  category: RelationCategory | null;
  domain: Domain | null;
  /** The end that is the subject of the active clause (the sense's agent; the source when the sense names none). */
  agentEnd: 'source' | 'target';
}

function matches(sense: SenseRecord, m: MetaedgeRow): boolean {
  if (!sense.verbs.some((v) => verbKey(v) === verbKey(m.verb))) return false;
  if (!sense.ends) return true;
  const [a, b] = sense.ends;
  const is = (kind: string, cs: KindConcept[]) => cs.some((c) => isConcept(kind, c));
  return (is(m.sourceKind, a) && is(m.targetKind, b)) || (is(m.sourceKind, b) && is(m.targetKind, a));
}

/** A sense bound to particular ends is tried before the senses any ends may have (lib/reading/senses.ts). */
export function senseOf(m: MetaedgeRow): SenseRecord | null {
  const all = senses();
  return all.find((s) => s.ends && matches(s, m)) ?? all.find((s) => !s.ends && matches(s, m)) ?? null;
}

/** ReGraM's category for a metaedge, from its verb. */
export function categoryOf(m: MetaedgeRow): RelationCategory | null {
  return senseOf(m)?.category ?? null;
}

/** Reads one metaedge. */
export function readMetaedge(m: MetaedgeRow): MetaedgeInfo {
  return reading(m).info;
}

function reading(m: MetaedgeRow): { info: MetaedgeInfo; swapped: boolean } {
  const sense = senseOf(m);
  const base = {
    abbr: m.abbr,
    source: m.sourceKind,
    target: m.targetKind,
    directed: m.directed,
    verb: m.verb,
    sense: sense?.id ?? null,
    category: sense?.category ?? null,
    domain: metaedgeDomain(m),
  };
  if (!sense) {
    const clause = `are linked by "${m.verb}" to {x}`;
    return {
      info: {
        ...base,
        sourceClause: clause,
        targetClause: clause,
        forward: `is linked by "${m.verb}" to`,
        backward: `is linked by "${m.verb}" to`,
        agentEnd: 'source',
      },
      swapped: false,
    };
  }
  const swapped = !!sense.agent && !agentIs(m.sourceKind, sense) && agentIs(m.targetKind, sense);
  const ends: Ends = swapped ? { agent: m.targetKind, other: m.sourceKind } : { agent: m.sourceKind, other: m.targetKind };
  const passive = passiveClause(sense, ends);
  const statement = sense.statement ?? singular(passive.replace('{x}', '').trim());
  const active = sense.active;
  const activeStatement = singular(active.replace('{x}', '').trim());
  const info = swapped
    ? { ...base, sourceClause: passive, targetClause: active, forward: statement, backward: activeStatement, agentEnd: 'target' as const }
    : { ...base, sourceClause: active, targetClause: passive, forward: activeStatement, backward: statement, agentEnd: 'source' as const };
  return { info, swapped };
}

function agentIs(kind: string, sense: SenseRecord): boolean {
  return !!sense.agent?.some((c) => isConcept(kind, c));
}

/** The first passive case whose agent and other end fit. */
function passiveClause(sense: SenseRecord, ends: Ends): string {
  if (typeof sense.passive === 'string') return sense.passive;
  const fits = (kind: string, cs?: KindConcept[]) => !cs || cs.some((c) => isConcept(kind, c));
  return (sense.passive.find((p) => fits(ends.agent, p.agent) && fits(ends.other, p.other)) ?? sense.passive.at(-1)!).clause;
}

/**
 * The question domain a metaedge's relations belong to: phenotypes and side
 * effects are clinical, gene sets are pathway biology, a compound's relations
 * are therapy, a disease's clinical, the rest (genes, tissues) gene biology.
 */
function metaedgeDomain(m: MetaedgeRow): Domain {
  const concepts = [...conceptsOf(m.sourceKind), ...conceptsOf(m.targetKind)];
  const has = (...cs: KindConcept[]) => cs.some((c) => concepts.includes(c));
  if (has('symptom', 'sideEffect')) return 'DISEASE_SYMPTOM';
  if (has(...GENE_SETS)) return 'PATHWAY_METABOLISM';
  if (has('compound', 'pharmacologicClass')) return 'DRUG_THERAPY';
  if (has('disease', 'exposure')) return 'DISEASE_SYMPTOM';
  return 'GENE_PROTEIN';
}

/** "are bound by" → "is bound by", "covary with" → "covaries with", "express" → "expresses". */
export function singular(phrase: string): string {
  const [verb, ...rest] = phrase.split(' ');
  const one = verb === 'are' ? 'is' : /[^aeiou]y$/.test(verb) ? `${verb.slice(0, -1)}ies` : /(?:ss|sh|ch|x)$/.test(verb) ? `${verb}es` : `${verb}s`;
  return [one, ...rest].join(' ');
}

/** Metaedges in reading order: by their agent's concept, then the sense order, then the other end's concept. */
export function readMetagraph(rows: readonly MetaedgeRow[]): MetaedgeInfo[] {
  const read = rows.map((row) => {
    const { info, swapped } = reading(row);
    const all = senses();
    const sense = all.findIndex((s) => s.id === info.sense);
    const [agent, other] = swapped ? [info.target, info.source] : [info.source, info.target];
    return { info, key: [conceptRank(agent), sense < 0 ? all.length : sense, conceptRank(other)] };
  });
  read.sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.key[2] - b.key[2] || (a.info.abbr < b.info.abbr ? -1 : 1));
  return read.map((r) => r.info);
}
