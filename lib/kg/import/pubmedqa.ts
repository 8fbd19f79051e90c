import path from 'node:path';
import { z } from 'zod';
import { ImportError } from './errors';
import { writeDocuments, type DocumentImportSummary, type SourceDocument } from './document-writer';
import { readText } from './lines';
import type { ImportOptions } from './options';

const Entry = z.object({
  QUESTION: z.string(),
  CONTEXTS: z.array(z.string()).min(1),
  LABELS: z.array(z.string()).nullish(),
  MESHES: z.array(z.string()).nullish(),
  YEAR: z.string().nullish(),
  final_decision: z.string().nullish(),
  LONG_ANSWER: z.string().nullish(),
});
const Dataset = z.record(z.string().regex(/^\d+$/, 'keys must be PMIDs'), Entry);

/**
 * PubMedQA (`ori_pqal.json`, an object keyed by PMID) as documents: the
 * question is the title, each context section a labelled passage.
 */
export async function importPubmedqa(file: string, opts: ImportOptions & { version?: string } = {}): Promise<DocumentImportSummary> {
  const dataset = parseDataset(file);
  const documents: SourceDocument[] = Object.entries(dataset).map(([pmid, e]) => ({
    externalId: pmid,
    title: e.QUESTION,
    meta: { labels: e.LABELS ?? [], meshes: e.MESHES ?? [], year: e.YEAR ?? null, finalDecision: e.final_decision ?? null, longAnswer: e.LONG_ANSWER ?? null },
    sections: e.CONTEXTS.map((text, i) => ({ label: e.LABELS?.[i] ?? null, text })),
  }));
  opts.onProgress?.({ phase: 'pubmedqa', file, lines: documents.length, bytesRead: 0, totalBytes: 0, done: true });
  return writeDocuments({ name: 'pubmedqa', version: opts.version ?? path.basename(file), file }, documents, opts);
}

function parseDataset(file: string): z.infer<typeof Dataset> {
  let json: unknown;
  try {
    json = JSON.parse(readText(file));
  } catch (e) {
    if (e instanceof ImportError) throw e;
    throw new ImportError(file, undefined, `not JSON: ${(e as Error).message}`);
  }
  const parsed = Dataset.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ImportError(file, undefined, `not PubMedQA: at ${issue.path.join('.') || 'top level'}: ${issue.message}`);
  }
  return parsed.data;
}
