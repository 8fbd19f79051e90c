// `npm run import -- <what> [options]`: loads knowledge into the database (embedded
// PostgreSQL unless DATABASE_URL is set). Exit status 2 for usage errors and
// malformed files (file:line: reason), 1 for anything else.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { storeCalibration } from '../lib/channels/doc-relevance';
import { ensureDatabase } from '../lib/db/bootstrap';
import { resolveDataDir } from '../lib/config';
import {
  ImportError,
  describeKnowledge,
  defaultDataFiles,
  importDiseaseOntology,
  importGeneInfo,
  importHetionet,
  importPrimeKg,
  importPubmedqa,
  importTriples,
  loadDefaultKnowledge,
  loadDemoGraph,
  type GraphImportSummary,
  type HetionetFiles,
} from '../lib/kg/import';
import { graphSummaryTable, progressPrinter, table } from '../lib/kg/import/report';
import { metaedgeDescriptions } from '../lib/kg/store';

const USAGE = `usage: npm run import -- <command> [options]

  hetionet --dir <dir>                 Hetionet release files in <dir> (or <dir>/hetionet)
  hetionet --nodes <tsv> --edges <sif[.gz]> [--metagraph <json|metaedges.tsv>]
  triples --file <tsv|csv>             your own graph: head, relation, tail[, head_kind, tail_kind]
  primekg --file <kg.csv[.gz]>         PrimeKG as published (undirected duplicates folded)
  profiles --dir <data dir>            Disease Ontology descriptions and NCBI gene_info
  documents --file <pubmedqa.json.gz>  PubMedQA abstracts as documents and passages
  demo                                 the small demo graph shipped with Hopscope
  default [--dir <data dir>]           what the app loads on first start

  graph imports also take --source <name> and --version <label>;
  each replaces what it loads, atomically.`;

class UsageError extends Error {}

const EDGE_FILES = ['hetionet-v1.0-edges.sif.gz', 'hetionet-v1.0-edges-subset.sif.gz'];

/** The nodes, edges and metagraph files of a Hetionet-layout directory; the full edge file wins over the subset. */
function hetionetDir(dir: string): HetionetFiles {
  const base = fs.existsSync(path.join(dir, 'hetionet')) ? path.join(dir, 'hetionet') : dir;
  const nodesFile = path.join(base, 'hetionet-v1.0-nodes.tsv');
  if (!fs.existsSync(nodesFile)) throw new UsageError(`no hetionet-v1.0-nodes.tsv in ${base}`);
  const edges = EDGE_FILES.find((f) => fs.existsSync(path.join(base, f))) ?? fs.readdirSync(base).find((f) => /\.sif(\.gz)?$/.test(f));
  if (!edges) throw new UsageError(`no edges .sif or .sif.gz in ${base}`);
  return { nodesFile, edgesFile: path.join(base, edges) };
}

async function printGraph(summary: GraphImportSummary) {
  console.log(`\n${summary.source} ${summary.version}\n${graphSummaryTable(summary, await metaedgeDescriptions())}`);
}

function parseArguments(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        dir: { type: 'string' },
        file: { type: 'string' },
        nodes: { type: 'string' },
        edges: { type: 'string' },
        metagraph: { type: 'string' },
        source: { type: 'string' },
        version: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    throw new UsageError(`${(e as Error).message}\n\n${USAGE}`);
  }
}

async function main(argv: string[]) {
  const { positionals, values } = parseArguments(argv);
  const [command] = positionals;
  if (values.help || !command) throw new UsageError(USAGE);
  const need = (value: string | undefined, flag: string) => {
    if (!value) throw new UsageError(`${command} needs --${flag}\n\n${USAGE}`);
    return path.resolve(value);
  };

  const db = await ensureDatabase();
  const progress = progressPrinter(process.stderr);
  const opts = { onProgress: progress.update };
  try {
    switch (command) {
      case 'hetionet': {
        const files: HetionetFiles = values.dir
          ? { ...hetionetDir(path.resolve(values.dir)), metagraphFile: values.metagraph && path.resolve(values.metagraph) }
          : {
              nodesFile: need(values.nodes, 'nodes'),
              edgesFile: need(values.edges, 'edges'),
              metagraphFile: values.metagraph && path.resolve(values.metagraph),
            };
        await printGraph(await importHetionet({ ...files, source: values.source, version: values.version }, opts));
        break;
      }
      case 'triples':
        await printGraph(await importTriples(need(values.file, 'file'), { ...opts, source: values.source, version: values.version }));
        break;
      case 'primekg':
        await printGraph(await importPrimeKg(need(values.file, 'file'), { ...opts, version: values.version }));
        break;
      case 'demo':
        await printGraph(await loadDemoGraph(opts));
        break;
      case 'profiles': {
        const files = defaultDataFiles(need(values.dir, 'dir'));
        if (!files.diseaseOntology && !files.geneInfo)
          throw new UsageError(`no entities/disease-ontology-descriptions.tsv or entities/Homo_sapiens.gene_info.gz in ${values.dir}`);
        const rows: string[][] = [];
        for (const [file, run] of [
          [files.diseaseOntology, importDiseaseOntology],
          [files.geneInfo, importGeneInfo],
        ] as const) {
          if (!file) continue;
          const s = await run(file, opts);
          rows.push([s.source, s.profiles.toLocaleString('en'), s.aliases.toLocaleString('en'), `${(s.durationMs / 1000).toFixed(1)} s`]);
        }
        console.log(`\n${table(['source', 'profiles', 'aliases', 'time'], rows, [false, true, true, true])}`);
        break;
      }
      case 'documents': {
        const s = await importPubmedqa(need(values.file, 'file'), opts);
        // The document channel's relevance threshold is stored with the corpus: no run pays for it.
        await storeCalibration();
        console.log(
          `\n${table(['source', 'documents', 'passages', 'time'], [[s.source, String(s.documents), String(s.passages), `${(s.durationMs / 1000).toFixed(1)} s`]], [false, true, true, true])}`,
        );
        break;
      }
      case 'default': {
        const dataDir = values.dir ? path.resolve(values.dir) : resolveDataDir();
        const s = await loadDefaultKnowledge({ ...opts, dataDir, log: (line) => console.error(line) });
        if (s.imported.includes('pubmedqa')) await storeCalibration();
        console.log(s.imported.length ? `imported: ${s.imported.join(', ')}` : 'already loaded; nothing to do');
        break;
      }
      default:
        throw new UsageError(`unknown command '${command}'\n\n${USAGE}`);
    }
    console.log(`\nknowledge base: ${await describeKnowledge()}`);
  } finally {
    progress.close();
    await db.stop();
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (e: unknown) => {
    if (e instanceof ImportError || e instanceof UsageError) {
      console.error(e instanceof ImportError ? `import failed, nothing changed: ${e.file}${e.line === undefined ? '' : `:${e.line}`}: ${e.reason}` : e.message);
      process.exit(2);
    }
    console.error(`import failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exit(1);
  },
);
