/** Minimal `--flag value` / `--flag` parser; unknown flags are errors so typos never pass silently. */
export function parseArgs(argv: string[], known: { values: string[]; flags: string[] }) {
  const values: Record<string, string> = {};
  const flags = new Set<string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (known.flags.includes(name)) flags.add(name);
    else if (known.values.includes(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      values[name] = value;
    } else throw new UsageError(`unknown option --${name}`);
  }
  return { values, flags, positional };
}

export class UsageError extends Error {}

/** "A=aspirin,B=metformin" or "A: aspirin | B: metformin" → {A: 'aspirin', B: 'metformin'} */
export function parseOptions(spec: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of spec.split(/[|;]|,(?=\s*[A-Ea-e]\s*[=:])/)) {
    const m = /^\s*([A-Ea-e])\s*[=:]\s*(.+?)\s*$/.exec(part);
    if (!m) throw new UsageError(`bad option "${part.trim()}": use A=text,B=text`);
    out[m[1].toUpperCase()] = m[2];
  }
  return out;
}

/** "tMax=1,topK=10" → {tMax: 1, topK: 10}; numbers and booleans are converted. */
export function parseParams(spec: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const part of spec.split(',')) {
    const m = /^\s*([A-Za-z_][\w.]*)\s*=\s*(.*?)\s*$/.exec(part);
    if (!m) throw new UsageError(`bad parameter "${part}": use name=value`);
    const raw = m[2];
    out[m[1]] = raw === 'true' ? true : raw === 'false' ? false : raw !== '' && !Number.isNaN(Number(raw)) ? Number(raw) : raw;
  }
  return out;
}
