import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('the English model', () => {
  // Loading it is most of what a command that reads no text (`hopscope sets list`) would spend starting.
  it('is loaded when a text is first analysed, not when lib/nlp/english is imported', () => {
    const script = `
      import { createRequire } from 'node:module';
      const cache = createRequire(process.cwd() + '/').cache;
      const loaded = () => Object.keys(cache).some((file) => file.includes('wink-eng-lite-web-model'));
      const english = await import('./lib/nlp/english.ts');
      const before = loaded();
      const words = english.analyse('Which tumours are treated with cisplatin?');
      console.log(JSON.stringify({ before, after: loaded(), lemma: words[1]?.lemma }));`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(child.status, child.stderr).toBe(0);
    expect(JSON.parse(child.stdout.trim().split('\n').at(-1)!)).toEqual({ before: false, after: true, lemma: 'tumor' });
  });
});
