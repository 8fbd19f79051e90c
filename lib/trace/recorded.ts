/**
 * Evidence records the recorder made, and whether a step contract has checked one whole. A record is checked where it
 * first appears in a step's output; an output that holds the same record again (ReGraM's candidate table over its
 * channel's records, EIGEN-1's retrieval over its queries) is stored with a reference to it (./codec), so its contract
 * checks the reference, not the record a second time. Client-safe: the contracts use it.
 *
 * The mark is a property of the record's own, keyed by a symbol and not enumerable, so no copy, JSON text, clone or
 * field list carries it. A module-wide WeakMap of every record (thousands a run) cost more than the checks it saved:
 * its entries are only dropped by a collection, and every young-generation collection visits them.
 */
const CHECKED = Symbol('checked by a step contract');

type Marked = { [CHECKED]?: boolean };

/** A record the recorder just made (not checked yet). */
export function madeRecord(record: object): void {
  Object.defineProperty(record, CHECKED, { value: false, writable: true });
}

/** Whether `value` is a record the recorder made that a contract has already checked whole. */
export function checkedRecord(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as Marked)[CHECKED] === true;
}

/** A contract checked `value` whole: if the recorder made it, it is not checked again. */
export function recordChecked(value: unknown): void {
  if (typeof value === 'object' && value !== null && CHECKED in value) (value as Marked)[CHECKED] = true;
}
