// `npm run hopscope -- <command>`: Hopscope from the command line.
//   run       one method on one question, with its trace
//   generate  a BioMedHop-style or K2V question set from the KG      (scripts/cli/generate.ts)
//   sets      import benchmark files as question sets, list them     (scripts/cli/sets.ts)
//   eval      a set × methods × switch grid, with the score tables  (scripts/cli/eval.ts)
//   verify    K2V checklist verification of a finished run          (scripts/cli/verify.ts)
//   reproduce the papers' ablation tables as experiments               (scripts/cli/reproduce.ts)
import { ZodError } from 'zod';
import { assertSafeText, clip } from '../lib/api/input';
import { InvalidInputError, NotFoundError } from '../lib/base/errors';
import { UsageError } from './cli/args';
import { RUN_USAGE } from './cli/usage';

const USAGE = `usage: npm run hopscope -- <run|generate|sets|eval|verify|reproduce|users> …   (each command without arguments prints its usage)
${RUN_USAGE}`;

/**
 * Commands kept in their own modules, loaded when named: a command pays only for what it uses.
 * Each parses its arguments and returns its exit code.
 */
const COMMANDS: Record<string, () => Promise<{ run: (argv: string[]) => Promise<number> }>> = {
  run: () => import('./cli/run'),
  generate: () => import('./cli/generate'),
  sets: () => import('./cli/sets'),
  eval: () => import('./cli/eval'),
  verify: () => import('./cli/verify'),
  users: () => import('./cli/users'),
  reproduce: () => import('./cli/reproduce'),
};

async function main() {
  const [command, ...rest] = assertSafeText(process.argv.slice(2), 'the command line');
  const load = command && Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!load) throw new UsageError(USAGE);
  return (await load()).run(rest);
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
