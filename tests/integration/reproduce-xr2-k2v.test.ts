import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb } from '@/lib/db/client';
import { generateQuestionSet } from '@/lib/eval/generate';
import { driveEvalJob } from '@/lib/eval/jobs/driver';
import { reproductionView, startReproduction, type ReproductionView } from '@/lib/reproduce';
import { getRunRecord, type RunRecord } from '@/lib/runs/read';

/**
 * X-R2's Table 2 and K2V's reward forms run offline on a generated set as
 * reproduction jobs; each row's runs show its ablation in config and trace.
 */

afterAll(closeDb);

async function reproduce(table: string, set: string, limit: number): Promise<{ view: ReproductionView; runs: Map<string, RunRecord[]> }> {
  const job = await startReproduction(table, { set, limit, backend: 'offline', seed: '1' }, { lock: true });
  expect(await driveEvalJob(job.id, { mode: 'inline', lock: job.lock })).toBe('finished');
  const view = await reproductionView(job.id);
  const runs = new Map<string, RunRecord[]>();
  for (const row of view.rows) runs.set(row.label, await Promise.all(row.runs.map((id) => getRunRecord({ id }))));
  return { view, runs };
}

const set = `reproduce-xr2-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  await generateQuestionSet({ generator: 'biomedhop', name: set, seed: 'xr2-k2v', count: 2 });
}, 120_000);

describe('X-R2 Table 2', () => {
  let view: ReproductionView;
  let runs: Map<string, RunRecord[]>;
  beforeAll(async () => {
    ({ view, runs } = await reproduce('xr2-table2', set, 2));
  }, 600_000); // 6 rows × 2 X-R2 runs, offline

  it("fills every row beside the paper's figures, labelled offline", () => {
    expect(view.job.offline).toBe(true);
    expect(view.rows.map((r) => r.label)).toEqual([
      'Full (default)',
      'w/o KG',
      'w/o Entity',
      'w/o Parametric',
      'KG shuffled',
      'T_max = 1',
      'Full (default) + Hopscope aids',
    ]);
    for (const row of view.rows) expect(row.n).toBe(2);
    expect(view.rows[4].paper['Overall Acc.']).toBe(61.1);
  });

  it("each row's runs have its component off: kg channel skipped, the shuffle recorded, one iteration", () => {
    for (const run of runs.get('w/o KG')!) {
      expect((run.config as { switches: { kg: boolean } }).switches.kg).toBe(false);
      expect(run.evidence.filter((e) => e.channel === 'kg')).toEqual([]);
      const kg = run.steps.filter((s) => s.kind === 'channel.kg');
      expect(kg.length).toBeGreaterThan(0);
      for (const s of kg) expect(s.status).toBe('skipped');
    }
    for (const run of runs.get('KG shuffled')!) {
      expect((run.config as { kgShuffle: unknown }).kgShuffle).toBeTruthy();
      expect(run.steps.some((s) => s.kind === 'channel.kg-shuffle')).toBe(true);
    }
    for (const run of runs.get('T_max = 1')!) expect(run.steps.filter((s) => s.kind === 'xr2.iteration')).toHaveLength(1);
    for (const run of runs.get('Full (default)')!) expect(run.steps.some((s) => s.kind === 'channel.kg-shuffle')).toBe(false);
  });

  it('records where a run departs from the paper with every answer: nothing for X-R2 at its defaults, the aids that acted in the aids row', () => {
    const deviations = (run: RunRecord) => (run.answer as { extra?: { deviations?: string[] } }).extra?.deviations ?? [];
    for (const run of runs.get('Full (default)')!) expect(deviations(run)).toEqual([]);
    for (const run of runs.get('Full (default) + Hopscope aids')!) {
      expect(deviations(run).length).toBeGreaterThan(0);
      expect(deviations(run).every((d) => d.startsWith('Hopscope aid'))).toBe(true);
    }
  });
});

describe('K2V reward forms', () => {
  it("verifies each row's runs when the job completes and reports every reward form", async () => {
    const { view } = await reproduce('k2v-rewards', set, 1);
    expect(view.rows.map((r) => r.label)).toEqual(['KG-RAG runs', 'X-R2 runs']);
    expect(view.metrics.map((m) => m.key)).toEqual(['passRate', 'generalPassRate', 'format', 'answer', 'plain', 'gated']);
    for (const row of view.rows) {
      expect(row.n).toBe(1);
      expect(typeof row.ours.passRate).toBe('number');
      expect(row.ours.format).toBeLessThanOrEqual(0.75);
    }
  }, 300_000);
});
