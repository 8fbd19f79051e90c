/**
 * Evidence records a recorder made, and those a step contract has checked whole. A record is checked where it first
 * appears in a step's output; an output that holds the same record again (ReGraM's candidate table over its channel's
 * records, EIGEN-1's retrieval over its queries) is stored with a reference to it (./codec), so its contract checks the
 * reference, not the record a second time. Likewise a value a schema of `checkedOnce` (./steps/common) passed is passed
 * as it is where a later output of the run holds it again. Client-safe: the contracts use it.
 *
 * The marks are the recorder's own, and go with its run: a module-wide WeakMap of every record of every run (thousands
 * a run) cost a warm kg-rag run ≈ 9 % of its CPU, more than the checks it saved.
 */
export class RecordMarks {
  private readonly made = new Set<object>();
  private readonly checked = new Set<object>();
  /** Values (by identity) a schema of `checkedOnce` (./steps/common) passed, by schema. */
  private readonly passed = new Map<object, Set<object>>();

  /** A record the recorder just made (not checked yet). */
  madeRecord(record: object): void {
    this.made.add(record);
  }

  /** Runs a (synchronous) contract check that knows these marks. */
  checking<T>(check: () => T): T {
    const outer = current;
    current = this;
    try {
      return check();
    } finally {
      current = outer;
    }
  }

  has(value: object): boolean {
    return this.checked.has(value);
  }

  mark(value: object): void {
    if (this.made.has(value)) this.checked.add(value);
  }

  /** Whether `value` passed `schema` in an earlier check of this recorder's. */
  passedBefore(schema: object, value: object): boolean {
    return this.passed.get(schema)?.has(value) ?? false;
  }

  pass(schema: object, value: object): void {
    const values = this.passed.get(schema);
    if (values) values.add(value);
    else this.passed.set(schema, new Set([value]));
  }
}

/** The marks of the contract check running now (checks are synchronous: one at a time). */
let current: RecordMarks | null = null;

/** Whether `value` is a record the recorder made that a contract has already checked whole. */
export function checkedRecord(value: unknown): boolean {
  return current !== null && typeof value === 'object' && value !== null && current.has(value);
}

/** A contract checked `value` whole: if the recorder made it, it is not checked again. */
export function recordChecked(value: unknown): void {
  if (current !== null && typeof value === 'object' && value !== null) current.mark(value);
}

/** Whether `value` passed `schema` in an earlier contract check of the recorder checking now (`checkedOnce`). */
export function passedBefore(schema: object, value: unknown): boolean {
  return current !== null && typeof value === 'object' && value !== null && current.passedBefore(schema, value);
}

/** `value` passed `schema` in a contract check: the recorder's later checks pass it as it is. */
export function passed(schema: object, value: unknown): void {
  if (current !== null && typeof value === 'object' && value !== null) current.pass(schema, value);
}
