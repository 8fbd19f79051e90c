import { readFileSync } from 'node:fs';
import path from 'node:path';
import { explainLinks, KnowledgeLookups } from '../../lib/kg';
import type { LinkingCase } from '../linking-set';
import type { BenchModule, GridRow } from './types';

export const LINKING_SET = path.join('tests', 'fixtures', 'linking', 'linking-set.jsonl');

export function readLinkingSet(file = LINKING_SET): LinkingCase[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as LinkingCase);
}

/**
 * Per case: right (a link on the mention's span to an accepted node), right-reading (none, but one of the link's
 * `readings` is: the reader picks among them by the question's relation, docs/linking.md), wrong (a link there to
 * another node, or any for "none"), missed.
 */
export interface LinkingOutcome {
  case: LinkingCase;
  outcome: 'right' | 'right-reading' | 'wrong' | 'missed' | 'rightly-none';
  linked: string[];
}

export interface LinkingScore {
  precision: number | null;
  recall: number | null;
  cases: number;
  outcomes: LinkingOutcome[];
}

/**
 * Links every sentence and reads the links that overlap the mention's span.
 * Precision: right / (right + wrong), where a link on a false friend's span is
 * wrong; recall: right / cases that name a node.
 */
export async function scoreLinkingSet(cases: LinkingCase[], lookups = new KnowledgeLookups()): Promise<LinkingScore> {
  const outcomes: LinkingOutcome[] = [];
  for (const c of cases) {
    const { links } = await explainLinks(c.sentence, { lookups });
    const end = c.start + c.mention.length;
    const onSpan = links.filter((l) => (l.start ?? -1) < end && c.start < (l.end ?? -1));
    const linked = onSpan.map((l) => l.nodeId);
    const read = onSpan.flatMap((l) => (l.readings ?? []).map((r) => r.nodeId));
    const outcome =
      c.expected === 'none'
        ? linked.length
          ? 'wrong'
          : 'rightly-none'
        : linked.some((id) => c.accept.includes(id))
          ? 'right'
          : read.some((id) => c.accept.includes(id))
            ? 'right-reading'
            : linked.length
              ? 'wrong'
              : 'missed';
    outcomes.push({ case: c, outcome, linked });
  }
  return { ...figures(outcomes), cases: cases.length, outcomes };
}

/** Precision and recall, a right reading counted right; `recallTop` counts the links alone. */
function figures(outcomes: LinkingOutcome[]): { precision: number | null; recall: number | null; recallTop: number | null } {
  const top = outcomes.filter((o) => o.outcome === 'right').length;
  const right = top + outcomes.filter((o) => o.outcome === 'right-reading').length;
  const wrong = outcomes.filter((o) => o.outcome === 'wrong').length;
  const named = outcomes.filter((o) => o.case.expected !== 'none').length;
  const ratio = (a: number, b: number) => (b ? Math.round((a / b) * 1000) / 1000 : null);
  return { precision: ratio(right, right + wrong), recall: ratio(right, named), recallTop: ratio(top, named) };
}

/**
 * Linking precision and recall on the linking set (docs/linking.md), overall
 * (`linking_precision`, `linking_recall`) and per category. Runs in seconds.
 */
export const linking: BenchModule = {
  name: 'linking set (precision / recall)',
  help: 'linking precision and recall on tests/fixtures/linking/linking-set.jsonl, overall and per category (seconds)',
  async run({ log }) {
    // LINKING_SET=FILE scores another set (one written by scripts/linking-set.ts with another seed), so the linker is not fitted to the committed one.
    const cases = readLinkingSet(process.env.LINKING_SET || LINKING_SET);
    const started = performance.now();
    const score = await scoreLinkingSet(cases);
    log(`linked ${cases.length} sentences in ${Math.round(performance.now() - started)} ms`);
    for (const o of score.outcomes.filter((x) => x.outcome === 'wrong' || x.outcome === 'missed' || x.outcome === 'right-reading'))
      log(`${o.outcome}: ${o.case.id} '${o.case.mention}' → ${o.linked.join(', ') || 'nothing'} (expected ${o.case.expected})`);
    const categories = [...new Set(cases.map((c) => c.category))];
    const grid: GridRow = {
      type: 'grid',
      label: `linking set (${cases.length} cases): precision and recall per category`,
      columns: ['precision', 'recall', 'recall (links alone)', 'wrong', 'cases'],
      rows: [...categories, 'all'].map((category) => {
        const outcomes = category === 'all' ? score.outcomes : score.outcomes.filter((o) => o.case.category === category);
        const f = figures(outcomes);
        const slug = category === 'all' ? '' : `_${category.replace(/-/g, '_')}`;
        return {
          label: category,
          cells: [
            { key: `linking_precision${slug}`, value: f.precision },
            { key: `linking_recall${slug}`, value: f.recall },
            { key: `linking_recall_top${slug}`, value: f.recallTop },
            { key: `linking_wrong${slug}`, value: outcomes.filter((o) => o.outcome === 'wrong').length },
            { key: `linking_cases${slug}`, value: outcomes.length },
          ],
        };
      }),
    };
    return [grid];
  },
};
