/**
 * A one-line summary of a step's outcome, computed on the server so that the
 * trace outline can say what each step found without shipping every step's
 * output to the browser. Generic: it reads the keys many methods share
 * (verdict, answer, query, mode, …) and never a method's private shape. Pure.
 */
export function stepHeadline(status: string, output: unknown): string | null {
  if (status === 'running') return null;
  if (isObject(output)) {
    if (status === 'skipped' && typeof output.reason === 'string') return clip(output.reason);
    if (status === 'failed' && typeof output.error === 'string') return clip(output.error);
  }
  if (Array.isArray(output)) return clip(arrayHeadline(output));
  if (isObject(output)) return objectHeadline(output);
  if (typeof output === 'string' || typeof output === 'number' || typeof output === 'boolean') return clip(String(output));
  return null;
}

const MAX = 160;

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= MAX ? flat : `${flat.slice(0, MAX - 1).trimEnd()}…`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function arrayHeadline(items: unknown[]): string {
  if (!items.length) return 'nothing found';
  // Entity links: name what was linked.
  if (items.every((i) => isObject(i) && typeof i.nodeId === 'string' && typeof i.name === 'string' && 'mention' in i)) {
    const names = [...new Set(items.map((i) => String((i as { name: string }).name)))];
    return `linked ${names.join(', ')}`;
  }
  // Evidence records (channel steps).
  if (items.every((i) => isObject(i) && typeof i.ref === 'string' && typeof i.channel === 'string')) {
    return `${items.length} evidence record${items.length === 1 ? '' : 's'}`;
  }
  return `${items.length} item${items.length === 1 ? '' : 's'}`;
}

/** The keys read, in order of preference; each turns its value into a phrase. */
const KEYED: [string, (v: unknown, o: Record<string, unknown>) => string | null][] = [
  [
    'verdict',
    (v, o) => (typeof v === 'string' ? `verdict: ${v}${typeof o.reason === 'string' ? ` — ${o.reason}` : ''}` : isObject(v) ? objectHeadline(v) : null),
  ],
  [
    'needsRetrieval',
    (v, o) => (typeof v === 'boolean' ? `${v ? 'needs retrieval' : 'no retrieval needed'}${typeof o.reason === 'string' ? ` — ${o.reason}` : ''}` : null),
  ],
  ['stop', (v, o) => (typeof v === 'boolean' ? `${v ? 'stop' : 'continue'}${typeof o.reason === 'string' ? ` — ${o.reason}` : ''}` : null)],
  ['mode', (v) => (typeof v === 'string' ? `mode ${v}` : null)],
  ['action', (v) => (typeof v === 'string' ? `action: ${v}` : null)],
  ['decision', (v, o) => (typeof v === 'string' ? `decision: ${v}${typeof o.reason === 'string' ? ` — ${o.reason}` : ''}` : null)],
  ['satisfied', (v, o) => (typeof v === 'boolean' ? `${v ? 'satisfied' : 'not satisfied'}${typeof o.reason === 'string' ? ` — ${o.reason}` : ''}` : null)],
  ['domain', (v) => (typeof v === 'string' ? `domain ${v}` : null)],
  ['answer', (v) => answerPhrase(v)],
  ['query', (v) => (typeof v === 'string' && v ? `query: ${v}` : null)],
  ['aside', (v) => (typeof v === 'string' && v ? v : null)],
  ['reason', (v) => (typeof v === 'string' && v ? v : null)],
  ['passRate', (v) => (typeof v === 'number' ? `pass rate ${Math.round(v * 100)}%` : null)],
];

function answerPhrase(v: unknown): string | null {
  if (typeof v === 'string') return v.trim() ? `answer: ${v}` : 'abstained';
  if (Array.isArray(v)) return v.length ? `answer: ${v.map(String).join(', ')}` : 'no answer';
  if (isObject(v) && typeof v.text === 'string') return v.text.trim() ? `answer: ${v.text}` : 'abstained';
  return null;
}

/** Lists that say nothing about what a step found. */
const BOOKKEEPING = new Set(['usage', 'calls', 'messages', 'notes']);

function objectHeadline(o: Record<string, unknown>): string | null {
  // Stages that record {usage, output}: summarise the output.
  if ('usage' in o && isObject(o.output)) return objectHeadline(o.output);
  for (const [key, phrase] of KEYED) {
    if (!(key in o)) continue;
    const text = phrase(o[key], o);
    if (text) return clip(text);
  }
  // A lone list under a key ("items", "nodes", "triples"): count it.
  const lists = Object.entries(o).filter(([k, v]) => Array.isArray(v) && !BOOKKEEPING.has(k)) as [string, unknown[]][];
  if (lists.length)
    return clip(
      lists
        .slice(0, 3)
        .map(([k, v]) => `${v.length} ${k}`)
        .join(', '),
    );
  return null;
}
