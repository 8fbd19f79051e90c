import { spawn, type ChildProcess } from 'node:child_process';

/** Restarts of a child that keeps dying wait longer each time, up to this. */
const MAX_RESTART_DELAY_MS = 30_000;
/** A child that lived this long restarts after its next exit at once again (FIRST_DELAY_MS). */
const HEALTHY_MS = 60_000;
const FIRST_DELAY_MS = 1_000;
/** How long a child has to finish its shutdown after SIGTERM before it is killed. */
const STOP_GRACE_MS = 10_000;

export interface Supervised {
  /** The running child's pid; null between a crash and its restart, and after stop. */
  pid(): number | null;
  /** Ends the child (SIGTERM, then SIGKILL after a grace period) and restarts it no more. */
  stop(): Promise<void>;
}

/**
 * The environment of a long-lived child process (the worker process, the web server): glibc's malloc kept to two
 * arenas unless MALLOC_ARENA_MAX says otherwise. Without the limit every thread that allocates (libuv's threadpool
 * deflating trace packs, V8's compiler and collector threads) gets an arena of its own, up to 8 per core, and what is
 * freed there stays with that arena: a soak worker's thread arenas held 129–144 MB, still rising after 1,200 runs;
 * 56–57 MB with two, at no cost in run time (docs/performance.md). `npm run worker` and `npm run bench` set it too.
 */
export function longLivedEnv(env: NodeJS.ProcessEnv, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const merged = { ...env, ...extra };
  return { ...merged, MALLOC_ARENA_MAX: merged.MALLOC_ARENA_MAX ?? '2' };
}

/**
 * Runs `node <args>` as a child process and restarts it whenever it exits
 * until `stop` (the launcher's worker process: a crash there costs the runs in
 * flight a resume, never the web server). Whatever ends this process kills the child.
 */
export function superviseChild(spec: { name: string; args: string[]; env?: NodeJS.ProcessEnv; log?: (line: string) => void }): Supervised {
  const log = spec.log ?? ((line: string) => console.error(line));
  let child: ChildProcess | null = null;
  let stopping = false;
  let delay = FIRST_DELAY_MS;
  const start = () => {
    const startedAt = Date.now();
    const started = spawn(process.execPath, spec.args, { stdio: 'inherit', env: spec.env ?? process.env });
    child = started;
    started.on('exit', (code, signal) => {
      if (child === started) child = null;
      if (stopping) return;
      if (Date.now() - startedAt > HEALTHY_MS) delay = FIRST_DELAY_MS;
      log(`[hopscope] the ${spec.name} exited (${signal ?? `code ${code}`}); restarting it in ${delay / 1000} s`);
      setTimeout(() => !stopping && start(), delay);
      delay = Math.min(MAX_RESTART_DELAY_MS, delay * 2);
    });
  };
  start();
  process.on('exit', () => child?.kill('SIGKILL'));
  return {
    pid: () => child?.pid ?? null,
    async stop() {
      stopping = true;
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
      running.kill('SIGTERM');
      const timer = setTimeout(() => running.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
