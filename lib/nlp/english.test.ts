import { describe, expect, it } from 'vitest';
import { analyse } from './english';

describe('analyse', () => {
  it('reads contractions written without their apostrophe, which the model gives no lemma', () => {
    for (const text of ['which genes does aspirin bind that ibuprofen doesnt?', 'ibuprofen doesnt', 'it hasnt and they wouldnt', 'shouldnt we']) {
      const words = analyse(text);
      expect(words.map((w) => text.slice(w.start, w.end))).toEqual(words.map((w) => w.text));
      for (const w of words) expect(w.lemma).toMatch(/^[a-z]+$/);
    }
  });

  it('keeps offsets and gives lower-case American lemmas', () => {
    const words = analyse('the tumours were analysed');
    expect(words.map((w) => [w.text, w.start, w.lemma])).toEqual([
      ['the', 0, 'the'],
      ['tumours', 4, 'tumor'],
      ['were', 12, 'be'],
      ['analysed', 17, 'analyze'],
    ]);
  });
});
