import { attribute, configOf, type Attribution, type Bucket } from '@/lib/methods/xr2/attribution';
import type { ScoredItem } from './schemas';
import { groupBy } from './group';
import type { GridConfig } from './grid';

/**
 * X-R2's attribution buckets over an evaluation (labels from
 * lib/methods/xr2/attribution.ts): each question, per method, labelled from
 * its full and single-channel-off runs; and the paper's bucketed accuracy.
 */

export const BUCKETS: Bucket[] = ['needs-KG', 'needs-Entity', 'needs-Parametric', 'doc-sufficient', 'unresolved'];

export interface QuestionBucket {
  method: string;
  bucket: Bucket;
  reason: string;
  /** The runs the label rests on. */
  runIds: string[];
}

export interface BucketRow {
  bucket: Bucket;
  /** Questions in the bucket (by the reference method's reruns). */
  instances: number;
  /** method → accuracy of its full configuration on those questions. */
  accuracy: Record<string, number | null>;
}

export interface AttributionSummary {
  /** Whose reruns define the buckets of the bucketed-accuracy table: X-R2 when it ran, else the method leaving the fewest questions unresolved. */
  referenceMethod: string;
  /** method → bucket → questions, each method labelled by its own reruns. */
  counts: Record<string, Record<Bucket, number>>;
  bucketed: BucketRow[];
}

/** Attribution needs the full configuration and at least one of single-channel-off or doc-only. */
export function isAttributable(grid: GridConfig[]): boolean {
  const names = grid.filter((g) => !g.params).map((g) => configOf({ id: g.key, switches: g.switches, kgShuffle: g.kgShuffle, correct: null }));
  return names.includes('full') && names.some((n) => n && n !== 'full');
}

/** One question's label under one method; only finished, successful runs count as correct or wrong. */
export function bucketOf(items: ScoredItem[], grid: GridConfig[]): Attribution {
  const byKey = new Map(grid.map((g) => [g.key, g]));
  return attribute(
    items.flatMap((i) => {
      const config = byKey.get(i.configKey);
      // A configuration with its own parameters (a reproduction row such as T_max = 1) is not a switch configuration.
      if (!config || !i.runId || config.params) return [];
      const correct = i.outcome?.status === 'succeeded' ? i.outcome.correct : null;
      return [{ id: i.runId, switches: config.switches, kgShuffle: config.kgShuffle, correct }];
    }),
  );
}

/** Labels for one question's items, per method (empty when the grid cannot attribute). */
export function questionBuckets(items: ScoredItem[], methods: string[], grid: GridConfig[]): QuestionBucket[] {
  if (!isAttributable(grid)) return [];
  const byMethod = groupBy(items, (i) => i.method);
  return methods.map((method) => {
    const { bucket, reason, runIds } = bucketOf(byMethod.get(method) ?? [], grid);
    return { method, bucket, reason, runIds };
  });
}

export function attributionSummary(items: ScoredItem[], methods: string[], grid: GridConfig[]): AttributionSummary | null {
  if (!isAttributable(grid) || !methods.length) return null;
  const fullKey = grid.find((g) => !g.params && configOf({ id: g.key, switches: g.switches, kgShuffle: g.kgShuffle, correct: null }) === 'full')!.key;
  const byQuestion = groupBy(items, (i) => i.questionId);
  const counts: AttributionSummary['counts'] = {};
  const labels = new Map<string, Map<string, Bucket>>();
  for (const method of methods) {
    counts[method] = Object.fromEntries(BUCKETS.map((b) => [b, 0])) as Record<Bucket, number>;
    labels.set(method, new Map());
    for (const [questionId, questionItems] of byQuestion) {
      const { bucket } = bucketOf(
        questionItems.filter((i) => i.method === method),
        grid,
      );
      counts[method][bucket]++;
      labels.get(method)!.set(questionId, bucket);
    }
  }
  // The paper labels with the iterative method's reruns; without X-R2, the method that resolves the most questions.
  const referenceMethod = methods.includes('xr2') ? 'xr2' : methods.reduce((best, m) => (counts[m].unresolved < counts[best].unresolved ? m : best));
  const referenceBucket = labels.get(referenceMethod)!;
  const bucketed = BUCKETS.map((bucket) => {
    const questions = new Set([...referenceBucket].filter(([, b]) => b === bucket).map(([q]) => q));
    const accuracy: Record<string, number | null> = {};
    for (const method of methods) {
      const scored = items.filter(
        (i) => questions.has(i.questionId) && i.method === method && i.configKey === fullKey && i.outcome && i.outcome.correct !== null,
      );
      accuracy[method] = scored.length ? scored.filter((i) => i.outcome!.correct).length / scored.length : null;
    }
    return { bucket, instances: questions.size, accuracy };
  });
  return { referenceMethod, counts, bucketed };
}
