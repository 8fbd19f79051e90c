import distance from 'damerau-levenshtein';

/**
 * Edit distance for misspellings: insertions, deletions, substitutions and
 * swaps of neighbouring letters each count one (optimal string alignment, the
 * `damerau-levenshtein` package: a swap, the commonest typing slip, is one
 * edit where plain Levenshtein counts two).
 */
export function edits(a: string, b: string): number {
  return distance(a, b).steps;
}

/**
 * Edits a name of `length` characters may be off by and still be read as that
 * name: none under 5 characters (too many look-alikes), one up to 8, two up to
 * 15, three beyond. Short names are where look-alikes crowd.
 */
export function allowedEdits(length: number): number {
  if (length < 5) return 0;
  if (length <= 8) return 1;
  if (length <= 15) return 2;
  return 3;
}

/** Confidence of a fuzzy reading: 0.95 less a share of the name per edit, never above a correct spelling's alias. */
export function fuzzyConfidence(editCount: number, length: number): number {
  return Math.round(Math.max(0, 0.95 - (editCount / Math.max(1, length)) * 1.5) * 1000) / 1000;
}
