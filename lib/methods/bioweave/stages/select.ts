import type { StepHandle } from '@/lib/trace/types';
import type { MethodContext } from '../../types';
import type { BioWeaveParams } from '../params';
import type { Plan } from '../plan';
import { planHopLines, selectTemplate, type CandidateView } from '../templates';
import type { Unit, UnitEntity } from '../units';
import type { RoleCaller } from '../usage';
import type { ScoringTable } from '../verify';

export interface SelectionOutcome {
  /** The candidates shown, in order. */
  shown: string[];
  /** True when the candidates matched the previous round's and its selection was kept without a call. */
  reused: boolean;
  selected: { id: string; reason: string }[];
  /** Ids the role returned that were not kept: not a top-W2 candidate, repeated, or beyond K. */
  rejected: { id: string; reason: string }[];
  briefReason: string;
}

/**
 * LLMSelect: the select role keeps at most K of the top-W2 units. Its choice
 * is held to the list it was shown; the kept units' evidence is marked selected.
 */
export async function selectUnits(
  ctx: MethodContext<BioWeaveParams>,
  step: StepHandle,
  call: RoleCaller,
  plan: Plan,
  topics: UnitEntity[],
  top: Unit[],
  table: ScoringTable,
  previous: SelectionOutcome | null,
): Promise<SelectionOutcome> {
  const shownIds = top.map((u) => u.id);
  if (!top.length) return { shown: [], reused: false, selected: [], rejected: [], briefReason: 'no candidate unit to select from' };
  if (previous && previous.shown.join('\n') === shownIds.join('\n')) {
    return { ...previous, reused: true, briefReason: `the same ${top.length} candidates as the previous round: its selection stands. ${previous.briefReason}` };
  }
  const { k } = ctx.params;
  const score = new Map(table.rows.map((r) => [r.unitId, r.sCross ?? 0]));
  const candidates: CandidateView[] = top.map((u) => ({
    id: u.id,
    source: u.source,
    text: u.text,
    sCross: score.get(u.id) ?? 0,
    hops: u.hops,
    relations: u.relations,
    kinds: [...new Set(u.entities.map((e) => e.kind))],
    operatorConsistent: u.operatorConsistent,
  }));
  const names = new Map(topics.map((e) => [e.nodeId, e.name]));
  const hops = planHopLines(plan, names);
  const output = await call(selectTemplate, { question: ctx.question.text, plan, hops, candidates, k });

  const shown = new Set(top.map((u) => u.id));
  const selected: SelectionOutcome['selected'] = [];
  const rejected: SelectionOutcome['rejected'] = [];
  for (const s of output.selected) {
    if (!shown.has(s.id)) rejected.push({ id: s.id, reason: 'not among the candidates shown' });
    else if (selected.some((x) => x.id === s.id)) rejected.push({ id: s.id, reason: 'selected twice' });
    else if (selected.length >= k) rejected.push({ id: s.id, reason: `beyond K = ${k}` });
    else selected.push(s);
  }
  const byId = new Map(top.map((u) => [u.id, u]));
  await ctx.trace.markSelected(selected.flatMap((s) => (byId.get(s.id)!.source === 'kg' ? byId.get(s.id)!.provenance : [s.id])));
  return { shown: shownIds, reused: false, selected, rejected, briefReason: output.briefReason };
}
