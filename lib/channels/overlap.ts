const STOP = new Set(['the', 'and', 'for', 'with', 'that', 'which', 'what', 'are', 'is', 'of', 'in', 'to', 'a', 'an', 'by', 'on', 'or']);

function words(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => w.length > 1 && !STOP.has(w)));
}

/** Share of the query's content words found in the text (0..1). */
export function lexicalOverlap(query: string, text: string): number {
  const q = words(query);
  if (!q.size) return 0;
  const t = words(text);
  let hit = 0;
  for (const w of q) if (t.has(w)) hit++;
  return hit / q.size;
}
