import { describe, expect, it } from 'vitest';
import { normalise } from '@/lib/llm/offline/text';
import { wordSequences } from '@/lib/methods/eigen1/stages/retrieve';

/** What EIGEN-1's ranking asked before: the normalised name, between spaces, in the normalised reasoning between spaces. */
const scanned = (text: string, name: string) => ` ${normalise(text)} `.includes(` ${normalise(name)} `);

describe('wordSequences (EIGEN-1 ranking: is a name already in the reasoning)', () => {
  const text = 'I need the genes that TNF-α binds. Wait a minute: Interleukin-6 (IL6) binds TNF alpha; IL6 is expressed in the liver.';
  it.each([
    ['TNF-alpha', true],
    ['tnf α', true],
    ['IL6', true],
    ['IL', false],
    ['interleukin 6', true],
    ['liver', true],
    ['the liver', true],
    ['liver cell', false],
    ['6 il6', true],
    ['binds tnf', true],
    ['', false],
    ['  ', false],
    ['expressed in the liver.', true],
    ['ex', false],
  ])('"%s" → %s, as the text scan says', (name, expected) => {
    expect(wordSequences(normalise(text))(normalise(name))).toBe(expected);
    expect(scanned(text, name)).toBe(expected);
  });

  it('answers as the scan does for every word run of a text and for words it lacks', () => {
    const words = normalise(text).split(' ');
    const says = wordSequences(normalise(text));
    for (let i = 0; i < words.length; i++)
      for (let n = 1; n <= 4 && i + n <= words.length; n++) {
        const phrase = words.slice(i, i + n).join(' ');
        expect(says(phrase)).toBe(true);
        expect(says(`${phrase} zzz`)).toBe(scanned(text, `${phrase} zzz`));
      }
  });

  it('an empty reasoning holds only the empty name, as the scan says', () => {
    expect(wordSequences('')('')).toBe(scanned('', ''));
    expect(wordSequences('')('liver')).toBe(false);
  });
});
