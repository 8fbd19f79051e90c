// `npm run hopscope -- sets import|list`: question sets from benchmark files, and what is stored.
import { z } from 'zod';
import { listQuestionSets, SetNameTaken, type QuestionSetSummary } from '../../lib/eval/sets';
import { importQuestionSet, SET_FORMATS, SetImportError } from '../../lib/eval/import';
import { SetUploadSchema } from '../../lib/eval/import/upload';
import { parseArgs, UsageError } from './args';
import { InvalidInputError } from '../../lib/base/errors';
import { withDatabase, withKnowledgeBase } from './session';

export const SETS_USAGE = `usage: npm run hopscope -- sets import --format <${SET_FORMATS.join('|')}> --file FILE --name NAME [--limit N] [--gold FILE] [--replace]
       npm run hopscope -- sets list
  --limit N   the first N questions of each family (each MIRAGE dataset, each MedDDx level)
  --gold F    PubMedQA only: the test ground truth; the set becomes that split
  --replace   replace the set of that name and format (a name in use is refused otherwise)
  JSONL: one {"question", "answer", "options"?, "answer_type"?, "documents"?, "gold_nodes"?, "family"?, "id"?, "meta"?} per line
         (documented in lib/eval/import/jsonl.ts)`;

const ImportRequest = SetUploadSchema.extend({
  file: z.string().min(1),
  gold: z.string().min(1).optional(),
  replace: z.boolean(),
});

export async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    // Listing reads what is stored: no knowledge base needed.
    if (command === 'list') return await withDatabase(listCommand, { knowledge: false });
    if (command === 'import') {
      const request = parseImport(rest);
      return await withKnowledgeBase(() => importCommand(request));
    }
    throw new UsageError(SETS_USAGE);
  } catch (e) {
    if (e instanceof UsageError || e instanceof SetImportError || e instanceof SetNameTaken || e instanceof InvalidInputError) {
      console.error(`error: ${e.message}`);
      return 2;
    }
    throw e;
  }
}

function parseImport(argv: string[]): z.infer<typeof ImportRequest> {
  const { values, flags, positional } = parseArgs(argv, { values: ['format', 'file', 'name', 'limit', 'gold'], flags: ['replace'] });
  if (positional.length) throw new UsageError(`unexpected argument "${positional[0]}"\n${SETS_USAGE}`);
  const parsed = ImportRequest.safeParse({ ...values, replace: flags.has('replace') });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`--${issue.path.join('.')}: ${issue.message}\n${SETS_USAGE}`);
  }
  if (parsed.data.gold && parsed.data.format !== 'pubmedqa') throw new UsageError('--gold applies to --format pubmedqa only');
  return parsed.data;
}

async function importCommand(request: z.infer<typeof ImportRequest>): Promise<number> {
  const set = await importQuestionSet(
    { format: request.format, file: request.file, name: request.name, limit: request.limit, goldFile: request.gold },
    { replace: request.replace },
  );
  console.log(describeSet(set));
  return 0;
}

async function listCommand(): Promise<number> {
  const sets = await listQuestionSets();
  if (!sets.length) {
    console.log('No question sets yet: `sets import` a benchmark or `generate biomedhop|k2v` one.');
    return 0;
  }
  const rows = sets.map((s) => [s.name, s.source, String(s.counts.total), Object.keys(s.counts.byFamily).join(', '), s.license ?? '']);
  console.log(table(['name', 'source', 'questions', 'families', 'license'], rows));
  return 0;
}

/** The set's name, source and license, then its families × answer types grid. */
export function describeSet(set: QuestionSetSummary): string {
  const types = ANSWER_TYPE_ORDER.filter((t) => t in set.counts.byAnswerType);
  // Sorted: the counts come back from a jsonb column, which keeps no key order.
  const rows = Object.entries(set.counts.byFamilyAndType)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([family, byType]) => [family, ...types.map((t) => String(byType[t] ?? 0)), String(set.counts.byFamily[family])]);
  rows.push(['total', ...types.map((t) => String(set.counts.byAnswerType[t])), String(set.counts.total)]);
  return `Set "${set.name}" (${set.source}): ${set.counts.total} questions; license: ${set.license ?? 'unknown'}\n${table(['family', ...types, 'total'], rows)}`;
}

const ANSWER_TYPE_ORDER = ['mcq', 'open', 'yesno', 'count', 'list'];

/** Columns padded to width; numeric columns (integers, decimals, percentages, "—" for none) right-aligned. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((r) => /^(-?\d+(\.\d+)?%?|—)$/.test(r[i])));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}
