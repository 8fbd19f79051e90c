import fs from 'node:fs';
import { once } from 'node:events';
import zlib from 'node:zlib';
import { seededRandom } from '../query/prng';
import { PRIMEKG_COLUMNS } from './primekg';

/**
 * A synthetic graph with PrimeKG's shape, for benchmarks and tests (never
 * committed): PrimeKG's node types in their published proportions (129,375
 * nodes), its 30 relations with their display relations and row counts (8.1M
 * rows in all), every undirected edge written in both directions as PrimeKG
 * does, and heavy-tailed degrees (a few hubs, a long tail). Seeded: one seed
 * and size give the same file.
 */

/** PrimeKG's node counts by type. */
export const PRIMEKG_NODE_COUNTS: Record<string, number> = {
  'gene/protein': 27_671,
  drug: 7_957,
  'effect/phenotype': 15_311,
  disease: 17_080,
  biological_process: 28_642,
  molecular_function: 11_169,
  cellular_component: 4_176,
  pathway: 2_516,
  anatomy: 14_035,
  exposure: 818,
};

const SOURCES: Record<string, string> = {
  'gene/protein': 'NCBI',
  drug: 'DrugBank',
  'effect/phenotype': 'HPO',
  disease: 'MONDO',
  biological_process: 'GO',
  molecular_function: 'GO',
  cellular_component: 'GO',
  pathway: 'REACTOME',
  anatomy: 'UBERON',
  exposure: 'CTD',
};

/** PrimeKG's relations: [relation, display relation, x type, y type, rows (both directions)]. */
export const PRIMEKG_RELATIONS: [string, string, string, string, number][] = [
  ['anatomy_protein_present', 'expression present', 'anatomy', 'gene/protein', 3_036_406],
  ['drug_drug', 'synergistic interaction', 'drug', 'drug', 2_672_628],
  ['protein_protein', 'ppi', 'gene/protein', 'gene/protein', 642_150],
  ['disease_phenotype_positive', 'phenotype present', 'disease', 'effect/phenotype', 300_634],
  ['bioprocess_protein', 'interacts with', 'biological_process', 'gene/protein', 289_610],
  ['cellcomp_protein', 'interacts with', 'cellular_component', 'gene/protein', 166_804],
  ['disease_protein', 'associated with', 'disease', 'gene/protein', 160_822],
  ['molfunc_protein', 'interacts with', 'molecular_function', 'gene/protein', 139_060],
  ['drug_effect', 'side effect', 'drug', 'effect/phenotype', 129_568],
  ['bioprocess_bioprocess', 'parent-child', 'biological_process', 'biological_process', 105_772],
  ['pathway_protein', 'interacts with', 'pathway', 'gene/protein', 85_292],
  ['disease_disease', 'parent-child', 'disease', 'disease', 64_388],
  ['contraindication', 'contraindication', 'drug', 'disease', 61_350],
  ['drug_protein', 'target', 'drug', 'gene/protein', 51_306],
  ['anatomy_protein_absent', 'expression absent', 'anatomy', 'gene/protein', 39_774],
  ['phenotype_phenotype', 'parent-child', 'effect/phenotype', 'effect/phenotype', 37_472],
  ['anatomy_anatomy', 'parent-child', 'anatomy', 'anatomy', 28_064],
  ['molfunc_molfunc', 'parent-child', 'molecular_function', 'molecular_function', 27_148],
  ['indication', 'indication', 'drug', 'disease', 18_776],
  ['cellcomp_cellcomp', 'parent-child', 'cellular_component', 'cellular_component', 9_690],
  ['phenotype_protein', 'associated with', 'effect/phenotype', 'gene/protein', 6_660],
  ['off-label use', 'off-label use', 'drug', 'disease', 5_136],
  ['pathway_pathway', 'parent-child', 'pathway', 'pathway', 5_070],
  ['exposure_disease', 'linked to', 'exposure', 'disease', 4_608],
  ['exposure_exposure', 'parent-child', 'exposure', 'exposure', 4_140],
  ['exposure_bioprocess', 'interacts with', 'exposure', 'biological_process', 3_250],
  ['exposure_protein', 'interacts with', 'exposure', 'gene/protein', 2_424],
  ['disease_phenotype_negative', 'phenotype absent', 'disease', 'effect/phenotype', 2_386],
  ['exposure_molfunc', 'interacts with', 'exposure', 'molecular_function', 90],
  ['exposure_cellcomp', 'interacts with', 'exposure', 'cellular_component', 20],
];

