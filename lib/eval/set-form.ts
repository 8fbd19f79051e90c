/**
 * What the `/eval` set forms (generate, import) show after a submission: a
 * message and the fields it concerns, each problem of a rejected file on its
 * own line, or the set that was stored.
 */
export interface SetFormState {
  message: string | null;
  fieldErrors: Record<string, string>;
  /** A rejected file's problems, "line 4: not JSON: …", the first few of them. */
  issues: string[];
  created: { name: string; source: string; total: number } | null;
}

export const EMPTY_SET_FORM: SetFormState = { message: null, fieldErrors: {}, issues: [], created: null };

/** An imported set's name when the form gives none: the file's name without its extensions ("mirage-benchmark.json.gz" → "mirage-benchmark"). */
export function setNameFromFile(fileName: string): string {
  return fileName.replace(/^.*[\\/]/, '').replace(/(\.(jsonl|json|txt|gz))+$/i, '');
}
