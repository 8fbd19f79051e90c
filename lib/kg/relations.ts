/**
 * What a graph's node kinds and metaedges mean, read from its metagraph rather
 * than from a table of one graph's codes. A kind is matched to a concept by
 * its name ("Gene" and "Gene/Protein" are both genes; "Compound" and "Drug"
 * both compounds); a metaedge to a relation sense by its verb or display
 * relation ("treats" and "indication" both treat; "binds" and "target" both
 * bind). The sense gives the English clauses, ReGraM's relation category and
 * the question domain; a metaedge whose verb no sense reads keeps its own verb.
 */

import type { RelationCategory } from './metaedge-categories';

export type KindConcept =
  | 'compound'
  | 'pharmacologicClass'
  | 'disease'
  | 'anatomy'
  | 'gene'
  | 'pathway'
  | 'biologicalProcess'
  | 'cellularComponent'
  | 'molecularFunction'
  | 'symptom'
  | 'sideEffect'
  | 'exposure';

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

/** A relation's meaning: how to read it in either direction, and what ReGraM's table calls it. */
interface Sense {
  id: string;
  /** Verbs or display relations that mean it. */
  verbs: RegExp;
  /** Only between these concepts (either order), when the verb alone is ambiguous ("interacts with" a pathway is participation). */
  ends?: [KindConcept[], KindConcept[]];
  /** The end that is the subject of the active clause; the metaedge's source when unset or when neither end is one. */
  agent?: KindConcept[];
  /** Plural clauses: the agent as subject, and the other end as subject; `{x}` the far end. */
  active: string;
  passive: string | ((m: Ends) => string);
  /** The passive statement generated questions use (third person singular), where it differs from the clause. */
  statement?: string | ((m: Ends) => string);
  category: RelationCategory | null;
}

interface Ends {
  agent: string;
  other: string;
}

/** Context kinds (a disease, a tissue) are the place of a regulation; an agent (a compound) its cause. */
const regulatedIn = (verb: string) => (m: Ends) => (isConcept(m.agent, 'compound') ? `are ${verb} by {x}` : `are ${verb} in {x}`);

/**
 * A metaedge takes the first sense whose verbs (and ends) match; metaedges
 * between the same two kinds are preferred in this order when a question names
 * no relation (a disease and a gene: associated first).
 */
const SENSES: readonly Sense[] = [
  { id: 'treat', verbs: /^(?:treats?|indications?)$/i, agent: ['compound'], active: 'treat {x}', passive: 'are treated by {x}', category: 'Treats' },
  { id: 'palliate', verbs: /^palliates?$/i, agent: ['compound'], active: 'palliate {x}', passive: 'are palliated by {x}', category: 'Treats' },
  { id: 'off-label', verbs: /^off[- ]label(?: use)?$/i, agent: ['compound'], active: 'are used off-label for {x}', passive: 'are treated off-label with {x}', category: 'Treats' },
  { id: 'bind', verbs: /^(?:binds?|targets?)$/i, agent: ['compound'], active: 'bind {x}', passive: 'are bound by {x}', category: 'Targets' },
  { id: 'associate', verbs: /^(?:associates?|associated with|linked to)$/i, active: 'are associated with {x}', passive: 'are associated with {x}', category: 'Associated_with' },
  { id: 'express', verbs: /^(?:express(?:es)?|expression present)$/i, agent: ['anatomy'], active: 'express {x}', passive: 'are expressed in {x}', category: 'Expressed_in' },
  { id: 'upregulate', verbs: /^upregulates?$/i, active: 'upregulate {x}', passive: regulatedIn('upregulated'), category: 'Regulates' },
  { id: 'downregulate', verbs: /^downregulates?$/i, active: 'downregulate {x}', passive: regulatedIn('downregulated'), category: 'Regulates' },
  { id: 'cause', verbs: /^(?:causes?|side effects?)$/i, agent: ['compound'], active: 'cause {x}', passive: 'are caused by {x}', category: 'Causes' },
  { id: 'present', verbs: /^(?:presents?|phenotype present)$/i, agent: ['disease'], active: 'present with {x}', passive: 'occur in {x}', category: 'Associated_with' },
  { id: 'localize', verbs: /^locali[sz]es?$/i, agent: ['disease'], active: 'localize to {x}', passive: 'are affected by {x}', statement: 'is a site of', category: 'Occurs_in' },
  { id: 'resemble', verbs: /^resembles?$/i, active: 'resemble {x}', passive: 'resemble {x}', category: 'Associated_with' },
  { id: 'include', verbs: /^includes?$/i, agent: ['pharmacologicClass'], active: 'include {x}', passive: 'are included in {x}', statement: 'belongs to', category: 'Associated_with' },
  { id: 'interact', verbs: /^(?:interacts?(?: with)?|ppi|synergistic interaction)$/i, active: 'interact with {x}', passive: 'interact with {x}', category: 'Interacts_with' },
  { id: 'covary', verbs: /^covar(?:y|ies)$/i, active: 'covary with {x}', passive: 'covary with {x}', category: 'Interacts_with' },
  { id: 'regulate', verbs: /^regulates?$/i, active: 'regulate {x}', passive: 'are regulated by {x}', category: 'Regulates' },
  {
    id: 'participate',
    verbs: /^(?:participates?|interacts? with)$/i,
    ends: [['gene'], GENE_SETS],
    agent: ['gene'],
    active: 'participate in {x}',
    // A pathway or a compartment contains its genes; a process or a function involves them.
    passive: (m) => (isConcept(m.other, 'pathway') || isConcept(m.other, 'cellularComponent') ? 'contain {x}' : 'involve {x}'),
    statement: 'involves',
    category: 'Occurs_in',
  },
  { id: 'contraindicate', verbs: /^contraindications?$/i, agent: ['compound'], active: 'are contraindicated in {x}', passive: 'are contraindications for {x}', category: null },
  { id: 'express-absent', verbs: /^expression absent$/i, agent: ['anatomy'], active: 'lack expression of {x}', passive: 'are not expressed in {x}', category: null },
  { id: 'phenotype-absent', verbs: /^phenotype absent$/i, agent: ['disease'], active: 'lack {x}', passive: 'are absent in {x}', category: null },
  { id: 'hierarchy', verbs: /^(?:parent[- ]child|is[ _]a|subclass(?: of)?)$/i, active: 'are hierarchically related to {x}', passive: 'are hierarchically related to {x}', category: null },
];


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
}

