import { loadavg } from 'node:os';
import { deleteJob } from '../../lib/eval/jobs/store';
import { deleteSetsNamed } from '../../lib/eval/store/sets';
import { generateQuestionSet } from '../../lib/eval/generate';
import { createEvalJob, driveEvalJob, getEvalJobView } from '../../lib/eval/jobs';
import { listMethods } from '../../lib/methods/registry';
import { round } from './timing';
import type { BenchModule } from './types';

const SET = 'bench-eval-offline';
const QUESTIONS = 200;
const CONCURRENCY = 8;

/** kg-rag when registered; else EIGEN-1 at its smallest (one proposer, no corrector, no injections, one QAIR round). */
function benchMethod(): { id: 'kg-rag' | 'eigen1'; params: Record<string, unknown> } {
  if (listMethods().some((m) => m.id === 'kg-rag')) return { id: 'kg-rag', params: {} };
  return { id: 'eigen1', params: { k: 1, corrector: false, maxInjections: 0, tMax: 1 } };
}

/**
 * Offline evaluation throughput: a seeded 200-question BioMedHop-style set,
 * one method, the full configuration, driven in-process as `eval` does
 * (job rows, bounded concurrency, scoring, tables). Generation is not timed.
 * The job, its runs and the set are deleted afterwards.
 */
export const evalOffline: BenchModule = {
  name: 'offline evaluation throughput',
  help: 'a 200-question kg-rag evaluation driven in-process, 8 runs in flight (under a minute)',
  async run({ log }) {
    const method = benchMethod();
    await generateQuestionSet({ generator: 'biomedhop', name: SET, seed: 'bench-eval', count: QUESTIONS }, { replace: true });
    const job = await createEvalJob(
      { set: SET, methods: [method.id], params: { [method.id]: method.params }, switches: 'full', backend: 'offline', concurrency: CONCURRENCY },
      { lock: true },
    );
    try {
      const started = performance.now();
      const result = await driveEvalJob(job.id, { mode: 'inline', lock: job.lock });
      const seconds = (performance.now() - started) / 1000;
      if (result !== 'finished') throw new Error(`the evaluation did not finish (${result})`);
      const [score] = (await getEvalJobView({ id: job.id })).summary.scores;
      log(`${method.id}: ${job.total} runs in ${seconds.toFixed(1)} s, accuracy ${((score.accuracy ?? 0) * 100).toFixed(1)}%, ${score.errors} error(s)`);
      return [
        {
          type: 'value',
          label: `offline evaluation: ${method.id}`,
          key: 'eval_offline_qps',
          value: round(job.total / seconds),
          unit: 'questions/s',
          note: `${QUESTIONS} generated questions, one process (inline driver, ${CONCURRENCY} runs in flight), accuracy ${((score.accuracy ?? 0) * 100).toFixed(1)}%, load average ${loadavg()[0].toFixed(1)}`,
        },
      ];
    } finally {
      await deleteJob(job.id);
      await deleteSetsNamed(SET);
    }
  },
};
