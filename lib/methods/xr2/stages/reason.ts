import type { StepHandle } from '@/lib/trace/types';
import type { MethodContext } from '../../types';
import type { EvidenceLine } from '../../baselines/evidence';
import { linesOf, reasonTemplate, type ReasonInput, type ReasonOutput } from '../templates';
import { callRole } from './call';

/**
 * A_t ← Reason(Q_t, D, E_t, R_t, KG_t, M_t): a full answer to Q as a list, with
 * the evidence ids it used. Citations are kept only where they name a line the
 * call was shown; an empty answer is an abstention.
 */
export async function reason(ctx: MethodContext<unknown>, parent: StepHandle, input: ReasonInput): Promise<ReasonOutput> {
  const shown = linesOf(input);
  return ctx.trace.step(
    {
      kind: 'xr2.reason',
      label: 'Reason',
      input: { current: input.current, kgUnits: input.kg.length, established: input.established.length, claims: input.claims.length },
      parent,
    },
    async (step) => admit(await callRole(ctx, step, reasonTemplate, input), shown),
  );
}

function admit(a: ReasonOutput, lines: EvidenceLine[]): ReasonOutput {
  const known = new Set(lines.map((l) => l.id));
  const answer = a.answer.map((x) => x.trim()).filter(Boolean);
  const abstain = a.abstain || !answer.length;
  const claims = abstain ? [] : a.claims.map((c) => ({ text: c.text, evidenceIds: c.evidenceIds.filter((id) => known.has(id)) }));
  const evidenceIds = abstain ? [] : [...new Set([...a.evidenceIds.filter((id) => known.has(id)), ...claims.flatMap((c) => c.evidenceIds)])];
  return { ...a, answer: abstain ? [] : answer, abstain, claims, evidenceIds, optionKey: abstain ? null : a.optionKey, count: abstain ? null : a.count };
}
