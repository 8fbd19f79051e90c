import path from 'node:path';

/** One bad item in a question-set file: where it is (a line, or an item id) and what is wrong with it. */
export interface ImportIssue {
  file: string;
  /** "line 7", "medqa/0042", "#12" (index in a JSON array); absent for whole-file problems. */
  at?: string;
  reason: string;
}

/** Issues shown in the message; the rest are counted. */
const SHOWN = 20;

/**
 * A question-set file with problems. Thrown before anything is written, with
 * every bad item found, so one pass shows everything there is to fix.
 */
export class SetImportError extends Error {
  name = 'SetImportError';

  constructor(readonly issues: ImportIssue[]) {
    const lines = issues.slice(0, SHOWN).map((i) => `  ${path.basename(i.file)}${i.at ? ` ${i.at}` : ''}: ${i.reason}`);
    if (issues.length > SHOWN) lines.push(`  … and ${issues.length - SHOWN} more`);
    super(`${issues.length} problem${issues.length === 1 ? '' : 's'} found; nothing was imported:\n${lines.join('\n')}`);
  }
}

/** The first zod issue of an item as one readable reason: "options.B: expected string". */
export function zodReason(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  const where = issue.path.map(String).join('.');
  return where ? `${where}: ${issue.message}` : issue.message;
}
