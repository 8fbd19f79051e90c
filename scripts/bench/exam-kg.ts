import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveDataDir } from '../../lib/config';
import { readExamItems, readNameIndex, selectKgDecidable, type ExamLine } from '../../lib/eval/exam-kg';
import { listMethods } from '../../lib/methods/registry';
import { accuracyGrid, evaluate } from './paraphrase';
import type { BenchModule, GridRow } from './types';

const PARTS = [
  { part: 'holdout', key: 'exam_kg_accuracy' },
  { part: 'tune', key: 'exam_kg_tune_accuracy' },
] as const;

/**
 * Selects the exam MCQs the KG alone decides from the benchmarks under the data
 * directory and writes them to `dir` as exam-kg-tune.jsonl and exam-kg-holdout.jsonl;
 * returns the files and a summary of the set's size per dataset and part.
 */
export async function writeExamSets(dataDir: string, dir: string): Promise<{ files: Record<'tune' | 'holdout', string>; lines: ExamLine[]; summary: string }> {
  const { lines, examined } = await selectKgDecidable(readExamItems(dataDir), await readNameIndex());
  mkdirSync(dir, { recursive: true });
  const files = { tune: path.join(dir, 'exam-kg-tune.jsonl'), holdout: path.join(dir, 'exam-kg-holdout.jsonl') };
  for (const part of ['tune', 'holdout'] as const)
    writeFileSync(
      files[part],
      lines
        .filter((l) => l.meta.part === part)
        .map((l) => JSON.stringify(l) + '\n')
        .join(''),
    );
  const summary = Object.entries(examined)
    .map(([dataset, n]) => {
      const of = lines.filter((l) => l.family === dataset);
      return `${dataset}: ${of.length} of ${n} (tune ${of.filter((l) => l.meta.part === 'tune').length}, holdout ${of.filter((l) => l.meta.part === 'holdout').length})`;
    })
    .join('\n');
  return { files, lines, summary: `${summary}\nall: ${lines.length}` };
}

/**
 * Offline accuracy of every method on the exam MCQs the KG alone decides
 * (lib/eval/exam-kg.ts), generated at run time from the benchmarks under the
 * data directory into a temporary folder (their text is never committed), per
 * part and per dataset, aids off and on.
 */
export const examKg: BenchModule = {
  name: 'exam MCQs the KG decides (offline accuracy)',
  flag: 'exam',
  help: 'offline accuracy of every method on the MedDDx/MedQA/MedMCQA/MMLU-Med items whose key is the one option joined to the stem in the KG, per part and dataset, aids off and on (minutes)',
  async run({ log }) {
    const dataDir = resolveDataDir();
    if (!dataDir) {
      log('no data directory: exam MCQs skipped');
      return [];
    }
    const dir = mkdtempSync(path.join(os.tmpdir(), 'exam-kg-'));
    try {
      const written = await writeExamSets(dataDir, dir);
      log(`exam MCQs the KG decides:\n${written.summary}`);
      const methods = listMethods().map((m) => m.id);
      const rows: GridRow[] = [];
      for (const { part, key } of PARTS) {
        const { summary, questions } = await evaluate(written.files[part], `bench-exam-kg-${part}`, methods);
        rows.push(
          accuracyGrid(summary, methods, { label: `exam MCQs the KG decides, ${part} (${questions} questions, offline)`, family: `exam_kg_${part}`, all: key }),
        );
        for (const s of summary.scores) log(`exam-kg ${part} ${s.method} ${s.config}: ${s.correct}/${s.scored} correct, ${s.errors} error(s)`);
      }
      return rows;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
