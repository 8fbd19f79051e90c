import { randomUUID } from 'node:crypto';
import { readSetQuestionIds, deleteSetsNamed } from '../../lib/eval/store/sets';
import { deleteRuns } from '../../lib/runs/store/runs';
import { generateQuestionSet } from '../../lib/eval/generate';
import { listMethods } from '../../lib/methods/registry';
import { executeRun } from '../../lib/runs/executor';
import { prepareRuns } from '../../lib/runs/prepare';
import { createRun } from '../../lib/runs/service';
import { callTimings } from '../../lib/runs/view';
import { containers, criticalPath, type CallInterval } from '../../lib/trace/concurrency';
import { readTrace } from '../../lib/trace/store';
import { startOfflineModelServer } from '../../tests/support/offline-model-server';
import { percentile, round } from './timing';
import type { BenchModule, BenchRow } from './types';

const SET = 'bench-model-mode';
const DEFAULT_DELAY_MS = 200;
const DEFAULT_QUESTIONS = 5;

/**
 * Model mode: every method over seeded BioMedHop questions against the
 * scripted OpenAI-protocol server answering each call after a fixed delay with
 * the offline engine's answer (tests/support/offline-model-server.ts), through
 * the real openai client. Per method: wall time, calls, and the critical path
 * read from the trace (the longest chain of calls each started after the one
 * before ended, or was made inside it: EIGEN-1's monitor while a generation
 * streams). `model_wall_over_critical_path_<method>` is wall time over
 * (calls on that chain × the delay): 1 would be a run that adds nothing to the
 * model's latency and never waits for a call it could have made at once.
 * Overhead is wall time with no call in flight.
 *
 * Every call must reach the server: each measured run has a model name of its
 * own, so the response cache holds no answer from another run (the baselines
 * ask the same recall of the same question), and a call the cache still
 * answers (the same prompt twice in one run) is neither in flight nor on the
 * chain. Each question is asked once before, offline, by the same method (as
 * `run_overhead_p50_ms`): the process's name lookups know it. Linking, the
 * metagraph and the calibration are read first, as a worker reads them before
 * its first run (`prepareRuns`).
 */
