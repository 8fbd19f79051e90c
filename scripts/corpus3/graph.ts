/**
 * The loaded KG as the fact sheets read it: the 21 metaedges and how each reads, every node,
 * degrees, gene full names, cached one-edge neighbourhoods, and which nodes a person could name.
 */
import { aliasesOfSource, allNodeDegrees, allNodes, neighbourIds } from '../../lib/kg/store/whole-graph';

export type Dir = 'out' | 'in' | 'both';
export type Kind = 'Anatomy' | 'Compound' | 'Disease' | 'Gene' | 'Pathway' | 'Pharmacologic Class' | 'Side Effect' | 'Symptom';

export interface Named {
  id: string;
  name: string;
  kind: string;
}

/** The loaded graph's 21 metaedges: ends, and whether the edge is symmetric between one kind (stored once). */
export const ME: Record<string, { src: Kind; tgt: Kind; sym: boolean }> = {
  AdG: { src: 'Anatomy', tgt: 'Gene', sym: false },
  AeG: { src: 'Anatomy', tgt: 'Gene', sym: false },
  AuG: { src: 'Anatomy', tgt: 'Gene', sym: false },
  CbG: { src: 'Compound', tgt: 'Gene', sym: false },
  CcSE: { src: 'Compound', tgt: 'Side Effect', sym: false },
  CdG: { src: 'Compound', tgt: 'Gene', sym: false },
  CpD: { src: 'Compound', tgt: 'Disease', sym: false },
  CrC: { src: 'Compound', tgt: 'Compound', sym: true },
  CtD: { src: 'Compound', tgt: 'Disease', sym: false },
  CuG: { src: 'Compound', tgt: 'Gene', sym: false },
  DaG: { src: 'Disease', tgt: 'Gene', sym: false },
  DdG: { src: 'Disease', tgt: 'Gene', sym: false },
  DlA: { src: 'Disease', tgt: 'Anatomy', sym: false },
  DpS: { src: 'Disease', tgt: 'Symptom', sym: false },
  DrD: { src: 'Disease', tgt: 'Disease', sym: true },
  DuG: { src: 'Disease', tgt: 'Gene', sym: false },
  GcG: { src: 'Gene', tgt: 'Gene', sym: true },
  GiG: { src: 'Gene', tgt: 'Gene', sym: true },
  GpPW: { src: 'Gene', tgt: 'Pathway', sym: false },
  'Gr>G': { src: 'Gene', tgt: 'Gene', sym: false },
  PCiC: { src: 'Pharmacologic Class', tgt: 'Compound', sym: false },
};

