import path from 'node:path';
import { ImportError } from './errors';
import { writeEntityKnowledge, type EntityImportSummary, type EntityKnowledge } from './entity-writer';
import { readLines } from './lines';
import type { ImportOptions } from './options';

const REQUIRED = [
  'GeneID',
  'Symbol',
  'Synonyms',
  'chromosome',
  'map_location',
  'description',
  'type_of_gene',
  'Full_name_from_nomenclature_authority',
  'Other_designations',
] as const;
type Column = (typeof REQUIRED)[number];

/** The file's rows are read by rules (which designations are kept): a change of rules imports them again. */
export const GENE_INFO_VERSION = 'gene_info; designations shortest first';

/**
 * Other designations run to dozens for some genes, many of them near-duplicates; a few carry the useful names, the
 * shortest first: the common name ("cytochrome P450 3A4", which pharmacologic classes are named by) before the long
 * descriptions.
 */
const MAX_DESIGNATIONS = 5;
const MAX_DESIGNATION_LENGTH = 100;

/**
 * NCBI gene_info for the graph's `Gene::<GeneID>` nodes: symbol, synonyms, full
 * name and a few other designations as aliases, and a one-line profile.
 */
export function importGeneInfo(file: string, opts: ImportOptions & { version?: string } = {}): Promise<EntityImportSummary> {
  return writeEntityKnowledge(
    {
      recordSource: 'profiles:ncbi-gene',
      version: opts.version ?? path.basename(file),
      file,
      profileSource: 'ncbi-gene',
      aliasSources: ['ncbi-symbol', 'ncbi-synonym', 'ncbi-full-name', 'ncbi-other-designation'],
      kind: 'Gene',
      read: (nodes) => readGeneInfo(file, nodes, opts),
    },
    opts,
  );
}

async function readGeneInfo(file: string, nodes: Map<string, string>, opts: ImportOptions): Promise<EntityKnowledge> {
  const knowledge: EntityKnowledge = { profiles: [], aliases: [], rowsRead: 0 };
  let columns: Map<string, number> | null = null;
  for await (const { number, text } of readLines(file, { phase: 'gene info', onProgress: opts.onProgress })) {
    if (!columns) {
      columns = readHeader(file, text);
      continue;
    }
    if (!text || text.startsWith('#')) continue;
    const cells = text.split('\t');
    if (cells.length !== columns.size)
      throw new ImportError(file, number, `expected ${columns.size} tab-separated columns like the header, found ${cells.length}`);
    const get = (c: Column) => {
      const v = cells[columns!.get(c)!].trim();
      return v === '-' ? '' : v;
    };
    const list = (c: Column) =>
      get(c)
        .split('|')
        .map((s) => s.trim())
        .filter((s) => s && s !== '-');
    if (!/^\d+$/.test(get('GeneID'))) throw new ImportError(file, number, `GeneID '${get('GeneID')}' is not a number`);
    knowledge.rowsRead++;
    const nodeId = `Gene::${get('GeneID')}`;
    if (!nodes.has(nodeId)) continue;

    const symbol = get('Symbol');
    const fullName = get('Full_name_from_nomenclature_authority') || get('description');
    const synonyms = list('Synonyms');
    const designations = list('Other_designations')
      .filter((d) => d.length <= MAX_DESIGNATION_LENGTH)
      .sort((a, b) => a.length - b.length)
      .slice(0, MAX_DESIGNATIONS);
    const named: [string[], string][] = [
      [[symbol], 'ncbi-symbol'],
      [synonyms, 'ncbi-synonym'],
      [[fullName], 'ncbi-full-name'],
      [designations, 'ncbi-other-designation'],
    ];
    for (const [names, source] of named) for (const alias of names) if (alias) knowledge.aliases.push({ nodeId, alias, source });
    knowledge.profiles.push({
      nodeId,
      text: geneProfile({ symbol, fullName, type: get('type_of_gene'), location: get('map_location') || get('chromosome'), synonyms, designations }),
    });
  }
  if (!columns) throw new ImportError(file, undefined, 'empty file');
  return knowledge;
}

/** "BRCA1 (breast cancer 1, early onset): protein-coding; chromosome 17q21; also known as BRCAI, BRCC1; other designations: …" */
function geneProfile(g: { symbol: string; fullName: string; type: string; location: string; synonyms: string[]; designations: string[] }): string {
  const parts = [
    g.type && g.type !== 'unknown' ? g.type : '',
    g.location ? `chromosome ${g.location}` : '',
    g.synonyms.length ? `also known as ${g.synonyms.join(', ')}` : '',
    g.designations.length ? `other designations: ${g.designations.join(', ')}` : '',
  ].filter(Boolean);
  const title = g.fullName ? `${g.symbol} (${g.fullName})` : g.symbol;
  return parts.length ? `${title}: ${parts.join('; ')}` : title;
}

/**
 * Current releases head the file with "#tax_id<TAB>GeneID…"; older ones (this
 * 2015 snapshot) with "#Format: tax_id GeneID … (tab is used as a separator…)".
 */
function readHeader(file: string, line: string): Map<string, number> {
  const body = line.replace(/^#\s*(Format:\s*)?/, '').replace(/\s*\(.*\)\s*$/, '');
  const names = body.includes('\t') ? body.split('\t') : body.split(/\s+/);
  const columns = new Map(names.map((n, i) => [n.trim(), i]));
  const missing = REQUIRED.filter((c) => !columns.has(c));
  if (missing.length) throw new ImportError(file, 1, `not a gene_info header: missing ${missing.join(', ')}`);
  return columns;
}
