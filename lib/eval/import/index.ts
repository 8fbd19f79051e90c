import path from 'node:path';
import { saveQuestionSet, type NewQuestion, type QuestionSetSummary, type SaveSetOptions } from '@/lib/eval/sets';
import { SetImportError } from './errors';
import type { SetFormat } from './formats';
import { checkGoldNodes, parseJsonl } from './jsonl';
import { parseMedddx } from './medddx';
import { parseMirage } from './mirage';
import type { ParsedSet } from './parsed';
import { linkCorpusAbstracts, parsePubmedqa } from './pubmedqa';

export { SetImportError } from './errors';

export { SET_FORMATS, type SetFormat } from './formats';

export interface ImportSetOptions {
  format: SetFormat;
  file: string;
  name: string;
  /** PubMedQA: the test ground truth (`{pmid: yes|no|maybe}`); the set becomes that split. */
  goldFile?: string;
  /** The first N questions of each family (each MIRAGE dataset, each MedDDx level), in file order (numeric ids ascending). */
  limit?: number;
}

const FORMATS: Record<SetFormat, { license: string; description: string; parse(opts: ImportSetOptions): Promise<ParsedSet> }> = {
  mirage: {
    license: 'see MIRAGE sources (MedQA, MedMCQA, PubMedQA, BioASQ, MMLU each under its own license)',
    description: 'MIRAGE (Xiong et al. 2024): medical MCQs and yes/no questions; family = sub-dataset',
    parse: async ({ file }) => parseMirage(file),
  },
  medddx: {
    license: 'as published with KGARevion (MedDDx)',
    description: 'MedDDx: differential-diagnosis MCQs; family = Basic / Intermediate / Expert by sim_level_std',
    parse: async ({ file }) => parseMedddx(file),
  },
  pubmedqa: {
    license: 'MIT',
    description: 'PubMedQA PQA-L (Jin et al. 2019): yes/no/maybe questions with their abstract attached',
    parse: async ({ file, goldFile }) => parsePubmedqa(file, { goldFile }),
  },
  jsonl: {
    license: 'user-provided',
    description: 'generic JSONL questions',
    parse: async ({ file }) => {
      const parsed = parseJsonl(file);
      await checkGoldNodes(file, parsed);
      return parsed;
    },
  },
};

/**
 * Reads, validates and stores a question set. Every item is validated first;
 * any problem throws SetImportError listing them all, and nothing is stored.
 * The set itself is written in one transaction.
 */
export async function importQuestionSet(opts: ImportSetOptions, save: SaveSetOptions = {}): Promise<QuestionSetSummary> {
  const format = FORMATS[opts.format];
  const parsed = await format.parse(opts);
  if (parsed.issues.length) throw new SetImportError(parsed.issues);
  if (!parsed.questions.length) throw new SetImportError([{ file: opts.file, reason: 'no questions in the file' }]);
  parsed.questions = firstPerFamily(parsed.questions, opts.limit);
  if (opts.format === 'pubmedqa') await linkCorpusAbstracts(parsed);
  return saveQuestionSet(
    {
      name: opts.name,
      source: opts.format,
      license: format.license,
      description: format.description,
      meta: {
        file: path.basename(opts.file),
        ...(opts.goldFile ? { goldFile: path.basename(opts.goldFile) } : {}),
        ...(opts.limit ? { limitPerFamily: opts.limit } : {}),
      },
      questions: parsed.questions,
    },
    save,
  );
}

function firstPerFamily(questions: NewQuestion[], limit: number | undefined): NewQuestion[] {
  if (limit === undefined) return questions;
  const taken = new Map<string | null | undefined, number>();
  return questions.filter((q) => {
    const n = taken.get(q.family) ?? 0;
    taken.set(q.family, n + 1);
    return n < limit;
  });
}
