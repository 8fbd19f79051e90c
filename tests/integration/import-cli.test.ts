import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../support/test-db';

let db: Awaited<ReturnType<typeof createScratchDatabase>>;

beforeAll(async () => {
  db = await createScratchDatabase('import_cli');
});

afterAll(async () => {
  await db.drop();
});

function cli(...args: string[]) {
  const result = spawnSync(path.resolve('node_modules/.bin/tsx'), ['scripts/import.ts', ...args], {
    env: { ...process.env, DATABASE_URL: db.url },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('npm run import', () => {
  it('imports a graph and prints the summary table', () => {
    const { status, stdout } = cli('demo');
    expect(status).toBe(0);
    expect(stdout).toMatch(/CtD\s+Compound – treats – Disease\s+14/);
    expect(stdout).toMatch(/edges\s+136/);
    expect(stdout).toMatch(/rate\s+[\d,]+ edges\/s/);
    expect(stdout).toContain('knowledge base: demo graph (not Hetionet): 66 nodes, 136 edges');
  });

  it('exits 2 with file:line: reason for a malformed file', () => {
    const { status, stderr } = cli('triples', '--file', 'tests/fixtures/import/triples-bad-row.csv');
    expect(status).toBe(2);
    expect(stderr).toContain('triples-bad-row.csv:3: expected 3 columns like the header, found 2');
  });

  it('exits 2 with the usage for a usage error', () => {
    const { status, stderr } = cli('hetionet');
    expect(status).toBe(2);
    expect(stderr).toContain('hetionet needs --nodes');
    expect(stderr).toContain('usage: npm run import');
  });
});
