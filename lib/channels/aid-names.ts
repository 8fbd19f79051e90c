/**
 * Hopscope's aids: what a method gets, in model mode, beyond its paper's model
 * calls and the knowledge channels as the paper uses them (docs/aids.md). Each
 * is behind the `aids` switch, off by default. Client-safe: the run page names them.
 */
export const AIDS = {
  'question-reader': "Hopscope's rule reader chose the question's anchors and relations (not the paper's linking)",
  'answer-set': 'a complete answer set read from the KG for the question as read, beside the paper’s evidence',
  'option-tests': 'each multiple-choice option tested for direct KG edges to the question’s anchors, shown beside the top K',
  'option-coverage': 'reaching a multiple-choice option counted as one more constraint met when ranking KG units',
  'completeness-notice': 'how much of each relation the KG holds, or how many equally good candidates went unshown',
  'option-checks': 'per-option support read from the retrieved evidence (recorded in the trace only)',
} as const;

export type AidName = keyof typeof AIDS;

/** How a prompt heads a block an aid added, so a model (and a reader of the prompt) tells it from the method's own evidence. */
export const AID_MARK = 'Hopscope aid, not part of the method';
export const AID_NAMES = Object.keys(AIDS) as AidName[];

/** One aid's part in a run: where it acted and the evidence it added (none for an aid that shaped a ranking or a choice). */
export interface AidUse {
  aid: AidName;
  evidenceIds: string[];
}

/**
 * The aids that shaped a finished answer, from its `extra.aids` (lib/runs/executor.ts):
 * null when the run had the aids off (or predates them), [] when they were on and none acted.
 */
export function aidsOfAnswer(answer: { extra?: unknown } | null | undefined): AidName[] | null {
  const listed = (answer?.extra as { aids?: unknown } | undefined)?.aids;
  if (!Array.isArray(listed)) return null;
  return listed.flatMap((a) => {
    const aid = (a as { aid?: unknown } | null)?.aid;
    return typeof aid === 'string' && aid in AIDS ? [aid as AidName] : [];
  });
}
