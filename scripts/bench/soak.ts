import { generateQuestionSet } from '../../lib/eval/generate';
import { deleteSetsNamed, readSetQuestionIds } from '../../lib/eval/store/sets';
import { listMethods } from '../../lib/methods/registry';
import { createRun } from '../../lib/runs/service';
import { recordedRunTimes } from '../../lib/runs/store/measures';
import { deleteRuns } from '../../lib/runs/store/runs';
import { startWorkers } from '../../lib/runs/worker';
import { type MemoryBreakdown, memoryAfterCollection, memoryBreakdown, samplePeakMemory } from './memory';
import { percentile, round } from './timing';
import type { BenchModule, BenchRow } from './types';

const SET = 'bench-soak';
const QUESTIONS = 30;
const RUNS = 3_000;
const WINDOW = 500;
const IDLE_MS = 20_000;

/**
 * Whether a worker slows down as it ages: `--soak-runs` offline runs (default 3,000)
 * of every method in turn over a seeded question set, through the run queue to one
 * worker process (this one: one run consumer and the evaluation supervisor, as
 * `npm run worker` starts them), submitted a window of 500 at a time. Per window: the
 * median run time (claim to finish, as the run records it), the process's CPU per run, its peak RSS while the window
 * ran (nothing forced), and its memory at the window's end after a full collection, plain and compacting. The budget:
 * the last window's median at most 1.2× the first's, peak RSS within 20 % of the first window's after it. The runs stay
 * in the database until the end (a growing runs table is part of the age), then are deleted.
 */
export const soak: BenchModule = {
  name: 'soak (a worker as it ages)',
  flag: 'soak',
  help: `${RUNS} offline runs across the methods through one worker process: median run time and RSS per ${WINDOW}-run window (about 10 minutes)`,
  options: [`--soak-runs N  runs in all (default ${RUNS}; windows of ${WINDOW}, or N/6 when smaller)`],
  async run({ log, args }) {
    const total = Math.round(args.number('soak-runs', RUNS));
    const window = Math.min(WINDOW, Math.max(1, Math.floor(total / 6)));
    // A queue and a set of its own, so that no other worker on this database takes the soak's runs, nor another soak
    // (on another queue) its questions.
    const queue = process.env.HOPSCOPE_RUN_QUEUE;
    process.env.HOPSCOPE_RUN_QUEUE = `${queue ?? 'hopscope-runs'}-soak`;
    const set = `${SET}-${process.env.HOPSCOPE_RUN_QUEUE}`;
    await generateQuestionSet({ generator: 'biomedhop', name: set, seed: SET, count: QUESTIONS }, { replace: true });
    const questions = (await readSetQuestionIds(set, {}))?.questions ?? [];
    const methods = listMethods().map((m) => m.id);
    const workers = await startWorkers({ concurrency: 1 });
    const runIds: string[] = [];
    const windows: {
      medianMs: number;
      cpuMsPerRun: number;
      peak: { rss: number; heapTotal: number };
      plain: MemoryBreakdown;
      memory: MemoryBreakdown;
      failed: number;
    }[] = [];
    let idle: MemoryBreakdown | null = null;
    try {
      for (let start = 0; start < total; start += window) {
        const ids: string[] = [];
        const cpu = process.cpuUsage();
        const peakMemory = samplePeakMemory();
        // Each run queued as it is stored, as a submission is: a window stored first and queued after left its first
        // runs queued without a job for over 10 s on a loaded machine, and the recovery sweep sent them again.
        for (let i = start; i < Math.min(total, start + window); i++) {
          const method = methods[i % methods.length];
          const question = questions[Math.floor(i / methods.length) % questions.length];
          ids.push((await createRun({ method, questionId: question.id, backend: 'offline' })).id);
        }
        runIds.push(...ids);
        const times = await waitForRuns(ids);
        const used = process.cpuUsage(cpu);
        const peak = peakMemory.stop();
        if (start + window >= total) {
          // What an idle worker holds, nothing forced (V8's memory reducer may start 8 s after allocation slows).
          await new Promise((r) => setTimeout(r, IDLE_MS));
          idle = memoryBreakdown();
        }
        // What the process keeps, not garbage V8 has not yet collected: after a full collection (which leaves V8's
        // heap pages that still hold a live object committed), then after one that compacts the heap too.
        const plain = await memoryAfterCollection(false);
        const memory = await memoryAfterCollection(true);
        const cpuMsPerRun = (used.user + used.system) / 1000 / ids.length;
        windows.push({ medianMs: percentile(times.ms, 50), cpuMsPerRun, peak, plain, memory, failed: times.failed });
        const w = windows.at(-1)!;
        log(
          `window ${windows.length} (runs ${start + 1}–${start + ids.length}): median ${round(w.medianMs)} ms, CPU ${round(cpuMsPerRun, 1)} ms a run${w.failed ? `, ${w.failed} failed` : ''}`,
        );
        log(`  peak while running:      RSS ${Math.round(peak.rss)} MB, heap committed ${Math.round(peak.heapTotal)} MB`);
        log(`  after a full collection: ${describe(w.plain)}`);
        log(`  compacted:               ${describe(w.memory)}`);
      }
      if (idle) log(`idle ${IDLE_MS / 1000} s after the last window, nothing forced: ${describe(idle)}`);
    } finally {
      await workers.stop();
      if (queue === undefined) delete process.env.HOPSCOPE_RUN_QUEUE;
      else process.env.HOPSCOPE_RUN_QUEUE = queue;
      for (let i = 0; i < runIds.length; i += 500) await deleteRuns(runIds.slice(i, i + 500));
      await deleteSetsNamed(set);
    }
    const first = windows[0];
    const last = windows.at(-1)!;
    const growth = (rss: (w: (typeof windows)[number]) => number) =>
      windows.length > 1 ? round(Math.max(...windows.slice(1).map(rss)) / rss(first) - 1) : null;
    const rows: BenchRow[] = windows.flatMap((w, i) => [
      {
        type: 'value' as const,
        label: `soak window ${i + 1}: median run`,
        key: `soak_median_ms_w${i + 1}`,
        value: round(w.medianMs),
        unit: 'ms',
        note: w.failed ? `${w.failed} runs failed` : undefined,
      },
      {
        type: 'value' as const,
        label: `soak window ${i + 1}: CPU per run`,
        key: `soak_cpu_ms_per_run_w${i + 1}`,
        value: round(w.cpuMsPerRun, 1),
        unit: 'ms',
        note: "the process's user and system CPU over the window (its runs, their submission, V8's collector threads) per run",
      },
      {
        type: 'value' as const,
        label: `soak window ${i + 1}: peak RSS`,
        key: `soak_rss_peak_mb_w${i + 1}`,
        value: round(w.peak.rss, 1),
        unit: 'MB',
        note: `the largest RSS sampled every 100 ms while the window ran, nothing forced; heap committed at most ${Math.round(w.peak.heapTotal)} MB`,
      },
      {
        type: 'value' as const,
        label: `soak window ${i + 1}: RSS`,
        key: `soak_rss_mb_w${i + 1}`,
        value: round(w.memory.rss, 1),
        unit: 'MB',
        note: `after a full garbage collection that compacts the heap; ${describe(w.memory)}`,
      },
      {
        type: 'value' as const,
        label: `soak window ${i + 1}: RSS, heap not compacted`,
        key: `soak_rss_uncompacted_mb_w${i + 1}`,
        value: round(w.plain.rss, 1),
        unit: 'MB',
        note: `after a full garbage collection that leaves V8's partly used pages committed, once RSS settles; ${describe(w.plain)}`,
      },
      {
        type: 'value' as const,
        label: `soak window ${i + 1}: off the JS heap`,
        key: `soak_external_mb_w${i + 1}`,
        value: round(w.memory.external, 1),
        unit: 'MB',
        note: `Buffers and ArrayBuffers ${Math.round(w.memory.arrayBuffers)} MB of it`,
      },
      {
        type: 'value' as const,
        label: `soak window ${i + 1}: glibc malloc arenas`,
        key: `soak_malloc_mb_w${i + 1}`,
        value: w.memory.mainArena === null ? null : round(w.memory.mainArena + (w.memory.threadArenas ?? 0), 1),
        unit: 'MB',
        note: `main arena and ${w.memory.threadArenaCount} thread arenas, resident (Linux)`,
      },
    ]);
    rows.push(
      {
        type: 'value',
        label: 'soak: RSS of the idle worker',
        key: 'soak_rss_idle_mb',
        value: idle ? round(idle.rss, 1) : null,
        unit: 'MB',
        note: `${IDLE_MS / 1000} s after the last window's runs, nothing forced`,
      },
      {
        type: 'value',
        label: 'soak: last window median / first',
        key: 'soak_median_last_over_first',
        value: round(last.medianMs / first.medianMs),
        unit: '×',
        note: `${total} runs, windows of ${window}; budget 1.2`,
      },
      {
        type: 'value',
        label: 'soak: peak RSS spread after the first window',
        key: 'soak_rss_peak_growth',
        value: growth((w) => w.peak.rss),
        unit: '',
        note: "the largest peak RSS of a later window over the first window's, less 1; budget 0.2",
      },
      {
        type: 'value',
        label: 'soak: RSS spread after the first window, compacted',
        key: 'soak_rss_growth',
        value: growth((w) => w.memory.rss),
        unit: '',
        note: 'as soak_rss_peak_growth, after a compacting full collection: what the process retains',
      },
      {
        type: 'value',
        label: 'soak: RSS spread after the first window, heap not compacted',
        key: 'soak_rss_uncompacted_growth',
        value: growth((w) => w.plain.rss),
        unit: '',
        note: 'as soak_rss_peak_growth, after a plain full collection',
      },
    );
    return rows;
  },
};

