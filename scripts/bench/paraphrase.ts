import { existsSync } from 'node:fs';
import path from 'node:path';
import { deleteJob } from '../../lib/eval/jobs/store';
import { deleteSetsNamed } from '../../lib/eval/store/sets';
import { importQuestionSet } from '../../lib/eval/import';
import { createEvalJob, driveEvalJob, getEvalJobView, type EvalSummary } from '../../lib/eval/jobs';
import { listMethods } from '../../lib/methods/registry';
import { round } from './timing';
import type { BenchModule, GridRow } from './types';

/**
 * The blind paraphrase corpora (README "Evaluation"): questions written by people
 * who saw only a fact and a style, gold computed from the KG. Corpus 1 keys
 * start `paraphrase_`, corpus 2 (new facts, new writers and styles) `paraphrase2_`, corpus 3
 * (every metaedge both ways, chains, combined constraints, exclusion, misspellings; scripts/corpus3) `paraphrase3_`, corpus 4
 * (new anchors and writers' styles, wholly held out: no tune part) `paraphrase4_`.
 * Holdout is the headline figure; tune is the part a parser may be looked at against.
 * Each runs twice: as the papers' methods (aids off, the default) and with Hopscope's
 * aids on (docs/aids.md): the second's keys end `_aids`.
 */
const FIXTURES = path.join('tests', 'fixtures', 'paraphrase');
const CORPORA = ['paraphrase', 'paraphrase2', 'paraphrase3', 'paraphrase4'] as const;
const PARTS = [
  { part: 'holdout', key: 'accuracy' },
  { part: 'tune', key: 'tune_accuracy' },
] as const;
const CONCURRENCY = 8;
/** The configurations every corpus runs under, and the key suffix of each. */
const CONFIGS = [
  { key: 'full', suffix: '' },
  { key: 'full+aids=1', suffix: '_aids' },
] as const;

/**
 * Offline accuracy of every registered method on each part of each corpus, overall and per
 * family: the fixture is imported as a JSONL set and evaluated through the eval
 * job machinery (full configuration, offline engine). The jobs, their runs and
 * the sets are deleted afterwards. A part whose fixture is absent is skipped.
 */
export const paraphrase: BenchModule = {
  name: 'paraphrase corpus (offline accuracy)',
  flag: 'accuracy',
  help: 'offline accuracy of every method on the paraphrase corpora, per part and family, with the aids off and on (720 questions × 7 methods × 2: tens of minutes)',
  async run({ log }) {
    const methods = listMethods().map((m) => m.id);
    const rows: GridRow[] = [];
    for (const corpus of CORPORA)
      for (const { part, key } of PARTS) {
        const file = path.join(FIXTURES, `${corpus}-${part}.jsonl`);
        if (!existsSync(file)) {
          log(`${file} is missing: ${corpus} ${part} skipped`);
          continue;
        }
        const { summary, questions } = await evaluate(file, `bench-${corpus}-${part}`, methods);
        rows.push(
          accuracyGrid(summary, methods, {
            label: `${corpus} ${part} (${questions} questions, offline)`,
            family: `${corpus}_${part}`,
            all: `${corpus}_${key}`,
          }),
        );
        for (const s of summary.scores) log(`${corpus} ${part} ${s.method} ${s.config}: ${s.correct}/${s.scored} correct, ${s.errors} error(s)`);
      }
    return rows;
  },
};

/**
 * A grid of accuracy per family and overall, one row per method and configuration: cells keyed
 * `${family}_${familyName}_${method}` and `${all}_${method}`, with `_aids` after the aids' rows.
 */
export function accuracyGrid(summary: EvalSummary, methods: string[], keys: { label: string; family: string; all: string }): GridRow {
  const families = summary.families.columns.map((c) => c.family);
  return {
    type: 'grid',
    label: `${keys.label}: accuracy per family, aids off and on`,
    columns: [...families, 'all'],
    rows: methods.flatMap((method) =>
      CONFIGS.map(({ key: config, suffix }) => {
        const slug = method.replace('-', '_');
        const familyAvg = summary.families.rows.find((r) => r.method === method && r.config === config)?.familyAvg ?? {};
        const all = summary.scores.find((s) => s.method === method && s.config === config)?.accuracy ?? null;
        return {
          label: `${method}${suffix ? ' + aids' : ''}`,
          cells: [
            ...families.map((family) => ({ key: `${keys.family}_${family}_${slug}${suffix}`, value: rounded(familyAvg[family] ?? null) })),
            { key: `${keys.all}_${slug}${suffix}`, value: rounded(all) },
          ],
        };
      }),
    ),
  };
}

/** A JSONL set evaluated by `methods`, aids off and on, offline; the job, its runs and the set are deleted afterwards. */
export async function evaluate(file: string, name: string, methods: string[]): Promise<{ summary: EvalSummary; questions: number }> {
  const set = await importQuestionSet({ format: 'jsonl', file, name }, { replace: true });
  const job = await createEvalJob(
    { set: set.id, methods, switches: CONFIGS.map((c) => c.key).join(','), backend: 'offline', concurrency: CONCURRENCY },
    { lock: true },
  );
  try {
    const result = await driveEvalJob(job.id, { mode: 'inline', lock: job.lock });
    if (result !== 'finished') throw new Error(`the paraphrase evaluation did not finish (${result})`);
    return { summary: (await getEvalJobView({ id: job.id })).summary, questions: set.counts.total };
  } finally {
    await deleteJob(job.id);
    await deleteSetsNamed(name);
  }
}

const rounded = (x: number | null) => (x === null ? null : round(x, 3));
