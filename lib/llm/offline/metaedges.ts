/**
 * The Hetionet metagraph as the offline rules see it: which node kinds each
 * metaedge joins, whether its direction matters, and how to say it in English.
 * The rules are pure, so they carry their own copy instead of reading the
 * Metaedge table; the abbreviations are the KG's own, so evidence matches.
 */

export type NodeKind = string;

export const KIND = {
  anatomy: 'Anatomy',
  compound: 'Compound',
  disease: 'Disease',
  gene: 'Gene',
  pathway: 'Pathway',
  pharmacologicClass: 'Pharmacologic Class',
  sideEffect: 'Side Effect',
  symptom: 'Symptom',
  biologicalProcess: 'Biological Process',
  cellularComponent: 'Cellular Component',
  molecularFunction: 'Molecular Function',
} as const;

export interface MetaedgeInfo {
  abbr: string;
  source: NodeKind;
  target: NodeKind;
  /** Only Gr>G: both ends are genes and source/target mean different things. */
  directed: boolean;
  /** Clause with the source as grammatical subject, `{x}` the target: "treat {x}". */
  sourceClause: string;
  /** Clause with the target as grammatical subject, `{x}` the source: "are treated by {x}". */
  targetClause: string;
}

/**
 * Order matters: when a question names no relation, the first metaedge joining
 * two kinds is the preferred reading (Disease–Gene reads as DaG before DuG/DdG).
 */
export const METAEDGES: readonly MetaedgeInfo[] = [
  { abbr: 'CtD', source: KIND.compound, target: KIND.disease, directed: false, sourceClause: 'treat {x}', targetClause: 'are treated by {x}' },
  { abbr: 'CpD', source: KIND.compound, target: KIND.disease, directed: false, sourceClause: 'palliate {x}', targetClause: 'are palliated by {x}' },
  { abbr: 'CbG', source: KIND.compound, target: KIND.gene, directed: false, sourceClause: 'bind {x}', targetClause: 'are bound by {x}' },
  { abbr: 'CuG', source: KIND.compound, target: KIND.gene, directed: false, sourceClause: 'upregulate {x}', targetClause: 'are upregulated by {x}' },
  { abbr: 'CdG', source: KIND.compound, target: KIND.gene, directed: false, sourceClause: 'downregulate {x}', targetClause: 'are downregulated by {x}' },
  { abbr: 'CcSE', source: KIND.compound, target: KIND.sideEffect, directed: false, sourceClause: 'cause {x}', targetClause: 'are caused by {x}' },
  { abbr: 'CrC', source: KIND.compound, target: KIND.compound, directed: false, sourceClause: 'resemble {x}', targetClause: 'resemble {x}' },
  { abbr: 'PCiC', source: KIND.pharmacologicClass, target: KIND.compound, directed: false, sourceClause: 'include {x}', targetClause: 'are included in {x}' },
  { abbr: 'DaG', source: KIND.disease, target: KIND.gene, directed: false, sourceClause: 'are associated with {x}', targetClause: 'are associated with {x}' },
  { abbr: 'DuG', source: KIND.disease, target: KIND.gene, directed: false, sourceClause: 'upregulate {x}', targetClause: 'are upregulated in {x}' },
  { abbr: 'DdG', source: KIND.disease, target: KIND.gene, directed: false, sourceClause: 'downregulate {x}', targetClause: 'are downregulated in {x}' },
  { abbr: 'DpS', source: KIND.disease, target: KIND.symptom, directed: false, sourceClause: 'present with {x}', targetClause: 'occur in {x}' },
  { abbr: 'DlA', source: KIND.disease, target: KIND.anatomy, directed: false, sourceClause: 'localize to {x}', targetClause: 'are affected by {x}' },
  { abbr: 'DrD', source: KIND.disease, target: KIND.disease, directed: false, sourceClause: 'resemble {x}', targetClause: 'resemble {x}' },
  { abbr: 'AeG', source: KIND.anatomy, target: KIND.gene, directed: false, sourceClause: 'express {x}', targetClause: 'are expressed in {x}' },
  { abbr: 'AuG', source: KIND.anatomy, target: KIND.gene, directed: false, sourceClause: 'upregulate {x}', targetClause: 'are upregulated in {x}' },
  { abbr: 'AdG', source: KIND.anatomy, target: KIND.gene, directed: false, sourceClause: 'downregulate {x}', targetClause: 'are downregulated in {x}' },
  { abbr: 'GiG', source: KIND.gene, target: KIND.gene, directed: false, sourceClause: 'interact with {x}', targetClause: 'interact with {x}' },
  { abbr: 'GcG', source: KIND.gene, target: KIND.gene, directed: false, sourceClause: 'covary with {x}', targetClause: 'covary with {x}' },
  { abbr: 'Gr>G', source: KIND.gene, target: KIND.gene, directed: true, sourceClause: 'regulate {x}', targetClause: 'are regulated by {x}' },
  { abbr: 'GpPW', source: KIND.gene, target: KIND.pathway, directed: false, sourceClause: 'participate in {x}', targetClause: 'contain {x}' },
  { abbr: 'GpBP', source: KIND.gene, target: KIND.biologicalProcess, directed: false, sourceClause: 'participate in {x}', targetClause: 'involve {x}' },
  { abbr: 'GpCC', source: KIND.gene, target: KIND.cellularComponent, directed: false, sourceClause: 'participate in {x}', targetClause: 'contain {x}' },
  { abbr: 'GpMF', source: KIND.gene, target: KIND.molecularFunction, directed: false, sourceClause: 'participate in {x}', targetClause: 'involve {x}' },
];