/** A window's memory in one line: what V8 holds, what Node counts outside it, and where glibc's malloc keeps it. */
function describe(m: MemoryBreakdown): string {
  const arenas =
    m.mainArena === null
      ? ''
      : `, malloc main arena ${Math.round(m.mainArena)} MB, ${m.threadArenaCount} thread arenas ${Math.round(m.threadArenas ?? 0)} MB, other anonymous ${Math.round(m.otherAnonymous ?? 0)} MB`;
  const spaces = Object.entries(m.spaces)
    .filter(([, s]) => s.size >= 1)
    .map(([name, s]) => `${name} ${Math.round(s.used)}/${Math.round(s.size)}`)
    .join(', ');
  return `RSS ${Math.round(m.rss)} MB, heap ${Math.round(m.heapUsed)} of ${Math.round(m.heapTotal)} MB (${spaces}), external ${Math.round(m.external)} MB (array buffers ${Math.round(m.arrayBuffers)} MB)${arenas}`;
}

/** Waits until every run has ended; their times from claim to finish, as recorded. */
async function waitForRuns(ids: string[]): Promise<{ ms: number[]; failed: number }> {
  for (;;) {
    const rows = await recordedRunTimes(ids);
    if (rows.every((r) => r.status !== 'queued' && r.status !== 'running')) {
      return { ms: rows.filter((r) => r.status === 'succeeded').map((r) => Number(r.ms)), failed: rows.filter((r) => r.status !== 'succeeded').length };
    }
    await new Promise((r) => setTimeout(r, 1_000));
  }
}
