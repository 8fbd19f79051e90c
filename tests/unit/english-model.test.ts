import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import winkNLP from 'wink-nlp';
import { describe, expect, it } from 'vitest';
import { loadEnglishModel } from '@/lib/nlp/english-model';

/**
 * The English model is loaded by our own loader, not the package's (lib/nlp/english-model.ts): every word of every
 * question in the paraphrase corpora, and texts with contractions, British spellings, symbols and several sentences,
 * must be read exactly as the package's own model reads it.
 */
const texts = [
  ...fs
    .readdirSync('tests/fixtures/paraphrase')
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) => fs.readFileSync(path.join('tests/fixtures/paraphrase', f), 'utf8').split('\n').filter(Boolean))
    .map((line) => (JSON.parse(line) as { question: string }).question),
  "Doesnt the tumour's haemoglobin bind PPARG? It's utilised in oesophageal cancer; can't it?",
  'Which compound, e.g. aspirin (ASA), treats type-2 diabetes mellitus & MS?! LILRB2 vs. mTOR: 5 mg/kg, 3.5% — up-regulated.',
];

describe('the English model as our loader makes it', () => {
  it('reads every word as the package loads it: value, part of speech, lemma, lexicon id, sentences', () => {
    expect(texts.length).toBeGreaterThan(500);
    const stock = winkNLP(createRequire(import.meta.url)('wink-eng-lite-web-model'), ['sbd', 'pos']);
    const ours = winkNLP(loadEnglishModel(), ['sbd', 'pos']);
    const read = (nlp: typeof stock, text: string) => {
      const doc = nlp.readDoc(text);
      const its = nlp.its;
      const tokens = doc.tokens();
      return {
        sentences: doc.sentences().out(),
        value: tokens.out(its.value),
        pos: tokens.out(its.pos),
        lemma: tokens.out(its.lemma as unknown as typeof its.value),
        id: tokens.out(its.uniqueId),
        type: tokens.out(its.type),
      };
    };
    let differ = 0;
    for (const text of [...texts, ...texts.map((t) => t.toLowerCase())]) if (JSON.stringify(read(ours, text)) !== JSON.stringify(read(stock, text))) differ++;
    expect(differ).toBe(0);
    expect(read(ours, texts.at(-2)!).lemma).toContain('tumor');
  });
});
