import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listMethods } from '../../lib/methods/registry';
import { countEndedRuns, deleteRuns } from '../../lib/runs/store/runs';
import { ensureBuild } from '../next-build';
import { freePort } from '../../lib/base/free-port';
import { percentile, round } from './timing';
import type { BenchModule, BenchRow } from './types';

const SUBMITS = 50;
const READS = 200;
/** Finished runs whose pages and records the reads ask for. */
const SEEDS = 10;
/** Every wait is bounded: the section ends by itself. */
const START_TIMEOUT_MS = 600_000;
const RUNS_TIMEOUT_MS = 180_000;
const QUESTIONS = [
  'Which drugs treat gout?',
  'Which genes are associated with asthma?',
  'What drugs treat multiple sclerosis?',
  'Which diseases does metformin treat?',
  'Which compounds bind the gene PPARG?',
];

/**
 * Reads while runs execute, against a real instance: the launcher (`npm start`:
 * its embedded-database check, the workers as it runs them, `next start`) on a
 * free loopback port of this database, with a run queue of its own. After
 * SEEDS finished runs (and, unless --load-settle off, the web server quiet
 * again after they ended), SUBMITS offline runs are submitted and READS GETs of
 * finished runs' pages and `/api/runs/{id}` are sent, all at once: the GETs'
 * latency and errors, and how long until every submitted run has finished.
 */
