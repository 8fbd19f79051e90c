// The evaluation tables as text: the CLI's rendering of what the /eval/[id] page shows.
import type { EvalJobView } from '../../lib/eval/jobs';
import { num, pct } from '../../lib/eval/jobs/format';
import { table } from './sets';

export function formatEvalTables(view: EvalJobView): string {
  const { progress, summary, sample } = view;
  const drawn = sample?.limit && sample.limit < sample.setTotal ? `, a sample of ${sample.limit} (seed ${sample.seed}) of ${sample.setTotal}` : '';
  const lines = [
    `Evaluation "${view.name}" — ${view.status}; ${progress.done}/${progress.total} runs done, ${progress.errors} error(s)`,
    `Set: ${view.set?.name ?? '(deleted)'}${drawn}; backend: ${view.backend.model}; share: /e/${view.shareId}${view.id ? `; job id: ${view.id}` : ''}`,
    '',
    'Scores per method × configuration (accuracy, abstain and grounding in %; averages per run)',
    table(
      ['method', 'config', 'runs', 'accuracy', 'abstain', 'grounding', 'errors', 'steps', 'iterations', 'calls', 'tokens', 'ms'],
      summary.scores.map((s) => [
        s.method,
        s.config,
        `${s.finished}/${s.items}`,
        pct(s.accuracy),
        pct(s.abstainRate),
        pct(s.grounding),
        String(s.errors),
        num(s.avgSteps),
        num(s.avgIterations, 2),
        num(s.avgCalls),
        s.avgTokensIn === null ? '—' : String(Math.round((s.avgTokensIn ?? 0) + (s.avgTokensOut ?? 0))),
        num(s.avgWallMs, 0),
      ]),
    ),
  ];
  const { columns, rows } = summary.families;
  if (columns.length) {
    const header = [
      'method',
      'config',
      ...columns.flatMap((c) => [...c.answerTypes.map((t) => `${c.family} ${t}`), ...(c.answerTypes.length > 1 ? [`${c.family} avg`] : [])]),
      'Overall Avg',
    ];
    lines.push(
      '',
      'Accuracy per family and answer type (%); a family avg is the macro average of its answer types, Overall Avg the mean of the family averages',
      table(
        header,
        rows.map((r) => [
          r.method,
          r.config,
          ...columns.flatMap((c) => [
            ...c.answerTypes.map((t) => pct(r.cells[c.family][t])),
            ...(c.answerTypes.length > 1 ? [pct(r.familyAvg[c.family])] : []),
          ]),
          pct(r.overallAvg),
        ]),
      ),
    );
  }
  const attribution = summary.attribution;
  if (attribution) {
    lines.push(
      '',
      `X-R2 attribution buckets from ${attribution.referenceMethod}'s reruns; accuracy (%) of each method's full configuration within each bucket`,
      table(
        ['bucket', 'questions', ...view.methods],
        attribution.bucketed.map((b) => [b.bucket, String(b.instances), ...view.methods.map((m) => pct(b.accuracy[m] ?? null))]),
      ),
    );
  }
  return lines.join('\n');
}
