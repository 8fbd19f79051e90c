import { availableParallelism, loadavg } from 'node:os';
import { countStatements } from '../../lib/db/statements';
import { generateQuestionSet } from '../../lib/eval/generate';
import { deleteSetsNamed, readSetQuestionIds } from '../../lib/eval/store/sets';
import { OfflineBackend } from '../../lib/llm/offline-backend';
import { sharedKnowledgeLookups } from '../../lib/kg';
import { listMethods } from '../../lib/methods/registry';
import { executeRun } from '../../lib/runs/executor';
import { prepareRuns } from '../../lib/runs/prepare';
import { createRun } from '../../lib/runs/service';
import { deleteRuns } from '../../lib/runs/store/runs';
import { pingDatabase, runOutcomes, stepDurations, storedKb } from '../../lib/runs/store/measures';
import { percentile, round } from './timing';
import type { BenchModule, BenchRow } from './types';

/** A fixed, seeded question set: the same questions on the same graph every time. */
const SET = 'bench-methods';
const SEED = 'bench-methods';
const QUESTIONS = 10;

/**
 * Offline wall time per run and model calls per run of every registered method
 * over one seeded BioMedHop-style set (BioWeave's paper: at most 9 calls a
 * question). Runs go by question id, so the stored gold answer scores them. The
 * runs and the set are deleted afterwards so they do not crowd the lists.
 */
export const methodRuns: BenchModule = {
  name: 'method runs (offline engine)',
  help: 'offline run time, overhead (warm and cold), CPU, statements, calls and storage per method: 10 seeded questions × 7 methods (about a minute)',
  async run({ log }) {
    await generateQuestionSet({ generator: 'biomedhop', name: SET, seed: SEED, count: QUESTIONS }, { replace: true });
    const questions = (await readSetQuestionIds(SET, {}))?.questions ?? [];
    // What a worker reads before its first run (lib/runs/worker.ts: linking, the metagraph, the calibration), so that cold runs are a warm worker's.
    await prepareRuns();
    const rows: BenchRow[] = [];
    const storageKb: number[] = [];
    // What a round trip costs on this machine now: overhead is mostly round trips × this, plus CPU.
    const roundTrip = await roundTripMs();
    const load = loadavg()[0].toFixed(1);
    rows.push({
      type: 'value',
      label: 'database round trip p50',
      key: 'db_round_trip_ms',
      value: round(roundTrip),
      unit: 'ms',
      note: `select 1 on the pool; load average ${load} on ${availableParallelism()} cores`,
    });
    try {
      for (const method of listMethods()) {
        const slug = method.id.replace('-', '_');
        const samplesMs: number[] = [];
        const overheadMs: number[] = [];
        const cpuMs: number[] = [];
        const statements: number[] = [];
        const runIds: string[] = [];
        const coldOverheadMs: number[] = [];
        for (const q of questions) {
          // The same run with the process's knowledge lookups forgotten first: what a question costs the first time it is asked.
          sharedKnowledgeLookups().forgetKeys();
          const cold = await createRun({ method: method.id, questionId: q.id, backend: 'offline' }, { enqueue: false });
          const coldStarted = performance.now();
          const coldModel = timeModelCalls();
          await executeRun(cold.id);
          coldOverheadMs.push(performance.now() - coldStarted - coldModel.stop());
          await deleteRuns([cold.id]);

          const { id } = await createRun({ method: method.id, questionId: q.id, backend: 'offline' }, { enqueue: false });
          runIds.push(id);
          const started = performance.now();
          const model = timeModelCalls();
          const sent = countStatements();
          const cpu = process.cpuUsage();
          await executeRun(id);
          const wall = performance.now() - started;
          const used = process.cpuUsage(cpu);
          cpuMs.push((used.user + used.system) / 1000);
          samplesMs.push(wall);
          overheadMs.push(wall - model.stop());
          statements.push(sent.stop());
        }
        const kb = await storedKb(runIds);
        storageKb.push(...kb);
        const runs = await runOutcomes(runIds);
        const correct = runs.filter((r) => r.correct).length;
        const calls = runs.reduce((sum, r) => sum + r.modelCalls, 0) / runs.length;
        const failed = runs.filter((r) => r.status !== 'succeeded').length;
        log(`${method.id}: ${correct}/${runs.length} correct, ${calls.toFixed(1)} calls/run${failed ? `, ${failed} failed` : ''}`);
        rows.push(
          // Keyed as the issues name them: run_offline_p50_ms_<method>.
          {
            type: 'value',
            label: `run offline p50: ${method.id}`,
            key: `run_offline_p50_ms_${slug}`,
            value: round(percentile(samplesMs, 50)),
            unit: 'ms',
            note: `${QUESTIONS} seeded BioMedHop questions`,
          },
          {
            type: 'value',
            label: `run overhead p50: ${method.id}`,
            key: `run_overhead_p50_ms_${slug}`,
            value: round(percentile(overheadMs, 50)),
            unit: 'ms',
            note: 'non-model overhead: wall time of executeRun (claim, trace writes, KG/document/entity queries, linking, prompt building, scoring) less the time inside offline-engine calls; the question was asked once before in this process (see the cold figure), as in a rerun or an evaluation grid',
          },
          {
            type: 'value',
            label: `run overhead p50, cold: ${method.id}`,
            key: `run_overhead_cold_p50_ms_${slug}`,
            value: round(percentile(coldOverheadMs, 50)),
            unit: 'ms',
            note: "the same, for a run of the same question just before with the process's knowledge lookups (names, aliases, profiles) forgotten, its indexes of the whole knowledge (the spelling index) kept: a question asked for the first time in a running process",
          },
          {
            type: 'value',
            label: `run CPU p50: ${method.id}`,
            key: `run_cpu_p50_ms_${slug}`,
            value: round(percentile(cpuMs, 50)),
            unit: 'ms',
            note: "this process's CPU time (user + system) while executeRun ran, offline engine included: unlike wall time, barely moved by other work on the machine",
          },
          {
            type: 'value',
            label: `database statements per run p50: ${method.id}`,
            key: `run_statements_p50_${slug}`,
            value: percentile(statements, 50),
            unit: '',
            note: 'every statement sent while the run executed (heartbeats included)',
          },
          { type: 'value', label: `model calls per run: ${method.id}`, key: `calls_per_run_${slug}`, value: Math.round(calls * 10) / 10, unit: 'calls' },
          { type: 'value', label: `run storage p50: ${method.id}`, key: `run_storage_kb_p50_${slug}`, value: round(percentile(kb, 50)), unit: 'KB' },
          {
            type: 'value',
            label: `offline accuracy: ${method.id}`,
            key: `accuracy_offline_${slug}`,
            value: Math.round((correct / runs.length) * 1000) / 1000,
            unit: '',
            note: failed ? `${failed} runs failed` : undefined,
          },
        );
        if (method.id === 'regram')
          rows.push({
            type: 'timing',
            label: 'ReGraM region construction (per hop)',
            key: 'region',
            samplesMs: await regionTimes(runIds),
            note: 'link + candidates + MMR + region steps, trace writes included',
          });
        await deleteRuns(runIds);
      }
      rows.push(
        {
          type: 'value',
          label: 'run storage p50',
          key: 'run_storage_kb_p50',
          value: round(percentile(storageKb, 50)),
          unit: 'KB',
          note: 'run row + steps + evidence + model calls + trace packs, all methods',
        },
        { type: 'value', label: 'run storage p95', key: 'run_storage_kb_p95', value: round(percentile(storageKb, 95)), unit: 'KB' },
      );
    } finally {
      await deleteSetsNamed(SET);
    }
    return rows;
  },
};

