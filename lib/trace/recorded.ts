/**
 * Evidence records the recorder made, by identity, and whether a step contract has checked one whole. A record is
 * checked where it first appears in a step's output; an output that holds the same record again (ReGraM's candidate
 * table over its channel's records, EIGEN-1's retrieval over its queries) is stored with a reference to it (./codec),
 * so its contract checks the reference, not the record a second time. Client-safe: the contracts use it.
 */
const made = new WeakMap<object, boolean>();

/** A record the recorder just made (not checked yet). */
export function madeRecord(record: object): void {
  made.set(record, false);
}

/** Whether `value` is a record the recorder made that a contract has already checked whole. */
export function checkedRecord(value: unknown): boolean {
  return typeof value === 'object' && value !== null && made.get(value) === true;
}

/** A contract checked `value` whole: if the recorder made it, it is not checked again. */
export function recordChecked(value: unknown): void {
  if (typeof value === 'object' && value !== null && made.has(value)) made.set(value, true);
}
