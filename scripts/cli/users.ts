// `npm run hopscope -- users add --email E [--name N]` (password from HOPSCOPE_PASSWORD) and
// `users token --email E [--name N]`: accounts and API tokens for sign-in (AUTH_SECRET).
import { ensureDatabase } from '../../lib/db/bootstrap';
import { createApiToken, createUser } from '../../lib/auth/users';
import { parseArgs, UsageError } from './args';

const USAGE = `usage: HOPSCOPE_PASSWORD=… npm run hopscope -- users add --email EMAIL [--name NAME]
       npm run hopscope -- users token --email EMAIL [--name LABEL]   (prints a new API token once)`;

export async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values } = parseArgs(rest, { values: ['email', 'name'], flags: [] });
  if (!values.email || (command !== 'add' && command !== 'token')) throw new UsageError(USAGE);
  const db = await ensureDatabase();
  try {
    if (command === 'add') {
      const user = await createUser({ email: values.email, name: values.name, password: process.env.HOPSCOPE_PASSWORD ?? '' });
      console.log(`user ${user.email} created`);
    } else {
      console.log(await createApiToken(values.email, values.name ?? 'cli'));
    }
    return 0;
  } finally {
    await db.stop();
  }
}
