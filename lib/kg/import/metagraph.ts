import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ImportError } from './errors';
import { readText } from './lines';

export interface MetaedgeDef {
  abbr: string;
  sourceKind: string;
  verb: string;
  targetKind: string;
  directed: boolean;
}

/** The schema of a graph: its node kinds (with abbreviations) and its metaedges by abbreviation. */
export interface Metagraph {
  kinds: Map<string, string>;
  metaedges: Map<string, MetaedgeDef>;
}

/** "Compound – treats – Disease"; arrows for directed metaedges: "Gene → regulates → Gene". */
export function describeMetaedge(m: MetaedgeDef): string {
  const sep = m.directed ? ' → ' : ' – ';
  return [m.sourceKind, m.verb, m.targetKind].join(sep);
}

/** Initials, the way Hetionet abbreviates kinds ("Side Effect" → "SE"), for kinds without an official abbreviation. */
export function abbreviateKind(kind: string): string {
  return (
    kind
      .split(/\s+/)
      .filter(Boolean)
      .map((w) => w[0].toUpperCase())
      .join('') || kind
  );
}

const METAGRAPH_NAMES = ['hetionet-v1.0-metagraph.json', 'metagraph.json', 'metaedges.tsv'];

/** The metagraph file shipped beside a nodes file, as in the Hetionet release layout. */
export function findMetagraph(dir: string): string | null {
  for (const name of METAGRAPH_NAMES) if (fs.existsSync(path.join(dir, name))) return path.join(dir, name);
  return null;
}

/** Reads the official `*-metagraph.json`, or `metaedges.tsv` (with `metanodes.tsv` beside it when present). */
export function readMetagraph(file: string): Metagraph {
  return file.endsWith('.json') ? readMetagraphJson(file) : readMetaedgesTsv(file);
}

const MetagraphJson = z.object({
  metanode_kinds: z.array(z.string()),
  metaedge_tuples: z.array(z.tuple([z.string(), z.string(), z.string(), z.enum(['both', 'forward', 'backward'])])),
  kind_to_abbrev: z.record(z.string(), z.string()),
});

function readMetagraphJson(file: string): Metagraph {
  let parsed: z.infer<typeof MetagraphJson>;
  try {
    parsed = MetagraphJson.parse(JSON.parse(readText(file)));
  } catch (e) {
    if (e instanceof ImportError) throw e;
    throw new ImportError(file, undefined, `not a Hetionet metagraph JSON: ${(e as Error).message.slice(0, 300)}`);
  }
  const abbrev = (name: string) => {
    const a = parsed.kind_to_abbrev[name];
    if (!a) throw new ImportError(file, undefined, `kind_to_abbrev has no entry for '${name}'`);
    return a;
  };
  const kinds = new Map(parsed.metanode_kinds.map((k) => [k, abbrev(k)]));
  const metaedges = new Map<string, MetaedgeDef>();
  for (const [sourceKind, targetKind, verb, direction] of parsed.metaedge_tuples) {
    // hetio's abbreviation rule: an arrow marks the direction of directed metaedges (Gr>G).
    const [s, v, t] = [abbrev(sourceKind), abbrev(verb), abbrev(targetKind)];
    const abbr = direction === 'forward' ? `${s}${v}>${t}` : direction === 'backward' ? `${s}<${v}${t}` : `${s}${v}${t}`;
    metaedges.set(abbr, { abbr, sourceKind, verb, targetKind, directed: direction !== 'both' });
  }
  return { kinds, metaedges };
}

/** `metaedges.tsv`: "Anatomy - expresses - Gene" / "Gene > regulates > Gene" and its abbreviation. */
function readMetaedgesTsv(file: string): Metagraph {
  const rows = tsvRows(file, ['metaedge', 'abbreviation']);
  const metaedges = new Map<string, MetaedgeDef>();
  for (const { line, cells } of rows) {
    const m = /^(.+?) ([-<>]) (.+?) \2 (.+)$/.exec(cells.metaedge);
    if (!m) throw new ImportError(file, line, `cannot read metaedge '${cells.metaedge}' (expected "Source - verb - Target")`);
    const [, sourceKind, sep, verb, targetKind] = m;
    metaedges.set(cells.abbreviation, { abbr: cells.abbreviation, sourceKind, verb, targetKind, directed: sep !== '-' });
  }
  const kinds = new Map<string, string>();
  const metanodes = path.join(path.dirname(file), 'metanodes.tsv');
  if (fs.existsSync(metanodes)) for (const { cells } of tsvRows(metanodes, ['metanode', 'abbreviation'])) kinds.set(cells.metanode, cells.abbreviation);
  for (const m of metaedges.values()) for (const k of [m.sourceKind, m.targetKind]) if (!kinds.has(k)) kinds.set(k, abbreviateKind(k));
  return { kinds, metaedges };
}

function tsvRows(file: string, required: string[]): { line: number; cells: Record<string, string> }[] {
  const [header, ...lines] = readText(file).split(/\r?\n/);
  const columns = header.split('\t');
  for (const r of required) if (!columns.includes(r)) throw new ImportError(file, 1, `header lacks column '${r}'`);
  return lines.flatMap((text, i) => (text.trim() ? [{ line: i + 2, cells: Object.fromEntries(text.split('\t').map((v, j) => [columns[j], v])) }] : []));
}
