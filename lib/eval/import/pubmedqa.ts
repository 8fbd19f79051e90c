import { z } from 'zod';
import { documentIdsByExternalId } from '@/lib/corpus/store';
import { readJsonFile } from './read';
import { zodReason } from './errors';
import { isPlainObject, optionGold, type ParsedSet } from './parsed';

const Decision = z.enum(['yes', 'no', 'maybe']);
const Entry = z.object({
  QUESTION: z.string().trim().min(1, 'empty question'),
  CONTEXTS: z.array(z.string()).min(1, 'no context'),
  LABELS: z.array(z.string()).nullish(),
  MESHES: z.array(z.string()).nullish(),
  YEAR: z.string().nullish(),
  final_decision: Decision,
  LONG_ANSWER: z.string().nullish(),
});
const Gold = z.record(z.string(), Decision);

const OPTIONS = { A: 'yes', B: 'no', C: 'maybe' } as const;
const KEY_OF = { yes: 'A', no: 'B', maybe: 'C' } as const;
/** Where the corpus importer keeps PubMedQA abstracts (lib/kg/import/pubmedqa.ts). */
const CORPUS_SOURCE = 'pubmedqa';

/**
 * PubMedQA PQA-L (`ori_pqal.json`, keyed by PMID) as yes/no/maybe questions
 * with their abstract attached. With the test ground truth (`{pmid: decision}`)
 * the set is that split, scored on its gold; without it, every item on its
 * `final_decision`. Items are named by PMID and come in PMID order (JSON
 * objects with numeric keys keep no other order in JavaScript).
 */
export function parsePubmedqa(file: string, opts: { goldFile?: string } = {}): ParsedSet {
  const root = readJsonFile(file);
  if (!isPlainObject(root)) return { questions: [], issues: [{ file, reason: 'not PubMedQA: expected {pmid: {QUESTION, CONTEXTS, final_decision, …}}' }] };
  const parsed: ParsedSet = { questions: [], issues: [] };

  let gold: Record<string, z.infer<typeof Decision>> | null = null;
  if (opts.goldFile) {
    const raw = Gold.safeParse(readJsonFile(opts.goldFile));
    if (!raw.success)
      return { questions: [], issues: [{ file: opts.goldFile, reason: `not a PubMedQA ground truth {pmid: yes|no|maybe}: ${zodReason(raw.error)}` }] };
    gold = raw.data;
    for (const pmid of Object.keys(gold)) if (!(pmid in root)) parsed.issues.push({ file: opts.goldFile, at: pmid, reason: 'PMID not in the questions file' });
  }

  for (const pmid of gold ? Object.keys(gold).filter((p) => p in root) : Object.keys(root)) {
    const entry = Entry.safeParse(root[pmid]);
    if (!entry.success) {
      parsed.issues.push({ file, at: pmid, reason: zodReason(entry.error) });
      continue;
    }
    const e = entry.data;
    const decision = gold?.[pmid] ?? e.final_decision;
    parsed.questions.push({
      text: e.QUESTION,
      options: { ...OPTIONS },
      answer: optionGold(OPTIONS, KEY_OF[decision]),
      answerType: 'yesno',
      family: 'pubmedqa',
      documents: [{ title: e.QUESTION, sections: e.CONTEXTS.map((text, i) => ({ label: e.LABELS?.[i] ?? null, text })), meta: { pmid } }],
      meta: { pmid, year: e.YEAR ?? null, meshes: e.MESHES ?? [], longAnswer: e.LONG_ANSWER ?? null },
    });
  }
  return parsed;
}

/**
 * Points questions at abstracts already in the corpus (imported from the same
 * file by the knowledge loader) instead of storing a second copy.
 */
export async function linkCorpusAbstracts(parsed: ParsedSet): Promise<void> {
  const pmids = parsed.questions.map((q) => String(q.meta?.pmid));
  const byPmid = await documentIdsByExternalId(CORPUS_SOURCE, pmids);
  for (const [i, q] of parsed.questions.entries()) {
    const id = byPmid.get(pmids[i]);
    if (!id) continue;
    q.documentIds = [id];
    q.documents = undefined;
  }
}
