// The web server the launcher starts (scripts/start.ts) outside `npm run dev`: Next.js's own request handler
// behind lib/runs/kept-reads.ts, which answers a finished run's page and JSON reads itself once Next.js has
// sent them for the run's current state, and reads a run that ends or changes ahead (lib/runs/reads-ahead.ts).
// `node scripts/run.mjs web -p PORT -H HOST`.
import fs from 'node:fs';
import http from 'node:http';
import inspector from 'node:inspector';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import next from 'next';
import { POST as submitRun } from '../app/api/runs/route';
import { frontRoutes } from '../lib/api/front-routes';
import { readEnv, type HopscopeEnv } from '../lib/config';
import { keptReads } from '../lib/runs/kept-reads';
import { readsAhead } from '../lib/runs/reads-ahead';
import { listenRunChanges } from '../lib/runs/store/changes';
import { allowedHosts } from '../lib/security/request-guard';

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main() {
  const port = Number(option('-p') ?? process.env.PORT ?? 3000);
  const hostname = option('-H') ?? '127.0.0.1';
  const app = next({ dev: false, hostname, port, dir: process.cwd() });
  await app.prepare();
  const env = readEnv();
  const handle = app.getRequestHandler();
  // Run submissions skip Next.js's own work (lib/api/front-routes.ts); everything else goes to it.
  const toNext = frontRoutes(handle, { 'POST /api/runs': submitRun }, { env });
  let handler = env.HOPSCOPE_KEPT_READS === 'on' ? keptReads(toNext, { env }) : toNext;
  let stopListening = async () => {};
  // Kept reads are never served with sign-in on: nothing to read ahead.
  if (env.HOPSCOPE_KEPT_READS === 'on' && !env.AUTH_SECRET) {
    const ahead = readsAhead(handler, { origin: `http://${connectable(hostname)}:${port}`, host: ownHost(env) });
    handler = ahead.handler;
    stopListening = await listenRunChanges((ids) => ahead.add(ids));
  }
  if (env.HOPSCOPE_WEB_LOOP_DELAY_FILE) loopDelayProbe(env.HOPSCOPE_WEB_LOOP_DELAY_FILE);
  if (env.HOPSCOPE_WEB_PROFILE_FILE) profileProbe(env.HOPSCOPE_WEB_PROFILE_FILE);
  const server = http.createServer((req, res) => void handler(req, res));
  server.listen(port, hostname, () => console.log(`[hopscope] web server ready on http://${hostname}:${port}`));
  // Open keep-alive connections would hold close() up: a second is enough for answers in flight.
  const stop = () => {
    void stopListening();
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 1000);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

/** An address to reach this server at: a wildcard listen is reached on loopback. */
function connectable(hostname: string): string {
  if (['0.0.0.0', '::', '[::]'].includes(hostname)) return '127.0.0.1';
  return hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
}

/** A Host this server answers to (lib/security/request-guard.ts), for its requests to itself. */
function ownHost(env: HopscopeEnv): string {
  const hosts = [...(allowedHosts(env) ?? [])];
  return hosts.includes('127.0.0.1') ? '127.0.0.1' : (hosts[0] ?? '127.0.0.1');
}

/**
 * The load bench's window on this process's event loop: a SIGUSR2 starts measuring its delay, the next
 * writes the delays seen since (ms, JSON) to `file`. How long a ready callback waited for the loop is
 * what every request in the process waited for beside its own work.
 */
function loopDelayProbe(file: string) {
  let histogram: IntervalHistogram | null = null;
  process.on('SIGUSR2', () => {
    if (!histogram) {
      histogram = monitorEventLoopDelay({ resolution: 10 });
      histogram.enable();
      return;
    }
    histogram.disable();
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    const h = histogram;
    histogram = null;
    // Whole or not there: the bench reads it as soon as it exists.
    fs.writeFileSync(
      `${file}.part`,
      JSON.stringify({ p50: ms(h.percentile(50)), p95: ms(h.percentile(95)), p99: ms(h.percentile(99)), max: ms(h.max), mean: ms(h.mean) }),
    );
    fs.renameSync(`${file}.part`, file);
  });
}

/** The same window's CPU profile (`.cpuprofile`, sampled every 200 µs): where the web server's time went in a burst. */
function profileProbe(file: string) {
  const session = new inspector.Session();
  session.connect();
  let on = false;
  process.on('SIGUSR2', () => {
    if (!on) {
      on = true;
      session.post('Profiler.enable', () => session.post('Profiler.setSamplingInterval', { interval: 200 }, () => session.post('Profiler.start')));
      return;
    }
    on = false;
    session.post('Profiler.stop', (err, r) => {
      if (!err) fs.writeFileSync(file, JSON.stringify(r.profile));
    });
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