export const PRIMEKG_ROWS = PRIMEKG_RELATIONS.reduce((n, r) => n + r[4], 0);

/** Degree skew: one end of each edge is drawn as rank n·u^SKEW, so low ranks are hubs (a power-law-like tail); the other end uniformly. */
const SKEW = 3;

export interface SynthOptions {
  /** About this many rows (both directions counted; every relation keeps at least one edge), at most PrimeKG's 8.1M; node counts scale with it (at least 20 per type). */
  rows: number;
  seed: number;
}

/** Writes the CSV (gzipped when the name ends in .gz); returns the rows written. */
export async function writeSyntheticPrimeKg(file: string, opts: SynthOptions): Promise<number> {
  const out = fs.createWriteStream(file);
  const sink = file.endsWith('.gz') ? zlib.createGzip({ level: 1 }) : null;
  sink?.pipe(out);
  const target = sink ?? out;
  let buffer = `${PRIMEKG_COLUMNS.join(',')}\n`;
  let written = 0;
  for (const line of syntheticPrimeKgRows(opts)) {
    buffer += line;
    written++;
    if (buffer.length > 1 << 16) {
      if (!target.write(buffer)) await once(target, 'drain');
      buffer = '';
    }
  }
  target.end(buffer);
  await once(out, 'finish');
  return written;
}

/** The rows, as CSV lines, in relation order: each edge as x→y then y→x. */
export function* syntheticPrimeKgRows({ rows, seed }: SynthOptions): Generator<string> {
  const scale = Math.min(1, rows / PRIMEKG_ROWS);
  const random = seededRandom(seed);
  const counts = Object.fromEntries(Object.entries(PRIMEKG_NODE_COUNTS).map(([t, n]) => [t, Math.max(20, Math.round(n * scale))]));
  const offsets: Record<string, number> = {};
  let next = 0;
  for (const [type, n] of Object.entries(counts)) {
    offsets[type] = next;
    next += n;
  }
  // Each type's ranks are shuffled per relation, so hubs differ between relations as in a real graph.
  const node = (type: string, rank: number) => {
    const index = offsets[type] + rank;
    const id = `${type.replace(/\W+/g, '').slice(0, 3).toUpperCase()}${rank}`;
    return `${index},${id},${type},${csv(`${type.replace(/_/g, ' ')} ${rank}`)},${SOURCES[type]}`;
  };
  const hub = (type: string, permutation: Uint32Array) => permutation[Math.floor(counts[type] * random() ** SKEW)];
  const any = (type: string) => Math.floor(counts[type] * random());
  const permutations = new Map<string, Uint32Array>();
  const permutationFor = (type: string, relation: string) => {
    const key = `${relation}/${type}`;
    if (!permutations.has(key)) permutations.set(key, shuffled(counts[type], random));
    return permutations.get(key)!;
  };
  for (const [relation, display, xType, yType, published] of PRIMEKG_RELATIONS) {
    const edges = Math.max(1, Math.round((published * scale) / 2));
    const xs = permutationFor(xType, relation);
    for (let i = 0; i < edges; i++) {
      const x = hub(xType, xs);
      let y = any(yType);
      if (xType === yType && y === x) y = (x + 1) % counts[yType];
      const [a, b] = [node(xType, x), node(yType, y)];
      yield `${csv(relation)},${csv(display)},${a},${b}\n`;
      yield `${csv(relation)},${csv(display)},${b},${a}\n`;
    }
  }
}

function csv(s: string): string {
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function shuffled(n: number, random: () => number): Uint32Array {
  const a = new Uint32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}
