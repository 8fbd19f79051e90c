import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { build, freshProgram } from '../build.mjs';
import { percentile, round } from './timing';
import type { BenchModule, BenchRow } from './types';

const SAMPLES = 5;
const RUN_SAMPLES = 3;
const QUESTION = 'Which drugs treat gout?';

/**
 * How long a command takes from a fresh process to its exit, the database already running (this
 * benchmark's own): `sets list` (start-up: what every command pays) and one offline kg-rag run
 * (start-up, the knowledge check, the graph snapshot, the run, its JSON). Each is run as `npm run
 * hopscope` runs it (node scripts/run.mjs, built ahead of time; the build is made first if stale,
 * not timed), and also given over `node -e 0` measured alongside, since wall times on this shared
 * machine move with its load. Also reported: the CPU time of each (user + system, from the child's
 * resource usage), which moves far less.
 */
export const cliStart: BenchModule = {
  name: 'cli start-up',
  help: '`sets list` and one offline run, each in a fresh process, beside `node -e 0` (half a minute)',
  async run({ log }) {
    if (!freshProgram('hopscope')) {
      log('building the programs first (not timed)…');
      await build();
    }
    const node = samples(SAMPLES, ['-e', '0']);
    const sets = samples(SAMPLES, ['scripts/run.mjs', 'hopscope', 'sets', 'list']);
    const run = samples(RUN_SAMPLES, ['scripts/run.mjs', 'hopscope', 'run', '--method', 'kg-rag', '--question', QUESTION, '--backend', 'offline', '--json']);
    const p50 = (xs: number[]) => round(percentile(xs, 50));
    const rows: BenchRow[] = [
      {
        type: 'value',
        label: 'node -e 0',
        key: 'node_startup_ms',
        value: p50(node.wall),
        unit: 'ms',
        note: `p50 of ${SAMPLES}: the floor any command starts from`,
      },
      {
        type: 'value',
        label: 'cli start-up (sets list)',
        key: 'cli_startup_ms',
        value: p50(sets.wall),
        unit: 'ms',
        note: `p50 of ${SAMPLES} fresh processes; budget 1,000`,
      },
      { type: 'value', label: 'cli start-up over node -e 0', key: 'cli_startup_over_node', value: round(p50(sets.wall) / p50(node.wall)), unit: '×' },
      { type: 'value', label: 'cli start-up CPU', key: 'cli_startup_cpu_ms', value: p50(sets.cpu), unit: 'ms', note: 'user + system of the child' },
      {
        type: 'value',
        label: 'cli offline run (kg-rag)',
        key: 'cli_run_offline_wall_ms',
        value: p50(run.wall),
        unit: 'ms',
        note: `"${QUESTION}", p50 of ${RUN_SAMPLES} fresh processes, --json; budget 2,000`,
      },
      { type: 'value', label: 'cli offline run over node -e 0', key: 'cli_run_offline_over_node', value: round(p50(run.wall) / p50(node.wall)), unit: '×' },
      { type: 'value', label: 'cli offline run CPU', key: 'cli_run_offline_cpu_ms', value: p50(run.cpu), unit: 'ms', note: 'user + system of the child' },
    ];
    return rows;
  },
};

/** Wall and CPU milliseconds of `node …args` run `n` times, interleaved with nothing else. */
function samples(n: number, args: string[]): { wall: number[]; cpu: number[] } {
  const out = { wall: [] as number[], cpu: [] as number[] };
  for (let i = 0; i < n; i++) {
    const { wallMs, cpuMs } = timed(args);
    out.wall.push(wallMs);
    out.cpu.push(cpuMs);
  }
  return out;
}

/** One child process: its wall time, and its CPU time read from this process's children's usage. */
function timed(args: string[]): { wallMs: number; cpuMs: number } {
  const childrenBefore = childrenCpuMs();
  const started = performance.now();
  const child = spawnSync(process.execPath, args, { env: process.env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const wallMs = performance.now() - started;
  if (child.status !== 0) throw new Error(`node ${args.join(' ')} exited ${child.status}: ${child.stderr.slice(-500)}`);
  return { wallMs, cpuMs: childrenCpuMs() - childrenBefore };
}

/** CPU time (user + system) of this process's finished children, from /proc (Linux). */
function childrenCpuMs(): number {
  // Fields 16 and 17 of /proc/self/stat: cutime and cstime, in clock ticks (100 a second on Linux).
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}
