// The production build of the app, shared by the launcher (scripts/start.ts)
// and the benchmarks that load pages (scripts/bench/run-page.ts).
import { spawnSync, type StdioOptions } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const SOURCE_DIRS = ['app', 'components', 'lib', 'public'];

function newestSourceMtime(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'generated' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds when there is no build or the sources changed since the last one. `stdio` routes next build's output (default: this process's). */
export function ensureBuild(opts: { stdio?: StdioOptions; log?: (line: string) => void } = {}) {
  const buildId = path.resolve('.next', 'BUILD_ID');
  const builtAt = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
  const changed = Math.max(...SOURCE_DIRS.map((d) => newestSourceMtime(path.resolve(d))), fs.statSync('next.config.js').mtimeMs);
  if (builtAt > changed) return;
  (opts.log ?? console.log)('[hopscope] building the app (next build)…');
  const result = spawnSync('npx', ['next', 'build'], { stdio: opts.stdio ?? 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (result.status !== 0) throw new Error('next build failed');
}
