import { SimilarityUseSchema, similarityName } from '@/lib/trace/steps/common';

/** "similarity: embedding:<model>" or "similarity: lexical (why)", the measure on hover; nothing for a trace that did not record it. */
export function SimilarityNote({ use }: { use: unknown }) {
  const parsed = SimilarityUseSchema.safeParse(use);
  if (!parsed.success) return null;
  return (
    <span title={`${parsed.data.measure} (${parsed.data.why})`} data-testid="similarity-note">
      similarity: {similarityName(parsed.data)}
    </span>
  );
}
