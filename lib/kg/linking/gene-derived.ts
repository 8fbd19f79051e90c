import type { KnowledgeLookups } from '../query/lookups';
import { isFunctionWord, type Token } from '../query/tokens';
import { DESIGNATION_SOURCE, FULL_NAME_SOURCE, readAliasesOf } from './store';

/** Words a condition named after a gene may add on either side of the symbol ("G6PD deficiency", "deficiency of TPMT"). */
const MAX_EXTRA_WORDS = 3;

/**
 * The names (normalised) a gene is spelt out by, per gene node: its full name, and its other designations, which is how
 * pharmacologic classes name their targets ("cytochrome P450 3A4" in "Cytochrome P450 3A4 Inhibitors", so "CYP3A4
 * inhibitors" reads the class). From the names held in memory, else one read for the genes not read before.
 */
export async function geneFullNames(ids: string[], lookups: KnowledgeLookups): Promise<Map<string, string[]>> {
  const held = lookups.heldNames();
  const [full, designations] = held
    ? [held.aliasesOf(ids, FULL_NAME_SOURCE), held.aliasesOf(ids, DESIGNATION_SOURCE)]
    : await Promise.all([
        lookups.byNode('gene-full-names', ids, (missing) => readAliasesOf(missing, FULL_NAME_SOURCE)),
        lookups.byNode('gene-designations', ids, (missing) => readAliasesOf(missing, DESIGNATION_SOURCE)),
      ]);
  return new Map(ids.map((id) => [id, [...new Set([...(full.get(id) ?? []), ...(designations.get(id) ?? [])])]]));
}

/** A span read with a gene symbol spelt out: `key` is the lookup key, `symbol` the token that was expanded. */
export interface DerivedGram {
  first: number;
  last: number;
  key: string;
  symbol: number;
}

/**
 * Spans around a gene symbol with the symbol replaced by the gene's full name:
 * "G6PD deficiency" → "glucose 6 phosphate dehydrogenase deficiency", the
 * name a condition caused by the gene carries. A span never ends on a function word.
 */
export function derivedGrams(tokens: Token[], fullNames: Map<number, string[]>): DerivedGram[] {
  const grams: DerivedGram[] = [];
  const norms = (a: number, b: number) => tokens.slice(a, b + 1).map((t) => t.norm);
  for (const [symbol, names] of fullNames) {
    for (let extra = 1; extra <= MAX_EXTRA_WORDS; extra++) {
      for (const [first, last] of [
        [symbol, symbol + extra],
        [symbol - extra, symbol],
      ]) {
        if (first < 0 || last >= tokens.length || isFunctionWord(tokens[first].norm) || isFunctionWord(tokens[last].norm)) continue;
        for (const name of names) {
          const key = [...norms(first, symbol - 1), name, ...norms(symbol + 1, last)].join(' ');
          // A class names its members in the plural ("… 3A4 Inhibitors"); a writer may use either number ("a CYP3A4 inhibitor").
          const other = last > symbol ? (key.endsWith('s') ? key.slice(0, -1) : `${key}s`) : null;
          for (const k of other ? [key, other] : [key]) grams.push({ first, last, key: k, symbol });
        }
      }
    }
  }
  return grams;
}
