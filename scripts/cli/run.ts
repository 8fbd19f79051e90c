// `npm run hopscope -- run`: one method on one question, executed in this process, with its trace.
import fs from 'node:fs';
import { authConfigured, readEnv, resolveDataDir } from '../../lib/config';
import { userForToken } from '../../lib/auth/users';
import { parseSwitchSpec } from '../../lib/channels/switches';
import { ensureDatabase } from '../../lib/db/bootstrap';
import { loadDefaultKnowledge } from '../../lib/kg/import';
import { executeRun } from '../../lib/runs/executor';
import { getRunRecord } from '../../lib/runs/read';
import { stopQueue } from '../../lib/runs/queue';
import { createRun } from '../../lib/runs/service';
import { parseArgs, parseOptions, parseParams, UsageError } from './args';
import { traceOutline } from './outline';
import { RUN_USAGE } from './usage';

export async function run(argv: string[]): Promise<number> {
  const { values, flags } = parseArgs(argv, {
    values: ['method', 'question', 'switches', 'options', 'params', 'document', 'backend', 'question-id'],
    flags: ['json', 'kg-shuffle'],
  });
  if (!values.method || (!values.question && !values['question-id'])) throw new UsageError(RUN_USAGE);
  const body = {
    method: values.method,
    question: values.question,
    questionId: values['question-id'],
    switches: values.switches ? usage(() => parseSwitchSpec(values.switches)) : undefined,
    options: values.options ? parseOptions(values.options) : undefined,
    params: values.params ? parseParams(values.params) : undefined,
    kgShuffle: flags.has('kg-shuffle') || undefined,
    documents: values.document ? [{ title: values.document, text: readDocument(values.document) }] : undefined,
    backend: values.backend,
  };
  const env = readEnv();
  const db = await ensureDatabase(env);
  try {
    await loadDefaultKnowledge({ dataDir: resolveDataDir(env), log: (line) => console.error(`[hopscope] ${line}`) });
    const { id } = await createRun(body, { enqueue: false, ownerId: await cliOwner() });
    await executeRun(id);
    const run = await getRunRecord({ id });
    if (flags.has('json')) console.log(JSON.stringify(run, null, 2));
    else printRun(run);
    return run.status === 'succeeded' ? 0 : 1;
  } finally {
    await stopQueue();
    await db.stop();
  }
}

/** With sign-in on, the CLI acts for the user whose API token HOPSCOPE_TOKEN holds (exit 2 without a valid one). */
async function cliOwner(): Promise<string | null> {
  if (!authConfigured()) return null;
  const token = process.env.HOPSCOPE_TOKEN;
  const user = token ? await userForToken(token) : null;
  if (!user) throw new UsageError('sign-in is on (AUTH_SECRET): set HOPSCOPE_TOKEN to an API token (npm run hopscope -- users token --email …)');
  return user.id;
}

/** The `--document` file's text; one that cannot be read is invalid input (exit code 2), not a failure. */
function readDocument(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`--document ${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** A malformed switch or option spec is invalid input (exit code 2), like any other. */
function usage<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
}

function printRun(run: Awaited<ReturnType<typeof getRunRecord>>) {
  const answer = run.answer as { text?: string; abstained?: boolean; rationale?: string; evidenceIds?: string[] } | null;
  const config = run.config as { switches: Record<string, boolean>; backend: { model: string } };
  const off = Object.entries(config.switches)
    .filter(([, on]) => !on)
    .map(([c]) => c);
  console.log(`Question: ${run.question}`);
  console.log(`Method:   ${run.method}   backend: ${config.backend.model}   switches off: ${off.length ? off.join(', ') : 'none'}`);
  console.log(`Status:   ${run.status}${run.error ? ` — ${run.error}` : ''}`);
  if (answer) {
    console.log(`Answer:   ${answer.abstained ? '(abstained) ' : ''}${answer.text ?? ''}`);
    if (answer.rationale) console.log(`Why:      ${answer.rationale}`);
    console.log(`Evidence: ${answer.evidenceIds?.length ?? 0} supporting record(s) of ${run.evidence.length} retrieved`);
  }
  console.log('\nTrace:');
  console.log(traceOutline(run.steps));
  const cost = run.cost as { modelCalls: number; tokensIn: number; tokensOut: number; wallMs: number } | null;
  if (cost) console.log(`\nCost: ${cost.modelCalls} model call(s), ${cost.tokensIn} tokens in, ${cost.tokensOut} out, ${cost.wallMs} ms`);
  console.log(`Run id: ${run.id}   share id: ${run.shareId}`);
}