/** How each relation reads: the set reached from an anchor (out: anchor is the source), and a given pair. */
export const PHRASE: Record<string, { out: (a: string) => string; in: (a: string) => string; pair: (s: string, t: string) => string }> = {
  AdG: {
    out: (a) => `the genes that are downregulated in the anatomical structure ${a}`,
    in: (g) => `the anatomical structures (tissues/organs) in which the gene ${g} is downregulated`,
    pair: (a, g) => `the gene ${g} is downregulated in ${a}`,
  },
  AeG: {
    out: (a) => `the genes expressed in the anatomical structure ${a}`,
    in: (g) => `the anatomical structures (tissues/organs) that express the gene ${g}`,
    pair: (a, g) => `the gene ${g} is expressed in ${a}`,
  },
  AuG: {
    out: (a) => `the genes that are upregulated in the anatomical structure ${a}`,
    in: (g) => `the anatomical structures (tissues/organs) in which the gene ${g} is upregulated`,
    pair: (a, g) => `the gene ${g} is upregulated in ${a}`,
  },
  CbG: {
    out: (c) => `the genes (protein targets) that the compound ${c} binds`,
    in: (g) => `the compounds that bind the gene/protein ${g}`,
    pair: (c, g) => `the compound ${c} binds the gene/protein ${g}`,
  },
  CcSE: {
    out: (c) => `the side effects caused by the compound ${c}`,
    in: (s) => `the compounds that cause the side effect ${s}`,
    pair: (c, s) => `the compound ${c} causes the side effect ${s}`,
  },
  CdG: {
    out: (c) => `the genes downregulated by the compound ${c}`,
    in: (g) => `the compounds that downregulate the gene ${g}`,
    pair: (c, g) => `the compound ${c} downregulates the gene ${g}`,
  },
  CpD: {
    out: (c) => `the diseases that the compound ${c} palliates (relieves without treating)`,
    in: (d) => `the compounds that palliate the disease ${d}`,
    pair: (c, d) => `the compound ${c} palliates the disease ${d}`,
  },
  CrC: {
    out: (c) => `the compounds that resemble (are structurally similar to) the compound ${c}`,
    in: (c) => `the compounds that resemble (are structurally similar to) the compound ${c}`,
    pair: (a, b) => `the compound ${a} resembles (is structurally similar to) the compound ${b}`,
  },
  CtD: {
    out: (c) => `the diseases that the compound ${c} treats`,
    in: (d) => `the compounds (drugs) that treat the disease ${d}`,
    pair: (c, d) => `the compound ${c} treats the disease ${d}`,
  },
  CuG: {
    out: (c) => `the genes upregulated by the compound ${c}`,
    in: (g) => `the compounds that upregulate the gene ${g}`,
    pair: (c, g) => `the compound ${c} upregulates the gene ${g}`,
  },
  DaG: {
    out: (d) => `the genes associated with the disease ${d}`,
    in: (g) => `the diseases associated with the gene ${g}`,
    pair: (d, g) => `the gene ${g} is associated with the disease ${d}`,
  },
  DdG: {
    out: (d) => `the genes downregulated in the disease ${d}`,
    in: (g) => `the diseases in which the gene ${g} is downregulated`,
    pair: (d, g) => `the gene ${g} is downregulated in the disease ${d}`,
  },
  DlA: {
    out: (d) => `the anatomical structures where the disease ${d} localizes`,
    in: (a) => `the diseases that localize to the anatomical structure ${a}`,
    pair: (d, a) => `the disease ${d} localizes to ${a}`,
  },
  DpS: {
    out: (d) => `the symptoms that the disease ${d} presents`,
    in: (s) => `the diseases that present the symptom ${s}`,
    pair: (d, s) => `the disease ${d} presents the symptom ${s}`,
  },
  DrD: {
    out: (d) => `the diseases that resemble the disease ${d}`,
    in: (d) => `the diseases that resemble the disease ${d}`,
    pair: (a, b) => `the disease ${a} resembles the disease ${b}`,
  },
  DuG: {
    out: (d) => `the genes upregulated in the disease ${d}`,
    in: (g) => `the diseases in which the gene ${g} is upregulated`,
    pair: (d, g) => `the gene ${g} is upregulated in the disease ${d}`,
  },
  GcG: {
    out: (g) => `the genes that covary (are co-expressed) with the gene ${g}`,
    in: (g) => `the genes that covary (are co-expressed) with the gene ${g}`,
    pair: (a, b) => `the gene ${a} covaries with the gene ${b}`,
  },
  GiG: {
    out: (g) => `the genes whose proteins interact with the gene ${g}`,
    in: (g) => `the genes whose proteins interact with the gene ${g}`,
    pair: (a, b) => `the gene ${a} interacts with the gene ${b}`,
  },
  GpPW: {
    out: (g) => `the pathways in which the gene ${g} participates`,
    in: (p) => `the genes that participate in the pathway "${p}"`,
    pair: (g, p) => `the gene ${g} participates in the pathway "${p}"`,
  },
  'Gr>G': {
    out: (g) => `the genes that the gene ${g} regulates`,
    in: (g) => `the genes that regulate the gene ${g}`,
    pair: (a, b) => `the gene ${a} regulates the gene ${b}`,
  },
  PCiC: {
    out: (p) => `the compounds in the pharmacologic class "${p}"`,
    in: (c) => `the pharmacologic classes that include the compound ${c}`,
    pair: (p, c) => `the compound ${c} belongs to the pharmacologic class "${p}"`,
  },
};

// ---------- the graph ----------
const nodes = new Map<string, Named>();
export const byKind = new Map<string, string[]>();
const degree = new Map<string, number>(); // `${id}|${me}|${dir}`
const nameCountInKind = new Map<string, number>();
export const fullName = new Map<string, string>();

/** DATABASE_URL as given, else the test PostgreSQL with the KG loaded (the stores read it from the environment). */
async function connect(): Promise<void> {
  if (process.env.DATABASE_URL) return;
  const { default: setup } = await import('../../tests/support/global-setup');
  await setup();
}

