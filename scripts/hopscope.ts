// `npm run hopscope -- <command>`: Hopscope from the command line.
//   run       one method on one question, with its trace
//   generate  a BioMedHop-style or K2V question set from the KG      (scripts/cli/generate.ts)
//   sets      import benchmark files as question sets, list them     (scripts/cli/sets.ts)
//   eval      a set × methods × switch grid, with the score tables  (scripts/cli/eval.ts)
//   verify    K2V checklist verification of a finished run          (scripts/cli/verify.ts)
//   reproduce the papers' ablation tables as experiments               (scripts/cli/reproduce.ts)
import fs from 'node:fs';
import { ZodError } from 'zod';
import { assertSafeText, clip } from '../lib/api/input';
import { ensureDatabase } from '../lib/db/bootstrap';
import { closeDb } from '../lib/db/client';
import { authConfigured, readEnv, resolveDataDir } from '../lib/config';
import { userForToken } from '../lib/auth/users';
import { loadDefaultKnowledge } from '../lib/kg/import';
import { parseSwitchSpec } from '../lib/channels/switches';
import { createRun } from '../lib/runs/service';
import { executeRun } from '../lib/runs/executor';
import { getRunRecord } from '../lib/runs/read';
import { InvalidInputError, NotFoundError } from '../lib/base/errors';
import { stopQueue } from '../lib/runs/queue';
import { parseArgs, parseOptions, parseParams, UsageError } from './cli/args';
import { traceOutline } from './cli/outline';
import * as evalCli from './cli/eval';
import * as generateCli from './cli/generate';
import * as setsCli from './cli/sets';
import * as verifyCli from './cli/verify';
import * as usersCli from './cli/users';
import * as reproduceCli from './cli/reproduce';

const RUN_USAGE = `usage: npm run hopscope -- run --method <direct|cot|kg-rag|xr2|regram|bioweave|eigen1> --question "…"
         [--switches kg=0,param=0] [--options A=…,B=…] [--params name=value,…] [--kg-shuffle]
         [--document FILE] [--backend auto|offline|openai] [--json]`;

const USAGE = `usage: npm run hopscope -- <run|generate|sets|eval|verify|reproduce|users> …   (each command without arguments prints its usage)
${RUN_USAGE}`;

/** Commands kept in their own modules: each parses its arguments and returns its exit code. */
const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  run: runCommand,
  generate: generateCli.run,
  sets: setsCli.run,
  eval: evalCli.run,
  verify: verifyCli.run,
  users: usersCli.run,
  reproduce: reproduceCli.run,
};

async function runCommand(argv: string[]) {
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
    await closeDb();
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
  const off = Object.entries(config.switches).filter(([, on]) => !on).map(([c]) => c);
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

async function main() {
  const [command, ...rest] = assertSafeText(process.argv.slice(2), 'the command line');
  const handler = command ? COMMANDS[command] : undefined;
  if (!handler) throw new UsageError(USAGE);
  return handler(rest);
}

/** Exits once stdout has drained: a piped `--json` of a large run would otherwise be cut short. */
function exitAfterFlush(code: number) {
  process.stdout.write('', () => process.exit(code));
}

main()
  .then((code) => exitAfterFlush(code ?? 0))
  .catch((e) => {
    // Exit codes as the README says: 2 for invalid input, 1 for anything else; a message never echoes a large input.
    const invalid = e instanceof UsageError || e instanceof InvalidInputError || e instanceof ZodError;
    const message = clip(e instanceof Error ? e.message : String(e), 2000);
    console.error(invalid ? `error: ${message}` : e instanceof NotFoundError ? `not found: ${message}` : `failed: ${message}`);
    exitAfterFlush(invalid ? 2 : 1);
  });
