/**
 * Multiple-choice options: read them from a record, a list or the question text
 * itself ("... ? A. IL23R B. NOD2 ..."), and match an answer back to a letter.
 */

import { normalise } from './text';

export interface ParsedOption {
  letter: string;
  text: string;
  /** Offsets of the option text in the question, when it was written inline. */
  start?: number;
  end?: number;
}

/** Options from {"A": "foo", ...} (letters sorted) or ["foo", ...] (lettered A, B, ...). */
export function parseOptions(options: Record<string, string> | string[]): ParsedOption[] {
  if (Array.isArray(options)) return options.map((text, i) => ({ letter: String.fromCharCode(65 + i), text: text.trim() }));
  return Object.keys(options)
    .sort()
    .map((letter) => ({ letter: letter.trim().toUpperCase(), text: String(options[letter]).trim() }));
}

const MARKER = /(?:^|(?<=\s))\(?([A-J])[.):]\s+/g;

/**
 * Splits "stem A. foo B. bar" into the stem and lettered options. Markers must
 * run A, B, C, ... in order (at least A and B), so a stray "vitamin A." in the
 * stem is not mistaken for options; the longest such run wins.
 */
export function splitInlineOptions(text: string): { stem: string; options: ParsedOption[] } {
  const markers = [...text.matchAll(MARKER)].map((m) => ({ letter: m[1], start: m.index, end: m.index + m[0].length }));
  let best: typeof markers = [];
  for (const [i, first] of markers.entries()) {
    if (first.letter !== 'A') continue;
    const run = [first];
    for (const next of markers.slice(i + 1)) {
      if (next.letter === String.fromCharCode(run.at(-1)!.letter.charCodeAt(0) + 1)) run.push(next);
    }
    if (run.length >= 2 && run.length >= best.length) best = run;
  }
  if (!best.length) return { stem: text, options: [] };
  const options = best.map((marker, i) => {
    const raw = text.slice(marker.end, i + 1 < best.length ? best[i + 1].start : text.length);
    const trimmed = raw.replace(/[\s,;]+$/, '');
    const lead = trimmed.length - trimmed.trimStart().length;
    return { letter: marker.letter, text: trimmed.trim(), start: marker.end + lead, end: marker.end + trimmed.length };
  });
  return { stem: text.slice(0, best[0].start).trimEnd(), options };
}

/**
 * The option an answer names: a bare letter ("B", "(B)", "Answer: B") or an
 * option's text after normalisation. null when it names none or several.
 */
export function matchOption(answer: string, options: ParsedOption[]): string | null {
  const letter = /^\s*(?:(?:the\s+)?answer(?:\s+is)?\s*[:-]?\s*)?\(?([A-J])\)?[.)]?\s*$/i.exec(answer);
  if (letter) {
    const found = options.find((o) => o.letter === letter[1].toUpperCase());
    if (found) return found.letter;
  }
  const wanted = normalise(answer);
  const hits = options.filter((o) => normalise(o.text) === wanted);
  return hits.length === 1 ? hits[0].letter : null;
}
