/** How the evaluation tables print figures (CLI and pages alike): rates as percentages, "—" for none. */
export const pct = (x: number | null | undefined, digits = 1) => (x === null || x === undefined ? '—' : (x * 100).toFixed(digits));

export const num = (x: number | null | undefined, digits = 1) => (x === null || x === undefined ? '—' : x.toFixed(digits));

/** "1 h 5 min", "3 min 20 s", "12 s". */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}