/** p50 of 50 `select 1` round trips on the pool. */
async function roundTripMs(): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 50; i++) {
    const started = performance.now();
    await pingDatabase();
    samples.push(performance.now() - started);
  }
  return percentile(samples, 50);
}

/** Region construction time of every ReGraM hop: its linking, candidate, MMR and region steps. */
const REGION_STEPS = ['regram.link', 'regram.candidates', 'regram.mmr', 'regram.region'];
async function regionTimes(runIds: string[]): Promise<number[]> {
  const steps = await stepDurations(runIds, REGION_STEPS);
  const perHop = new Map<string, number>();
  for (const s of steps) if (s.parentStepId) perHop.set(s.parentStepId, (perHop.get(s.parentStepId) ?? 0) + (s.durationMs ?? 0));
  return [...perHop.values()];
}

/**
 * Wall time spent inside the offline engine's calls while a run executes (the
 * union of their intervals: EIGEN-1's proposers call in parallel), so that
 * what is left is the run's own overhead: trace writes, queries, bookkeeping.
 */
function timeModelCalls(): { stop(): number } {
  const intervals: [number, number][] = [];
  const original = OfflineBackend.prototype.call;
  OfflineBackend.prototype.call = async function (this: OfflineBackend, req) {
    const started = performance.now();
    try {
      return await original.call(this, req);
    } finally {
      intervals.push([started, performance.now()]);
    }
  } as typeof original;
  return {
    stop() {
      OfflineBackend.prototype.call = original;
      let total = 0;
      let end = -Infinity;
      for (const [a, b] of intervals.sort((x, y) => x[0] - y[0])) {
        if (b <= end) continue;
        total += b - Math.max(a, end);
        end = b;
      }
      return total;
    },
  };
}
