import { normaliseAnswer } from '@/lib/eval/normalise';

/** Spellings shorter than this are too common as words (gene aliases like "AR", "MS") to count as a leak. */
const MIN_LEAK_LENGTH = 3;

/**
 * Whether the question gives its own answer away: the answer's name or one of
 * its aliases appears in the text as whole words, after scoring normalisation.
 */
export function leaksAnswer(text: string, spellings: string[]): boolean {
  const haystack = ` ${words(text)} `;
  return spellings.some((s) => {
    const needle = words(s);
    return needle.length >= MIN_LEAK_LENGTH && haystack.includes(` ${needle} `);
  });
}

function words(text: string): string {
  return normaliseAnswer(text)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
