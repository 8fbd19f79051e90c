import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { build, freshProgram, PROGRAMS } from '../../scripts/build.mjs';

const run = (...args: string[]) => spawnSync(process.execPath, ['scripts/run.mjs', ...args], { encoding: 'utf8' });

describe('programs built ahead of time (scripts/build.mjs, scripts/run.mjs)', () => {
  it('builds every program, counts it stale when one of its sources changes, and runs the build', async () => {
    const manifest = await build();
    expect(manifest.programs).toEqual(PROGRAMS);
    // The CLI's sources are the build's inputs, down to a subcommand loaded only when named.
    expect(manifest.inputs).toEqual(expect.arrayContaining(['scripts/hopscope.ts', 'scripts/cli/sets.ts', 'lib/trace/recorder.ts']));
    const built = freshProgram('hopscope');
    expect(built).toMatch(/\.build\/b-[^/]+\/hopscope\.mjs$/);

    // A source edited after the build: stale until built again.
    const source = 'scripts/cli/usage.ts';
    const { atime, mtime } = fs.statSync(source);
    try {
      fs.utimesSync(source, atime, new Date(Date.now() + 60_000));
      expect(freshProgram('hopscope')).toBeNull();
    } finally {
      fs.utimesSync(source, atime, mtime);
    }
    expect(freshProgram('hopscope')).toBe(built);

    // The built CLI answers a usage error without touching a database (exit code 2), naming its commands.
    const usage = run('hopscope');
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/usage: npm run hopscope -- <run\|generate\|sets\|eval\|verify\|reproduce\|users>/);
    expect(run('hopscope', 'no-such-command').status).toBe(2);
    const unknown = run('no-such-program');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/usage: node scripts\/run\.mjs <hopscope\|worker\|start/);
  });
});
