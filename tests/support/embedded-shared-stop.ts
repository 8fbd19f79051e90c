// Run as a child process by tests/integration/db-embedded-secrets.test.ts: a server this process started
// is left up while another session uses it, and stopped once that session is gone. Prints what it saw, as JSON.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../lib/base/free-port';
import { canConnect, startEmbeddedPostgres } from '../../lib/db/embedded';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hopscope-pg-'));
fs.chmodSync(root, 0o755);
const db = await startEmbeddedPostgres({ dir: path.join(root, 'data', 'pg'), port: await freePort(), database: 'shared' });
const other = new pg.Client({ connectionString: db.url });
await other.connect();
const whileUsed = await db.stop();
const upWhileUsed = await canConnect(db.url);
await other.end();
const afterwards = await db.stop();
const upAfterwards = await canConnect(db.url);
console.log(JSON.stringify({ owned: db.owned, whileUsed, upWhileUsed, afterwards, upAfterwards }));
fs.rmSync(root, { recursive: true, force: true });
process.exit(0);
