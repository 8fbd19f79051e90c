// The command-line programs (the CLI, the worker, the launcher, the importer, the database tools)
// built ahead of time into plain JavaScript under .build/ (git-ignored), so that a command starts
// without transpiling its whole module graph. `node scripts/build.mjs` builds them (postinstall runs
// it); scripts/run.mjs builds again whenever a source file changed since, and runs the result.
// Plain JavaScript itself: it must run before anything is built.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The programs: `node scripts/run.mjs <name>` runs scripts/<name>.ts, built. */
export const PROGRAMS = ['hopscope', 'worker', 'start', 'import', 'db', 'db-server', 'web'];

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUILD = path.join(ROOT, '.build');
const MANIFEST = path.join(BUILD, 'manifest.json');
/** Files that shape the output without being bundled inputs: import aliases, the package's module type. */
const CONFIG_FILES = ['tsconfig.json', 'package.json', 'scripts/build.mjs'];
/** Superseded builds are removed once this old, or beyond this many: a long-lived process may still load a subcommand's chunk from one. */
const KEEP_OLD_MS = 24 * 60 * 60 * 1000;
const KEEP_OLD = 10;

/** The built file of `program` when the build is up to date with every source it was made from, else null. */
export function freshProgram(program) {
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(MANIFEST, 'utf8'));
  } catch {
    return null;
  }
  const file = path.join(BUILD, manifest.dir, `${program}.mjs`);
  if (!manifest.programs?.includes(program) || !fs.existsSync(file)) return null;
  for (const input of [...manifest.inputs, ...CONFIG_FILES]) {
    const stat = fs.statSync(path.join(ROOT, input), { throwIfNoEntry: false });
    if (!stat || stat.mtimeMs > manifest.startedAt) return null;
  }
  return file;
}

/**
 * Builds every program into a new folder and then points the manifest at it (a rename, so a
 * process starting meanwhile sees the old build or the new one, whole). Node packages stay
 * imports (node_modules is resolved at run time); every subcommand's own modules become a
 * chunk loaded when it runs. Returns the manifest.
 */
export async function build() {
  const { build: esbuild } = await import('esbuild');
  const startedAt = Date.now();
  const dir = `b-${startedAt}-${process.pid}`;
  const result = await esbuild({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(PROGRAMS.map((p) => [p, `scripts/${p}.ts`])),
    outdir: path.join(BUILD, dir),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    metafile: true,
    logLevel: 'error',
  });
  // Inputs as paths from the root; the modules esbuild itself provides (none today) are skipped.
  const inputs = Object.keys(result.metafile.inputs).filter((f) => !f.includes(':'));
  const manifest = { dir, startedAt, programs: PROGRAMS, inputs };
  fs.writeFileSync(`${MANIFEST}.${process.pid}`, JSON.stringify(manifest));
  fs.renameSync(`${MANIFEST}.${process.pid}`, MANIFEST);
  const superseded = fs
    .readdirSync(BUILD)
    .filter((old) => old.startsWith('b-') && old !== dir)
    .map((old) => ({ old, at: fs.statSync(path.join(BUILD, old)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const [i, { old, at }] of superseded.entries()) {
    if (i >= KEEP_OLD || startedAt - at > KEEP_OLD_MS) fs.rmSync(path.join(BUILD, old), { recursive: true, force: true });
  }
  return manifest;
}

// `node scripts/build.mjs`: build now (npm's postinstall). A failure is reported, not fatal:
// scripts/run.mjs then runs the sources through tsx, as before anything was built.
if (process.argv[1] && path.resolve(process.argv[1]) === path.join(ROOT, 'scripts', 'build.mjs')) {
  try {
    const started = performance.now();
    const { inputs } = await build();
    console.log(`[build] ${PROGRAMS.length} programs from ${inputs.length} sources in ${Math.round(performance.now() - started)} ms (.build/)`);
  } catch (e) {
    console.error(`[build] not built (${e instanceof Error ? e.message : String(e)}); the programs will run from their sources`);
  }
}
