import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every .ts/.tsx file under these folders. */
function sources(...dirs: string[]): string[] {
  return dirs.flatMap((dir) =>
    fs
      .readdirSync(dir, { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
      .map((e) => path.join(e.parentPath, e.name))
      .filter((f) => !f.includes(`${path.sep}generated${path.sep}`)),
  );
}

describe('AsyncLocalStorage', () => {
  // Node 20 keeps every AsyncLocalStorage that was ever entered and visits all of them whenever an
  // async resource is created: one made per run (or per request) slows the process with every run.
  it('is made once per module, never per object or call', () => {
    const made = sources('lib', 'app', 'scripts').flatMap((file) =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.includes('new AsyncLocalStorage'))
        .map((line) => ({ file, line })),
    );
    expect(made.length).toBeGreaterThan(0);
    expect(made.filter(({ line }) => !/^(export )?const \w+ = new AsyncLocalStorage\b/.test(line))).toEqual([]);
  });
});