export async function load() {
  await connect();
  for (const r of await allNodes()) {
    nodes.set(r.id, r);
    byKind.set(r.kind, [...(byKind.get(r.kind) ?? []), r.id]);
    const k = `${r.kind}|${r.name.toLowerCase()}`;
    nameCountInKind.set(k, (nameCountInKind.get(k) ?? 0) + 1);
  }
  for (const r of await allNodeDegrees()) degree.set(`${r.nodeId}|${r.metaedge}|${r.direction}`, r.count);
  for (const r of await aliasesOfSource('ncbi-full-name')) if (!fullName.has(r.nodeId)) fullName.set(r.nodeId, r.alias);
}

const nbCache = new Map<string, Set<string>>();
/** The nodes one edge of `me` away from `id` (out: id is the source; symmetric metaedges read both ways). */
export async function nb(id: string, me: string, dir: Dir): Promise<Set<string>> {
  const d: Dir = ME[me].sym ? 'both' : dir;
  const key = `${id}|${me}|${d}`;
  const hit = nbCache.get(key);
  if (hit) return hit;
  const set = new Set((await neighbourIds(id, me, d)).filter((n) => n !== id));
  nbCache.set(key, set);
  return set;
}
/** Union of one step from each node of a set. */
export async function step(ids: Iterable<string>, me: string, dir: Dir): Promise<Set<string>> {
  const out = new Set<string>();
  for (const id of ids) for (const n of await nb(id, me, dir)) out.add(n);
  return out;
}
export const deg = (id: string, me: string, dir: Dir) =>
  ME[me].sym || dir === 'both' ? (degree.get(`${id}|${me}|out`) ?? 0) + (degree.get(`${id}|${me}|in`) ?? 0) : (degree.get(`${id}|${me}|${dir}`) ?? 0);
export const anchorKind = (me: string, dir: Dir): Kind => (dir === 'in' ? ME[me].tgt : ME[me].src);
export const resultKind = (me: string, dir: Dir): Kind => (dir === 'in' ? ME[me].src : ME[me].tgt);

// ---------- fair anchors ----------
const BAD_GENE = /orf|^LOC|^FLJ|^KIAA|^LINC|^MIR|^SNO|^RNU|^HLA-|-AS\d|^C\d+$/;
const VAGUE_GENE_NAME = /uncharacterized|hypothetical|open reading frame|putative|family with sequence/i;
/** An anchor a person could name: a reasonable human word, unique within its kind. */
export function fair(id: string): boolean {
  const n = nodes.get(id);
  if (!n) return false;
  if ((nameCountInKind.get(`${n.kind}|${n.name.toLowerCase()}`) ?? 0) > 1) return false;
  const name = n.name;
  switch (n.kind) {
    case 'Gene':
      return /^[A-Z][A-Z0-9-]{1,8}$/.test(name) && !BAD_GENE.test(name) && fullName.has(id) && !VAGUE_GENE_NAME.test(fullName.get(id)!);
    case 'Compound':
      return /^[A-Z][A-Za-z -]{3,28}$/.test(name);
    case 'Side Effect':
    case 'Symptom':
      return /^[A-Za-z][A-Za-z '-]{3,34}$/.test(name) && !/\bNOS\b/.test(name);
    case 'Anatomy':
      return /^[a-z][a-z ]{3,30}$/.test(name);
    case 'Pathway':
      return name.length <= 55 && /^[A-Za-z0-9][A-Za-z0-9 ,()/+'-]+$/.test(name);
    case 'Pharmacologic Class':
      return name.length <= 45 && /^[A-Za-z0-9][A-Za-z0-9 ,()/-]+$/.test(name);
    default:
      return true;
  }
}

export const N = (id: string) => nodes.get(id)!.name;
export const named = (...ids: string[]): Named[] => ids.map((id) => nodes.get(id)!);
export const sortedNames = (ids: Iterable<string>) => [...ids].sort((a, b) => N(a).localeCompare(N(b)) || a.localeCompare(b));
export const sortedIds = (ids: Iterable<string>) => [...ids].sort();
export async function reach(a: string, steps: [string, Dir][]): Promise<Set<string>> {
  let cur = new Set([a]);
  for (const [me, dir] of steps) cur = await step(cur, me, dir);
  cur.delete(a);
  return cur;
}
