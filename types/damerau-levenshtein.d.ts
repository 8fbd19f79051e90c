declare module 'damerau-levenshtein' {
  /** Optimal-string-alignment distance: `steps` edits (insert, delete, substitute, swap neighbours), `relative` = steps / longer length, `similarity` = 1 − relative. */
  export default function distance(a: string, b: string, limit?: number): { steps: number; relative: number; similarity: number };
}
