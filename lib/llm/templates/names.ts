/**
 * A list of entity names as a prompt shows it. Names may hold commas (MeSH's "Abdomen, Acute",
 * "Jaundice, Obstructive"), so a comma-joined list cannot be read back; "; " occurs in no KG name.
 */
export const NAME_SEPARATOR = '; ';

export function nameList(names: readonly string[]): string {
  return names.join(NAME_SEPARATOR);
}
