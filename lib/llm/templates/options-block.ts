import { normalise } from '@/lib/llm/offline/text';
import { splitInlineOptions } from '@/lib/reading/options';

/**
 * The options a prompt shows: the record when one was sent, else the options written into the question
 * ("…: pancreatitis, bone cancer, psoriasis, or azoospermia?") under the letters the reader gives them, so the
 * model's optionKey names the same option the answer maps back to.
 */
export function shownOptions(question: string, options: Record<string, string> | null | undefined): Record<string, string> | null {
  if (Object.keys(options ?? {}).length) return options!;
  const inline = splitInlineOptions(question).options;
  return inline.length ? Object.fromEntries(inline.map((o) => [o.letter, o.text])) : null;
}

/** A multiple-choice question's options as every prompt shows them: "Options:" and one "A. text" line each; null for none. */
export function optionsBlock(question: string, options: Record<string, string> | null | undefined): string | null {
  const entries = Object.entries(shownOptions(question, options) ?? {});
  return entries.length ? `Options:\n${entries.map(([k, v]) => `${k}. ${v}`).join('\n')}` : null;
}

// The label a writer puts before options written inline ("… Options:", "Choices:"), left at the stem's end.
const OPTIONS_LABEL = /\s*\b(?:options|choices|answer choices)\s*:\s*$/i;

/**
 * The question as a prompt shows it beside its options block: when the options arrive as a record and are also
 * written into the question ("… ? A. Metformin B. Natalizumab"), the stem alone, so each option is shown once.
 * Inline options the record does not hold keep the question whole: the writer's text is not cut.
 */
export function questionShown(question: string, options: Record<string, string> | null | undefined): string {
  const given = new Set(Object.values(shownOptions(question, options) ?? {}).map(normalise));
  if (!given.size) return question;
  const inline = splitInlineOptions(question);
  if (!inline.options.length || inline.options.some((o) => !given.has(normalise(o.text)))) return question;
  return inline.stem.replace(OPTIONS_LABEL, '').trim() || question;
}