function matches(sense: Sense, m: MetaedgeRow): boolean {
  if (!sense.verbs.test(m.verb.trim().replace(/_/g, ' '))) return false;
  if (!sense.ends) return true;
  const [a, b] = sense.ends;
  const is = (kind: string, cs: KindConcept[]) => cs.some((c) => isConcept(kind, c));
  return (is(m.sourceKind, a) && is(m.targetKind, b)) || (is(m.sourceKind, b) && is(m.targetKind, a));
}

/** A sense bound to particular ends is tried before the senses any ends may have. */
export function senseOf(m: MetaedgeRow): Sense | null {
  return SENSES.find((s) => s.ends && matches(s, m)) ?? SENSES.find((s) => !s.ends && matches(s, m)) ?? null;
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
  const base = { abbr: m.abbr, source: m.sourceKind, target: m.targetKind, directed: m.directed, verb: m.verb, sense: sense?.id ?? null, category: sense?.category ?? null, domain: metaedgeDomain(m) };
  if (!sense) {
    const clause = `are linked by "${m.verb}" to {x}`;
    return { info: { ...base, sourceClause: clause, targetClause: clause, forward: `is linked by "${m.verb}" to`, backward: `is linked by "${m.verb}" to` }, swapped: false };
  }
  const swapped = !!sense.agent && !agentIs(m.sourceKind, sense) && agentIs(m.targetKind, sense);
  const ends: Ends = swapped ? { agent: m.targetKind, other: m.sourceKind } : { agent: m.sourceKind, other: m.targetKind };
  const passive = typeof sense.passive === 'string' ? sense.passive : sense.passive(ends);
  const statement = sense.statement === undefined ? singular(passive.replace('{x}', '').trim()) : typeof sense.statement === 'string' ? sense.statement : sense.statement(ends);
  const active = sense.active;
  const activeStatement = singular(active.replace('{x}', '').trim());
  const info = swapped
    ? { ...base, sourceClause: passive, targetClause: active, forward: statement, backward: activeStatement }
    : { ...base, sourceClause: active, targetClause: passive, forward: activeStatement, backward: statement };
  return { info, swapped };
}

function agentIs(kind: string, sense: Sense): boolean {
  return !!sense.agent?.some((c) => isConcept(kind, c));
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
    const sense = SENSES.findIndex((s) => s.id === info.sense);
    const [agent, other] = swapped ? [info.target, info.source] : [info.source, info.target];
    return { info, key: [conceptRank(agent), sense < 0 ? SENSES.length : sense, conceptRank(other)] };
  });
  read.sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.key[2] - b.key[2] || (a.info.abbr < b.info.abbr ? -1 : 1));
  return read.map((r) => r.info);
}
