import type { NewQuestion } from '@/lib/eval/sets';
import type { ImportIssue } from './errors';

/** What a format's parser makes of a file: the questions, and every problem it found (none means importable). */
export interface ParsedSet {
  questions: NewQuestion[];
  issues: ImportIssue[];
}

/** Option keys as the benchmarks write them: single capital letters. */
export const OPTION_KEY = /^[A-Z]$/;

/** Options whose texts are all yes/no/maybe make a yes/no question (PubMedQA, BioASQ), scored on the word. */
export function isYesNo(options: Record<string, string>): boolean {
  return Object.values(options).every((v) => /^(yes|no|maybe)$/i.test(v.trim()));
}

/** A gold answer that is an option: its key and its text. */
export function optionGold(options: Record<string, string>, key: string) {
  return { key, text: options[key], aliases: [], nodeIds: [] };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
