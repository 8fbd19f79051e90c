import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, getPool } from '@/lib/db/client';
import { CATALOGUE } from '@/lib/reproduce';
import { getRunRecord } from '@/lib/runs/read';

afterAll(closeDb);

/** The CLI against the test database (the one the global setup loaded with the KG). */
function cli(...args: string[]) {
  const result = spawnSync(path.resolve('node_modules/.bin/tsx'), ['scripts/hopscope.ts', ...args], {
    env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL },
    encoding: 'utf8',
    timeout: 240_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('npm run hopscope -- reproduce', () => {
  it('--list --json: the catalogue, with a table for every seed paper', () => {
    const { status, stdout } = cli('reproduce', '--list', '--json');
    expect(status).toBe(0);
    const list = JSON.parse(stdout) as { id: string; seed: string; rows: { label: string; params: Record<string, unknown> }[] }[];
    expect(list.map((t) => t.id)).toEqual(CATALOGUE.map((t) => t.id));
    expect(new Set(list.map((t) => t.seed))).toEqual(new Set(['xr2', 'regram', 'bioweave', 'eigen1', 'k2v']));
    expect(list.find((t) => t.id === 'regram-table9')!.rows.map((r) => [r.label, r.params])).toEqual([['ReGraM', {}], ['w/o MMR', { mmr: false }]]);
  });

  it('<table> --set … --json: the paper\'s rows and figures beside ours, each row with runs that have its ablation', async () => {
    const name = `reproduce-${randomUUID().slice(0, 8)}`;
    expect(cli('generate', 'biomedhop', '--seed', '7', '--count', '4', '--name', name).status).toBe(0);
    const { status, stdout, stderr } = cli('reproduce', 'regram-table4', '--set', name, '--limit', '2', '--seed', '3', '--backend', 'offline', '--json');
    expect(status, stderr).toBe(0);
    const out = JSON.parse(stdout);
    expect(out).toMatchObject({ table: 'regram-table4', paper: 'ReGraM (regram.txt) Table 4', engine: 'offline-engine' });
    expect(out.metrics.map((m: { key: string }) => m.key)).toEqual(['accuracy', 'abstainRate']);
    expect(out.rows.map((r: { label: string }) => r.label)).toEqual(['ReGraM', 'w/o Domain Prior', 'w/o Multihop']);
    const [full, noPrior, noMultihop] = out.rows;
    expect(full.paper['MedQA SAQ']).toBe(51.03);
    expect(noPrior.config.overrides).toEqual({ domainPrior: false });
    for (const row of out.rows) {
      expect(row.n).toBe(2);
      expect(row.runs).toHaveLength(2);
      expect(typeof row.ours.accuracy).toBe('number');
    }
    // The runs behind a row have its component off, in config and trace.
    for (const id of noPrior.runs) {
      const run = await getRunRecord({ id });
      expect((run.config as { params: { domainPrior: boolean } }).params.domainPrior).toBe(false);
      expect(run.steps.find((s) => s.kind === 'regram.domain')!.status).toBe('skipped');
    }
    for (const id of noMultihop.runs) {
      const run = await getRunRecord({ id });
      expect(run.steps.find((s) => s.kind === 'regram.decompose')!.status).toBe('skipped');
    }
    for (const id of full.runs) {
      const run = await getRunRecord({ id });
      expect(run.steps.find((s) => s.kind === 'regram.domain')!.status).toBe('succeeded');
    }
    // One evaluation job, marked with its table, holds the runs (so `eval --resume` continues it).
    const { rows } = await getPool().query<{ reproduce: string; total: number }>(`select params->>'reproduce' reproduce, total from eval_jobs where id = $1`, [out.job]);
    expect(rows[0]).toEqual({ reproduce: 'regram-table4', total: 6 });
  }, 240_000); // a CLI process that generates a set and runs six ReGraM runs

  it('an unknown table exits with a message naming the catalogue', () => {
    const { status, stderr } = cli('reproduce', 'no-such-table', '--set', 'x');
    expect(status).not.toBe(0);
    expect(stderr).toContain('regram-table9');
  });
});
