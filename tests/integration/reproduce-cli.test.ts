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
    timeout: 540_000,
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
    expect(list.find((t) => t.id === 'regram-table9')!.rows.map((r) => [r.label, r.params])).toEqual([
      ['ReGraM', {}],
      ['w/o MMR', { mmr: false }],
      ['ReGraM + Hopscope aids', {}],
    ]);
  });

  it("<table> --set … --json: the paper's rows and figures beside ours, each row with runs that have its ablation", async () => {
    const name = `reproduce-${randomUUID().slice(0, 8)}`;
    expect(cli('generate', 'biomedhop', '--seed', '7', '--count', '4', '--name', name).status).toBe(0);
    const { status, stdout, stderr } = cli('reproduce', 'regram-table4', '--set', name, '--limit', '2', '--seed', '3', '--backend', 'offline', '--json');
    expect(status, stderr).toBe(0);
    const out = JSON.parse(stdout);
    expect(out).toMatchObject({ table: 'regram-table4', paper: 'ReGraM (regram.txt) Table 4', engine: 'offline-engine' });
    expect(out.metrics.map((m: { key: string }) => m.key)).toEqual(['accuracy', 'abstainRate']);
    expect(out.rows.map((r: { label: string }) => r.label)).toEqual(['ReGraM', 'w/o Domain Prior', 'w/o Multihop', 'ReGraM + Hopscope aids']);
    const [full, noPrior, noMultihop] = out.rows;
    expect(full.paper['MedQA SAQ']).toBe(51.03);
    expect(noPrior.config.overrides).toEqual({ domainPrior: false });
    for (const row of out.rows) {
      expect(row.n).toBe(2);
      expect(row.runs).toHaveLength(2);
      expect(typeof row.ours.accuracy).toBe('number');
    }
    // The paper's rows run without Hopscope's aids; the one row no paper has runs with them.
    const aidsOn = async (id: string) => ((await getRunRecord({ id })).config as { switches: { aids: boolean } }).switches.aids;
    for (const id of full.runs) expect(await aidsOn(id)).toBe(false);
    for (const id of out.rows.at(-1).runs) expect(await aidsOn(id)).toBe(true);
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
    const { rows } = await getPool().query<{ reproduce: string; total: number }>(`select params->>'reproduce' reproduce, total from eval_jobs where id = $1`, [
      out.job,
    ]);
    expect(rows[0]).toEqual({ reproduce: 'regram-table4', total: 8 });
  }, 240_000); // a CLI process that generates a set and runs eight ReGraM runs (three paper rows and the aids row)

  it("eigen1-table3b offline: each row's runs show its component off in the trace", async () => {
    const name = `reproduce-eigen1-${randomUUID().slice(0, 8)}`;
    expect(cli('generate', 'biomedhop', '--seed', '11', '--count', '3', '--name', name).status).toBe(0);
    const { status, stdout, stderr } = cli('reproduce', 'eigen1-table3b', '--set', name, '--limit', '2', '--seed', '5', '--backend', 'offline', '--json');
    expect(status, stderr).toBe(0);
    const out = JSON.parse(stdout);
    expect(out).toMatchObject({ table: 'eigen1-table3b', paper: 'EIGEN-1 (eigen1.txt) Table 3 (b)', engine: 'offline-engine' });
    expect(out.rows.map((r: { label: string }) => r.label)).toEqual([
      'Full system',
      '– (Monitor, Querier, Injector)',
      '– Querier',
      '– Injector',
      '– HSR',
      '– QAIR',
      'Full system + Hopscope aids',
    ]);
    expect(out.rows[1].paper).toEqual({ 'Accuracy (%)': 48.5, 'Tokens (K)': 461.3, Steps: 95.3 });
    const runsOf = async (label: string) => {
      const row = out.rows.find((r: { label: string }) => r.label === label);
      expect(row.runs).toHaveLength(2);
      return Promise.all((row.runs as string[]).map((id) => getRunRecord({ id })));
    };
    type Run = Awaited<ReturnType<typeof getRunRecord>>;
    const steps = (runs: Run[], kind: string) => runs.flatMap((r) => r.steps.filter((s) => s.kind === kind));
    const generationInputs = (runs: Run[]) => steps(runs, 'eigen1.generation').map((s) => s.input as Record<string, unknown>);

    const full = await runsOf('Full system');
    expect(steps(full, 'eigen1.explicit-rag')).toHaveLength(0);
    expect(steps(full, 'eigen1.monitor').length).toBeGreaterThan(0);
    expect(generationInputs(full).every((i) => i.monitor === true && i.querier === true && i.injector === true)).toBe(true);

    // – Monitor (explicit RAG): one up-front retrieval per run, no monitor windows, no triggers, every generation unwatched.
    const noMonitor = await runsOf('– (Monitor, Querier, Injector)');
    for (const run of noMonitor) {
      expect((run.config as { params: { monitor: boolean } }).params.monitor).toBe(false);
      expect(run.steps.filter((s) => s.kind === 'eigen1.explicit-rag').map((s) => s.status)).toEqual(['succeeded']);
    }
    for (const kind of ['eigen1.monitor', 'eigen1.injection', 'eigen1.querier', 'eigen1.injector']) expect(steps(noMonitor, kind)).toHaveLength(0);
    expect(generationInputs(noMonitor).every((i) => i.monitor === false && i.maxInjections === 0)).toBe(true);

    // – Querier: every trigger's query is its window, with the querier step skipped; – Injector: records spliced raw.
    const noQuerier = await runsOf('– Querier');
    expect(steps(noQuerier, 'eigen1.querier').length).toBeGreaterThan(0);
    expect(steps(noQuerier, 'eigen1.querier').every((s) => s.status === 'skipped')).toBe(true);
    expect(steps(noQuerier, 'eigen1.injection').every((s) => (s.output as { queryBy: string }).queryBy === 'window')).toBe(true);
    const noInjector = await runsOf('– Injector');
    expect(steps(noInjector, 'eigen1.injector').length).toBeGreaterThan(0);
    expect(steps(noInjector, 'eigen1.injector').every((s) => s.status === 'skipped')).toBe(true);
    expect(steps(noInjector, 'eigen1.injection').every((s) => (s.output as { writtenBy: string }).writtenBy === 'raw-retrieval')).toBe(true);
    expect(steps(noInjector, 'eigen1.querier').every((s) => s.status === 'succeeded')).toBe(true);

    expect(steps(await runsOf('– HSR'), 'eigen1.hsr').map((s) => s.status)).toEqual(['skipped', 'skipped']);
    const noQair = await runsOf('– QAIR');
    expect(steps(noQair, 'eigen1.qair').map((s) => (s.input as { qair: boolean }).qair)).toEqual([false, false]);
    expect(steps(noQair, 'eigen1.qair-round')).toHaveLength(2);
  }, 600_000); // a CLI process that generates a set and runs twelve EIGEN-1 runs

  it('an unknown table exits with a message naming the catalogue', () => {
    const { status, stderr } = cli('reproduce', 'no-such-table', '--set', 'x');
    expect(status).not.toBe(0);
    expect(stderr).toContain('regram-table9');
  });
});