export const load: BenchModule = {
  name: 'reads under load (launcher, loopback)',
  flag: 'load',
  help: `${SUBMITS} offline runs and ${READS} concurrent reads of run pages and records against an instance started by the launcher (builds the app first when stale; about 2 minutes after that)`,
  options: [
    '--load-workers on|inline  where the instance runs its workers (default on: a process of their own)',
    "--load-kept-reads on|off  whether the web server answers finished runs' reads from what it sent (default on)",
    '--load-settle on|off      whether the burst waits for the web server to settle once the runs it reads have ended (default on: they are read ahead first)',
    "--load-profile FILE       write the web server's CPU profile over the burst to FILE (.cpuprofile)",
  ],
  async run({ log, args }) {
    const workers = args.value('load-workers') ?? 'on';
    if (!['on', 'inline'].includes(workers)) throw new Error('--load-workers takes on or inline');
    const kept = args.value('load-kept-reads') ?? 'on';
    if (!['on', 'off'].includes(kept)) throw new Error('--load-kept-reads takes on or off');
    const settle = args.value('load-settle') ?? 'on';
    if (!['on', 'off'].includes(settle)) throw new Error('--load-settle takes on or off');
    const loopDelayFile = path.join(os.tmpdir(), `hopscope-load-loop-${process.pid}.json`);
    fs.rmSync(loopDelayFile, { force: true });
    ensureBuild({ stdio: ['ignore', 2, 2], log });
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const queue = `bench-load-${process.pid}`;
    const launcher = spawn(process.execPath, ['scripts/run.mjs', 'start'], {
      env: {
        ...process.env,
        PORT: String(port),
        HOPSCOPE_RUN_QUEUE: queue,
        HOPSCOPE_WORKERS: workers,
        HOPSCOPE_KEPT_READS: kept,
        HOPSCOPE_WEB_LOOP_DELAY_FILE: loopDelayFile,
        ...(args.value('load-profile') ? { HOPSCOPE_WEB_PROFILE_FILE: path.resolve(args.value('load-profile')!) } : {}),
        NEXT_TELEMETRY_DISABLED: '1',
      },
      stdio: ['ignore', 2, 2],
    });
    const ids: string[] = [];
    let serverPid: number | null = null;
    try {
      await until('the instance to serve', async () => (await fetch(`${base}/api/health`).catch(() => null))?.ok ?? false, START_TIMEOUT_MS, launcher);
      const methods = listMethods().map((m) => m.id);
      const submitMs: number[] = [];
      const submit = async (i: number) => {
        const started = performance.now();
        const res = await fetch(`${base}/api/runs`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ method: methods[i % methods.length], question: QUESTIONS[i % QUESTIONS.length], backend: 'offline' }),
        });
        if (res.status !== 201) throw new Error(`POST /api/runs answered ${res.status}: ${await res.text()}`);
        const { id } = (await res.json()) as { id: string };
        submitMs.push(performance.now() - started);
        ids.push(id);
        return id;
      };
      const seeds = await Promise.all(Array.from({ length: SEEDS }, (_, i) => submit(i)));
      await until('the seed runs to finish', () => allFinished(seeds), RUNS_TIMEOUT_MS, launcher);
      // A server that has been serving has loaded its page and route code: one read of each, not of every run, first.
      for (const url of [`${base}/runs/${seeds[0]}`, `${base}/api/runs/${seeds[0]}`]) await (await fetch(url)).arrayBuffer();
      serverPid = Number(fs.readFileSync(path.resolve('.data', `server-${port}.pid`), 'utf8'));
      // What the server does when a run ends (reading it ahead, lib/runs/reads-ahead.ts) done before the burst, or not.
      const settledS = settle === 'on' ? await settled(serverPid) : 0;
      log(
        `instance up on ${base}, ${SEEDS} finished runs to read${settle === 'on' ? ` (server settled ${round(settledS, 1)} s after they ended)` : ''}; burst: ${SUBMITS} submissions and ${READS} reads`,
      );

      // The web server's CPU over the burst moves far less with the machine's load than its latency does.
      const cpuAtBurst = cpuMs(serverPid);
      submitMs.length = 0;
      process.kill(serverPid, 'SIGUSR2'); // the server's event-loop delay from here (scripts/web.ts)
      const burstAt = performance.now();
      const submitted = Promise.all(Array.from({ length: SUBMITS }, (_, i) => submit(SEEDS + i)));
      const reads = await Promise.all(
        Array.from({ length: READS }, async (_, i) => {
          const page = i % 2 === 0;
          const path = page ? `/runs/${seeds[i % SEEDS]}` : `/api/runs/${seeds[i % SEEDS]}`;
          const started = performance.now();
          const read = (ok: boolean, kept: boolean) => ({ path, page, at: started - burstAt, ms: performance.now() - started, ok, kept });
          try {
            const res = await fetch(`${base}${path}`);
            await res.arrayBuffer();
            return read(res.status === 200, res.headers.get('x-hopscope-read') === 'kept');
          } catch {
            return read(false, false);
          }
        }),
      );
      const serverCpuS = (cpuMs(serverPid) - cpuAtBurst) / 1000;
      const burst = await submitted;
      const cpuAfterBurst = cpuMs(serverPid);
      process.kill(serverPid, 'SIGUSR2');
      const loopDelay = await loopDelayOf(loopDelayFile);
      await until(`the ${SUBMITS} runs to finish`, () => allFinished(burst), RUNS_TIMEOUT_MS, launcher);
      const doneS = (performance.now() - burstAt) / 1000;
      // Its CPU from the last submission's answer until it settles: the burst's runs read ahead as they end.
      await settled(serverPid);
      const afterCpuS = (cpuMs(serverPid) - cpuAfterBurst) / 1000;
      const errors = reads.filter((r) => !r.ok).length;
      const ms = (page: boolean) => reads.filter((r) => r.page === page).map((r) => r.ms);
      log(
        `reads p50 ${round(
          percentile(
            reads.map((r) => r.ms),
            50,
          ),
        )} ms, p95 ${round(
          percentile(
            reads.map((r) => r.ms),
            95,
          ),
        )} ms, ${errors} errors; runs done ${round(doneS, 1)} s after the burst`,
      );
      logReads(reads, log);
      const note = `workers: ${workers === 'on' ? 'a process of their own' : "in the launcher's process"}; kept reads ${kept}; settle ${settle}`;
      return [
        {
          type: 'timing',
          label: 'reads under load (pages and records)',
          key: 'load_get',
          samplesMs: reads.map((r) => r.ms),
          note: `${READS} GETs sent with ${SUBMITS} run submissions; ${note}; target p95 ≤ 1000 ms`,
        },
        { type: 'timing', label: 'reads under load: run pages', key: 'load_get_page', samplesMs: ms(true) },
        { type: 'timing', label: 'reads under load: /api/runs/{id}', key: 'load_get_api', samplesMs: ms(false) },
        {
          type: 'timing',
          label: 'submissions under load (POST /api/runs)',
          key: 'load_post',
          samplesMs: submitMs,
          note: `until each of the ${SUBMITS} runs is stored and queued (201)`,
        },
        { type: 'value', label: 'reads under load: errors', key: 'load_get_errors', value: errors, unit: '', note: 'a status other than 200, or no answer' },
        {
          type: 'value',
          label: 'reads under load: answered from kept reads',
          key: 'load_get_kept',
          value: reads.filter((r) => r.kept).length,
          unit: '',
          note: "the rest rendered by Next.js (a run state's first read, or kept reads off)",
        },
        {
          type: 'value',
          label: "web server's CPU over the burst",
          key: 'load_server_cpu_s',
          value: round(serverCpuS, 2),
          unit: 's',
          note: `${READS} reads and ${SUBMITS} submissions, until the last read is answered`,
        },
        {
          type: 'value',
          label: "web server's CPU after the burst",
          key: 'load_server_after_cpu_s',
          value: round(afterCpuS, 2),
          unit: 's',
          note: `from the last submission's answer until it settles: the ${SUBMITS} runs read ahead as they end (lib/runs/reads-ahead.ts)`,
        },
        {
          type: 'value',
          label: "web server's event-loop delay over the burst: p99",
          key: 'load_server_loop_delay_p99_ms',
          value: loopDelay?.p99 ?? null,
          unit: 'ms',
          note: loopDelay
            ? `p50 ${loopDelay.p50}, p95 ${loopDelay.p95}, max ${loopDelay.max} ms (monitorEventLoopDelay, until the last submission is answered)`
            : 'not reported',
        },
        {
          type: 'value',
          label: 'runs done after the burst',
          key: 'load_runs_done_s',
          value: round(doneS, 1),
          unit: 's',
          note: `all ${SUBMITS} offline runs finished; target ≤ 30 s`,
        },
      ] satisfies BenchRow[];
    } finally {
      await stop(launcher, serverPid);
      fs.rmSync(loopDelayFile, { force: true });
      await deleteRuns(ids);
    }
  },
};

