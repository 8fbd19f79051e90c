// The web server the launcher starts (scripts/start.ts) outside `npm run dev`: Next.js's own request handler,
// a few requests at a time with reads first (lib/api/admission.ts), behind lib/runs/kept-reads.ts, which
// answers a finished run's page and JSON reads itself once Next.js has sent them for the run's current state.
// `node scripts/run.mjs web -p PORT -H HOST`.
import http from 'node:http';
import next from 'next';
import { readEnv } from '../lib/config';
import { admission } from '../lib/api/admission';
import { keptReads } from '../lib/runs/kept-reads';

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
  const handle = admission(app.getRequestHandler(), { slots: env.HOPSCOPE_WEB_CONCURRENCY });
  const handler = env.HOPSCOPE_KEPT_READS === 'on' ? keptReads(handle, { env }) : handle;
  const server = http.createServer((req, res) => void handler(req, res));
  server.listen(port, hostname, () => console.log(`[hopscope] web server ready on http://${hostname}:${port}`));
  // Open keep-alive connections would hold close() up: a second is enough for answers in flight.
  const stop = () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 1000);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
