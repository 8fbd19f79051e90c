import type { RunRecord } from '../../lib/runs/read';

type Step = RunRecord['steps'][number];

/** The trace as an indented outline: one line per step with status and duration. */
export function traceOutline(steps: Step[]): string {
  const children = new Map<string | null, Step[]>();
  for (const s of steps) {
    const list = children.get(s.parentStepId) ?? [];
    list.push(s);
    children.set(s.parentStepId, list);
  }
  const lines: string[] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const s of children.get(parent) ?? []) {
      const mark = s.status === 'succeeded' ? '✓' : s.status === 'skipped' ? '–' : s.status === 'failed' ? '✗' : '…';
      const note = s.status === 'skipped' ? `  (${(s.output as { reason?: string } | null)?.reason ?? 'skipped'})` : '';
      lines.push(`${'  '.repeat(depth)}${mark} ${s.label} [${s.kind}]${s.durationMs != null ? ` ${s.durationMs} ms` : ''}${note}`);
      walk(s.id, depth + 1);
    }
  };
  walk(null, 0);
  return lines.join('\n');
}
