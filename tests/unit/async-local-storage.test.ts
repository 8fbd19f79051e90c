import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sources } from '../support/sources';

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
