/** JSON columns take plain JSON: drop undefined, turn Dates into strings. */
export function toJson(value: unknown): any {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}
