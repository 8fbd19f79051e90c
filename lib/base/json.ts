/** JSON columns take plain JSON: drop undefined, turn Dates into strings. */
export function toJson(value: unknown): any {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}

/**
 * Whether `a` and `b` have the same JSON text (`JSON.stringify(a) === JSON.stringify(b)`), without making either:
 * fields in the same order, undefined ones left out, non-finite numbers as null. A value with `toJSON` or of another
 * class is compared by its text.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const x = jsonAtom(a);
  const y = jsonAtom(b);
  if (x === y) return true;
  if (written(x) || written(y)) return JSON.stringify(x) === JSON.stringify(y);
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
  if (Array.isArray(x) || Array.isArray(y)) {
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!sameJson(inArray(x[i]), inArray(y[i]))) return false;
    return true;
  }
  const kx = Object.keys(x);
  const ky = Object.keys(y);
  const ox = x as Record<string, unknown>;
  const oy = y as Record<string, unknown>;
  let j = 0;
  for (const k of kx) {
    if (leftOut(ox[k])) continue;
    while (j < ky.length && leftOut(oy[ky[j]])) j++;
    if (ky[j] !== k || !sameJson(ox[k], oy[k])) return false;
    j++;
  }
  while (j < ky.length && leftOut(oy[ky[j]])) j++;
  return j === ky.length;
}

/** What JSON writes for a primitive: non-finite numbers and undefined as null. */
function jsonAtom(v: unknown): unknown {
  return v === undefined || (typeof v === 'number' && !Number.isFinite(v)) ? null : v;
}

/** An array element JSON writes as null (undefined, a function, a symbol). */
function inArray(v: unknown): unknown {
  return typeof v === 'function' || typeof v === 'symbol' ? null : v;
}

/** An object field JSON leaves out. */
function leftOut(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

/** An object JSON writes by its own means (toJSON, another class): compared by its text. */
function written(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return (proto !== Object.prototype && proto !== null) || typeof (v as { toJSON?: unknown }).toJSON === 'function';
}