const byAbbr = new Map(METAEDGES.map((m) => [m.abbr, m]));

export function metaedgeInfo(abbr: string): MetaedgeInfo | undefined {
  return byAbbr.get(abbr);
}

/** Kinds compare loosely: evidence may spell "SideEffect" or "side effect". */
export function sameKind(a: NodeKind, b: NodeKind): boolean {
  return a.replace(/[^a-z]/gi, '').toLowerCase() === b.replace(/[^a-z]/gi, '').toLowerCase();
}

/** Whether a metaedge joins the two kinds (in either direction). */
export function joins(abbr: string, a: NodeKind, b: NodeKind): boolean {
  const m = byAbbr.get(abbr);
  if (!m) return false;
  return (sameKind(m.source, a) && sameKind(m.target, b)) || (sameKind(m.source, b) && sameKind(m.target, a));
}

/** The kind at the far end of a metaedge from `kind`; null when the metaedge does not touch `kind`. */
export function otherEnd(abbr: string, kind: NodeKind): NodeKind | null {
  const m = byAbbr.get(abbr);
  if (!m) return null;
  if (sameKind(m.source, kind)) return m.target;
  if (sameKind(m.target, kind)) return m.source;
  return null;
}

/** Metaedges joining two kinds, preferred reading first. */
export function metaedgesBetween(a: NodeKind, b: NodeKind): string[] {
  return METAEDGES.filter((m) => joins(m.abbr, a, b)).map((m) => m.abbr);
}

const PLURALS: Record<string, string> = {
  [KIND.anatomy]: 'anatomical structures',
  [KIND.compound]: 'compounds',
  [KIND.disease]: 'diseases',
  [KIND.gene]: 'genes',
  [KIND.pathway]: 'pathways',
  [KIND.pharmacologicClass]: 'pharmacologic classes',
  [KIND.sideEffect]: 'side effects',
  [KIND.symptom]: 'symptoms',
  [KIND.biologicalProcess]: 'biological processes',
  [KIND.cellularComponent]: 'cellular components',
  [KIND.molecularFunction]: 'molecular functions',
};

export function kindPlural(kind: NodeKind): string {
  const known = Object.keys(PLURALS).find((k) => sameKind(k, kind));
  return known ? PLURALS[known] : `${kind.toLowerCase()} entities`;
}
