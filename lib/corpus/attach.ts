import { insertAttachedDocument } from './store';

/** Splits a document into passages at blank lines, merging short paragraphs up to ~1,200 characters. */
export function splitPassages(text: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  const re = /\S[\s\S]*?(?=\n\s*\n|$)/g;
  let current: { start: number; end: number } | null = null;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const span = { start: m.index, end: m.index + m[0].trimEnd().length };
    if (current && span.end - current.start <= 1200) current.end = span.end;
    else {
      if (current) spans.push(current);
      current = span;
    }
  }
  if (current) spans.push(current);
  return spans;
}

/** Stores documents attached to a question (with passages and their FTS vectors), as the owner's; returns their ids. */
export async function attachDocuments(docs: { title?: string; text: string }[], ownerId: string | null = null): Promise<string[]> {
  const ids: string[] = [];
  for (const doc of docs) ids.push(await insertAttachedDocument({ title: doc.title ?? null, text: doc.text }, splitPassages(doc.text), ownerId));
  return ids;
}
