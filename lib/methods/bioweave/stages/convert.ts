import { citableId } from '@/lib/trace/ids';
import { joins, metaedgeInfo } from '@/lib/llm/offline/metaedges';
import { findEntityMentions, type CandidateEntity } from '@/lib/llm/offline/passages';
import type { EvidenceInput, StepHandle } from '@/lib/trace/types';
import type { MethodContext } from '../../types';
import { locatedHops, type Plan } from '../plan';
import { convertTemplate, type Conversion } from '../templates';
import { textHops, type Unit, type UnitEntity } from '../units';
import type { RoleCaller } from '../usage';
import type { KeptSpan } from './unstructured';

/**
 * ConvertEvidenceGraph: the extract role turns kept spans into evidence units;
 * then the conversion is held to the span. An entity counts only if the span
 * itself names it (by name or alias), a relation only if it joins two named
 * entities' kinds, and the span, offsets and provenance come from retrieval,
 * not from the model. Units are stored as 'unit' evidence; none is a KG fact.
 */

export interface ConversionOutcome {
  /** False when graph conversion is off (Table 8): the units are plain text. */
  converted: boolean;
  units: Unit[];
  /** What the guard removed from the role's output, in words. */
  corrections: string[];
  unused: string[];
  notes: string;
}

export async function convertSpans(
  ctx: MethodContext<unknown>,
  step: StepHandle,
  call: RoleCaller,
  plan: Plan,
  round: number,
  spans: KeptSpan[],
  candidates: CandidateEntity[],
): Promise<ConversionOutcome> {
  // Only candidates the spans mention are shown: the list stays short and nothing else could be normalised to.
  const named = new Set(spans.flatMap((s) => s.mentions.map((m) => m.nodeId)));
  const shown = candidates.filter((c) => named.has(c.nodeId));
  const output: Conversion = await call(convertTemplate, {
    question: ctx.question.text,
    plan,
    hops: locatedHops(plan).map((h) => h.hop.id),
    spans: spans.map((s) => ({ spanId: s.spanId, source: s.source, text: s.text })),
    candidates: shown,
  });
  const corrections: string[] = [];
  const bySpan = new Map(spans.map((s) => [s.spanId, s]));
  const byNode = new Map(shown.map((c) => [c.nodeId, c]));
  const hopIds = new Set(locatedHops(plan).map((h) => h.hop.id));
  const converted = new Map<string, ConvertedSpan>();
  for (const u of output.units) {
    const span = bySpan.get(u.spanId);
    if (!span) {
      corrections.push(`unit for unknown span ${u.spanId} dropped`);
      continue;
    }
    if (converted.has(u.spanId)) {
      corrections.push(`second unit for span ${u.spanId} dropped`);
      continue;
    }
    const entities: UnitEntity[] = [];
    for (const id of new Set(u.entityIds)) {
      const candidate = byNode.get(id);
      const mention = candidate && findEntityMentions(span.text, [candidate])[0];
      if (!candidate || !mention) corrections.push(`${id} dropped from span ${u.spanId}: the span does not name it`);
      else entities.push({ nodeId: candidate.nodeId, name: candidate.name, kind: candidate.kind, mention: mention.mention });
    }
    const relations = [...new Set(u.relations)].filter((m) => {
      const ok = !!metaedgeInfo(m) && entities.some((a, i) => entities.slice(i + 1).some((b) => a.nodeId !== b.nodeId && joins(m, a.kind, b.kind)));
      if (!ok) corrections.push(`relation ${m} dropped from span ${u.spanId}: it joins no two entities the span names`);
      return ok;
    });
    if (u.hop && !hopIds.has(u.hop)) corrections.push(`hop ${u.hop} of span ${u.spanId} is no hop of the plan`);
    const hops = [...new Set([...textHops(plan, entities, relations), ...(u.hop && hopIds.has(u.hop) ? [u.hop] : [])])];
    converted.set(u.spanId, { span, entities, predicate: u.predicate, relations, hops, negated: u.negated });
  }

  const units = await recordUnits(ctx, step, round, [...converted.values()]);
  return { converted: true, units, corrections, unused: output.unused, notes: output.notes };
}

/** Graph conversion off (Table 8): each span is a unit of plain text, with no entities, predicate, relations or hop; no extract call. */
export async function keepSpansAsText(ctx: MethodContext<unknown>, step: StepHandle, round: number, spans: KeptSpan[]): Promise<ConversionOutcome> {
  const units = await recordUnits(
    ctx,
    step,
    round,
    spans.map((span) => ({ span, entities: [], predicate: null, relations: [], hops: [], negated: false })),
  );
  return {
    converted: false,
    units,
    corrections: [],
    unused: [],
    notes: 'graph conversion is off: spans kept as plain text units (no entities, predicate or typed relations); no extract call',
  };
}

interface ConvertedSpan {
  span: KeptSpan;
  entities: UnitEntity[];
  predicate: string | null;
  relations: string[];
  hops: string[];
  negated: boolean;
}

/** Stores converted spans as 'unit' evidence and returns them as units. */
async function recordUnits(ctx: MethodContext<unknown>, step: StepHandle, round: number, kept: ConvertedSpan[]): Promise<Unit[]> {
  const inputs: EvidenceInput[] = kept.map(({ span, entities, predicate, relations, hops, negated }) => ({
    channel: span.source,
    kind: 'unit',
    ref: spanRef(span),
    text: span.text,
    data: {
      sourceEvidenceId: span.recordId,
      alsoIn: span.alsoIn,
      span: { start: span.start, end: span.end },
      entities,
      predicate,
      relations,
      hops,
      negated,
      assertsKgFact: false,
    },
    scores: { filter: span.score },
  }));
  const records = await ctx.trace.addEvidence(step, inputs);
  return records.map((r, i): Unit => {
    const { span, entities, predicate, relations, hops, negated } = kept[i];
    return {
      id: r.id,
      source: span.source,
      round,
      ref: r.ref,
      text: span.text,
      entities,
      predicate,
      relations,
      hops,
      span: { start: span.start, end: span.end, text: span.text },
      provenance: [span.recordId, ...span.alsoIn],
      negated,
      paths: [],
      pathScore: null,
      operatorConsistent: false,
    };
  });
}

/** The stable reference of a span's unit: the same sentence of the same passage or web record, whichever search found it. */
export function spanRef(span: KeptSpan): string {
  return citableId('unit', span.recordRef, `${span.start}-${span.end}`);
}