export const modelMode: BenchModule = {
  name: 'model mode (scripted server, fixed delay)',
  flag: 'model',
  help: 'every method in model mode against the scripted OpenAI server answering after a fixed delay: wall time over the critical path of calls, non-model overhead (about 2 minutes)',
  options: [
    `--model-delay MS  the server's delay per call (default ${DEFAULT_DELAY_MS})`,
    `--model-questions N  questions per method (default ${DEFAULT_QUESTIONS})`,
  ],
  async run({ log, args }) {
    const delayMs = args.number('model-delay', DEFAULT_DELAY_MS);
    const count = args.number('model-questions', DEFAULT_QUESTIONS);
    await generateQuestionSet({ generator: 'biomedhop', name: SET, seed: SET, count }, { replace: true });
    // What a worker reads before its first run (lib/runs/worker.ts), as the method runs' bench does: the runs measured are a worker's.
    await prepareRuns();
    const server = await startOfflineModelServer({ delayMs, model: `bench-scripted-${randomUUID()}` });
    const rows: BenchRow[] = [];
    const runIds: string[] = [];
    try {
      const questions = (await readSetQuestionIds(SET, {}))?.questions ?? [];
      const measure = async (method: string, questionId: string) => {
        // A model name of its own: the response cache holds nothing for this run.
        process.env.HOPSCOPE_MODEL = `bench-scripted-${randomUUID()}`;
        const { id } = await createRun({ method, questionId, backend: 'openai' }, { enqueue: false });
        runIds.push(id);
        const started = performance.now();
        const status = await executeRun(id);
        const wall = performance.now() - started;
        const [timings, { steps }] = await Promise.all([callTimings(id), readTrace(id)]);
        const sent = timings
          .filter((c) => !c.cached)
          .map((c) => ({ stepId: c.stepId, start: Date.parse(c.startedAt), end: Date.parse(c.startedAt) + c.latencyMs }));
        const within = containers(sent, new Map(steps.map((s) => [s.id, s.parentStepId])));
        const chain = criticalPath(sent.map((c, i) => ({ ...c, within: within[i] })));
        return { status, wall, calls: sent.length, cached: timings.length - sent.length, chain, overhead: wall - inFlight(sent) };
      };
      const askedBefore = async (method: string, questionId: string) => {
        const { id } = await createRun({ method, questionId, backend: 'offline' }, { enqueue: false });
        await executeRun(id);
        await deleteRuns([id]);
      };

      // The first model-mode run of the process pays what is loaded on first use (client, cache, lookups): reported apart.
      const first = await measure('kg-rag', questions[0].id);
      rows.push({
        type: 'value',
        label: 'model mode: first run of the process (kg-rag), overhead',
        key: 'model_first_run_overhead_ms',
        value: round(first.overhead),
        unit: 'ms',
        note: `wall ${round(first.wall)} ms for ${first.calls} calls`,
      });

      for (const method of listMethods()) {
        const slug = method.id.replace('-', '_');
        const runs = [];
        for (const q of questions) {
          await askedBefore(method.id, q.id);
          runs.push(await measure(method.id, q.id));
        }
        const failed = runs.filter((r) => r.status !== 'succeeded').length;
        const cached = runs.reduce((n, r) => n + r.cached, 0);
        const ratios = runs.map((r) => r.wall / Math.max(1, r.chain.calls * delayMs));
        const p50 = (xs: number[]) => round(percentile(xs, 50));
        log(
          `${method.id}: wall p50 ${p50(runs.map((r) => r.wall))} ms, ${p50(runs.map((r) => r.calls))} calls, chain ${p50(runs.map((r) => r.chain.calls))}, ratio ${p50(ratios)}, overhead ${p50(runs.map((r) => r.overhead))} ms${cached ? `, ${cached} calls answered by the cache` : ''}${failed ? `, ${failed} failed` : ''}`,
        );
        rows.push(
          {
            type: 'value',
            label: `model mode wall p50: ${method.id}`,
            key: `model_wall_p50_ms_${slug}`,
            value: p50(runs.map((r) => r.wall)),
            unit: 'ms',
            note: `${questions.length} seeded BioMedHop questions, each asked once before (offline), ${delayMs} ms a call${failed ? `; ${failed} runs failed` : ''}`,
          },
          {
            type: 'value',
            label: `model calls per run p50: ${method.id}`,
            key: `model_calls_p50_${slug}`,
            value: percentile(
              runs.map((r) => r.calls),
              50,
            ),
            unit: 'calls',
            note: `calls sent to the server${cached ? `; ${cached} more in all answered by the response cache (the same prompt twice in a run)` : ''}`,
          },
          {
            type: 'value',
            label: `model critical path p50: ${method.id}`,
            key: `model_critical_path_calls_p50_${slug}`,
            value: percentile(
              runs.map((r) => r.chain.calls),
              50,
            ),
            unit: 'calls',
            note: 'the longest chain of calls each started after the one before it ended (or inside it), read from the trace',
          },
          {
            type: 'value',
            label: `model wall / critical path p50: ${method.id}`,
            key: `model_wall_over_critical_path_${slug}`,
            value: p50(ratios),
            unit: '×',
            note: `wall time over (calls on the critical path × ${delayMs} ms); target ≤ 1.15`,
          },
          {
            type: 'value',
            label: `model overhead p50: ${method.id}`,
            key: `model_overhead_p50_ms_${slug}`,
            value: p50(runs.map((r) => r.overhead)),
            unit: 'ms',
            note: 'wall time with no model call in flight; target ≤ 50',
          },
        );
      }
    } finally {
      await server.close();
      await deleteRuns(runIds);
      await deleteSetsNamed(SET);
    }
    return rows;
  },
};

/** The time at least one call was in flight (the union of their intervals). */
function inFlight(calls: CallInterval[]): number {
  let total = 0;
  let end = -Infinity;
  for (const { start, end: e } of [...calls].sort((a, b) => a.start - b.start)) {
    if (e <= end) continue;
    total += e - Math.max(start, end);
    end = e;
  }
  return total;
}
