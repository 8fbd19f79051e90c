import { getPrisma } from '../../lib/db/client';
import { generateQuestionSet } from '../../lib/eval/generate';
import { listMethods } from '../../lib/methods/registry';
import { executeRun } from '../../lib/runs/executor';
import { createRun } from '../../lib/runs/service';
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
  async run({ log }) {
    await generateQuestionSet({ generator: 'biomedhop', name: SET, seed: SEED, count: QUESTIONS });
    const prisma = getPrisma();
    const questions = await prisma.question.findMany({ where: { set: { name: SET } }, orderBy: { ordinal: 'asc' }, select: { id: true } });
    const rows: BenchRow[] = [];
    try {
      for (const method of listMethods()) {
        const slug = method.id.replace('-', '_');
        const samplesMs: number[] = [];
        const runIds: string[] = [];
        for (const q of questions) {
          const { id } = await createRun({ method: method.id, questionId: q.id, backend: 'offline' }, { enqueue: false });
          runIds.push(id);
          const started = performance.now();
          await executeRun(id);
          samplesMs.push(performance.now() - started);
        }
        const runs = await prisma.run.findMany({ where: { id: { in: runIds } }, select: { correct: true, status: true, _count: { select: { modelCalls: true } } } });
        const correct = runs.filter((r) => r.correct).length;
        const calls = runs.reduce((sum, r) => sum + r._count.modelCalls, 0) / runs.length;
        const failed = runs.filter((r) => r.status !== 'succeeded').length;
        log(`${method.id}: ${correct}/${runs.length} correct, ${calls.toFixed(1)} calls/run${failed ? `, ${failed} failed` : ''}`);
        rows.push(
          // Keyed as the issues name them: run_offline_p50_ms_<method>.
          { type: 'value', label: `run offline p50: ${method.id}`, key: `run_offline_p50_ms_${slug}`, value: round(percentile(samplesMs, 50)), unit: 'ms', note: `${QUESTIONS} seeded BioMedHop questions` },
          { type: 'value', label: `model calls per run: ${method.id}`, key: `calls_per_run_${slug}`, value: Math.round(calls * 10) / 10, unit: 'calls' },
          { type: 'value', label: `offline accuracy: ${method.id}`, key: `accuracy_offline_${slug}`, value: Math.round((correct / runs.length) * 1000) / 1000, unit: '', note: failed ? `${failed} runs failed` : undefined },
        );
        if (method.id === 'regram') rows.push({ type: 'timing', label: 'ReGraM region construction (per hop)', key: 'region', samplesMs: await regionTimes(runIds), note: 'link + candidates + MMR + region steps, trace writes included' });
        await prisma.run.deleteMany({ where: { id: { in: runIds } } });
      }
    } finally {
      await prisma.questionSet.deleteMany({ where: { name: SET } });
    }
    return rows;
  },
};

/** Region construction time of every ReGraM hop: its linking, candidate, MMR and region steps. */
const REGION_STEPS = ['regram.link', 'regram.candidates', 'regram.mmr', 'regram.region'];
async function regionTimes(runIds: string[]): Promise<number[]> {
  const steps = await getPrisma().step.findMany({
    where: { runId: { in: runIds }, kind: { in: REGION_STEPS } },
    select: { parentStepId: true, durationMs: true },
  });
  const perHop = new Map<string, number>();
  for (const s of steps) if (s.parentStepId) perHop.set(s.parentStepId, (perHop.get(s.parentStepId) ?? 0) + (s.durationMs ?? 0));
  return [...perHop.values()];
}
