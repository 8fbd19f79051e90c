/**
 * Hypotheses a reviewer rejected never become evidence (only accepted ones
 * do), yet the graph view draws them, dashed red, beside the accepted ones.
 * They are read from step outputs that list reviewed hypotheses: records with
 * a verdict and both ends resolved to KG nodes (ReGraM's verify–revise loop;
 * any method that records the same shape). Pure.
 */
export interface RejectedHypothesis {
  /** Stable across runs: `hypothesis:<step kind>#<ordinal>:<id>`. */
  id: string;
  stepId: string;
  label: string;
  sourceId: string;
  sourceName: string;
  sourceKind: string;
  targetId: string;
  targetName: string;
  targetKind: string;
  metaedge: string | null;
  score: number | null;
  text: string;
}

type Data = Record<string, unknown>;
const isObject = (v: unknown): v is Data => typeof v === 'object' && v !== null && !Array.isArray(v);

function node(v: unknown): { id: string; name: string; kind: string } | null {
  if (!isObject(v) || typeof v.nodeId !== 'string') return null;
  return { id: v.nodeId, name: typeof v.name === 'string' ? v.name : v.nodeId, kind: typeof v.kind === 'string' ? v.kind : '' };
}

export function rejectedHypotheses(steps: readonly { id: string; kind: string; ordinal: number; output: unknown }[]): RejectedHypothesis[] {
  const out: RejectedHypothesis[] = [];
  for (const step of steps) {
    const records = isObject(step.output) && Array.isArray(step.output.records) ? step.output.records : [];
    for (const r of records) {
      if (!isObject(r) || r.verdict !== 'rejected' || !isObject(r.resolved)) continue;
      const source = node(r.resolved.source);
      const target = node(r.resolved.target);
      if (!source || !target) continue;
      const triple = isObject(r.triple) ? r.triple : {};
      const metaedge = typeof r.resolved.metaedge === 'string' ? r.resolved.metaedge : null;
      const label = typeof triple.relation === 'string' ? triple.relation : (metaedge ?? 'hypothesis');
      const score = typeof r.score === 'number' ? r.score : null;
      const id = typeof r.id === 'string' ? r.id : String(out.length);
      out.push({
        id: `hypothesis:${step.kind}#${step.ordinal}:${id}`,
        stepId: step.id,
        label,
        sourceId: source.id,
        sourceName: source.name,
        sourceKind: source.kind,
        targetId: target.id,
        targetName: target.name,
        targetKind: target.kind,
        metaedge,
        score,
        text: `${source.name} – ${label} – ${target.name} [hypothesis ${id} rejected${score !== null ? `, score ${score.toFixed(2)}` : ''}]`,
      });
    }
  }
  return out;
}