/**
 * Where the slow reads' time went: per run state read (a URL), the read that went through Next.js (not kept:
 * the state's first render) and how long the others took, which wait for it; then the slowest reads.
 */
function logReads(reads: { path: string; at: number; ms: number; ok: boolean; kept: boolean }[], log: (line: string) => void) {
  for (const p of new Set(reads.map((r) => r.path))) {
    const rs = reads.filter((r) => r.path === p);
    const rendered = rs.filter((r) => !r.kept).map((r) => `${round(r.ms, 0)} ms (sent at ${round(r.at, 0)})`);
    const kept = rs.filter((r) => r.kept).map((r) => r.ms);
    log(
      `  ${p}: through Next.js ${rendered.join(', ') || 'none'}; kept ${kept.length}, p50 ${round(percentile(kept, 50), 0)} max ${round(Math.max(...kept, 0), 0)} ms`,
    );
  }
  const slowest = [...reads].sort((a, b) => b.ms - a.ms).slice(0, 10);
  log(`  slowest: ${slowest.map((r) => `${r.path.split('/').slice(-2).join('/')} ${round(r.ms, 0)} ms${r.kept ? '' : ' (rendered)'}`).join('; ')}`);
}

/**
 * Waits until the process has used no CPU for 1.5 s (at most 60 s), longer than reads ahead wait for runs ending one
 * after another to pause (lib/runs/reads-ahead.ts); the seconds waited.
 */
async function settled(pid: number): Promise<number> {
  const started = performance.now();
  let last = cpuMs(pid);
  for (let still = 0; still < 15 && performance.now() - started < 60_000;) {
    await new Promise((r) => setTimeout(r, 100));
    const now = cpuMs(pid);
    still = now === last ? still + 1 : 0;
    last = now;
  }
  return (performance.now() - started) / 1000;
}

/** A process's CPU time (user and system) so far, from /proc (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The delays the web server wrote when told to (scripts/web.ts), or null when it did not within 5 s. */
async function loopDelayOf(file: string): Promise<{ p50: number; p95: number; p99: number; max: number } | null> {
  for (let waited = 0; waited < 5_000; waited += 100) {
    if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8'));
    await new Promise((r) => setTimeout(r, 100));
  }
  return null;
}

async function allFinished(ids: string[]): Promise<boolean> {
  return (await countEndedRuns(ids)) === ids.length;
}

async function until(what: string, probe: () => Promise<boolean>, timeoutMs: number, launcher: ChildProcess) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (launcher.exitCode !== null) throw new Error(`the launcher exited (code ${launcher.exitCode}) while waiting for ${what}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * SIGTERM (the launcher stops its server and workers), then SIGKILL if it hangs; then its web server, which outlives a
 * launcher killed outright for a moment, is waited for (and killed after a while): a process still connected would
 * keep the embedded PostgreSQL this process started up when the bench ends.
 */
async function stop(launcher: ChildProcess, serverPid: number | null) {
  if (launcher.exitCode === null && launcher.signalCode === null) {
    const exited = new Promise((resolve) => launcher.once('exit', resolve));
    launcher.kill('SIGTERM');
    const timer = setTimeout(() => launcher.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  }
  if (serverPid === null) return;
  for (let waited = 0; alive(serverPid); waited += 100) {
    if (waited === 10_000) process.kill(serverPid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 100));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
