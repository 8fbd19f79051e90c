import { withoutExcluded } from '@/lib/llm/templates/answer-fields';
import { answerSetOf as answerSetData } from '@/lib/trace/evidence-data';
import type { StepHandle } from '@/lib/trace/types';
import { toLine, type EvidenceLine } from '../../baselines/evidence';
import type { RegramParams } from '../params';
import { matchOption, parseOptions } from '@/lib/reading/options';
import type { MethodAnswer, MethodContext } from '../../types';
import { GENERAL_KNOWLEDGE, holdToRegion } from '../boundary';
import { entityIn } from '../region';
import { synthesizeTemplate, type EvidenceMapEntry, type Fact, type FinalAnswer, type QuestionFrame, type RegionEntity } from '../templates';
import { callRole } from './call';
import type { HopResult } from './hop';

/** The evidence map: per hop its question, mode, sub-answer and the triples it rests on (T_i), accepted hypotheses included. */
export async function buildEvidenceMap(ctx: MethodContext<RegramParams>, hops: HopResult[]): Promise<EvidenceMapEntry[]> {
  return ctx.trace.step({ kind: 'regram.evidence-map', label: 'Evidence map', input: { hops: hops.length } }, async () =>
    hops.map((h) => {
      const cited = new Set(h.answer.evidenceIds);
      return {
        hop: h.hop,
        question: h.question,
        mode: h.mode,
        answer: h.answer.abstain ? '' : h.answer.answer,
        items: h.entities,
        abstained: h.answer.abstain,
        facts: h.region.facts.filter((f) => cited.has(f.id)),
        hypotheses: h.hypotheses,
        absences: h.region.absences.filter((f) => cited.has(f.id)),
      };
    }),
  );
}

/**
 * Aid `answer-set` (docs/aids.md; nothing with the aids off): for a list or
 * count question, its complete answer set from the KG, one unit beside the
 * hops' map (the K cut cannot count). It lies outside the regions the paper
 * confines reasoning to, so only the aids bring it.
 */
async function answerSetOf(
  ctx: MethodContext<RegramParams>,
  step: StepHandle,
  frame: QuestionFrame,
): Promise<{ facts: EvidenceLine[]; members: RegionEntity[] }> {
  const found = await ctx.channels.aids.questionAnswerSet(step, {
    question: frame.question,
    options: frame.options,
    entities: frame.entities,
    optionLinks: frame.optionLinks,
  });
  await ctx.trace.markSelected(found.map((r) => r.id));
  const members = found.filter((r) => r.kind === 'set').flatMap((r) => answerSetData(r).members.map((m) => ({ nodeId: m.id, name: m.name, kind: m.kind })));
  return { facts: found.map(toLine), members };
}

/**
 * Step 5: the final answer from the evidence map; the option parsed for MCQ.
 * The answer may cite only the map's evidence and name only region entities,
 * unless a hop answered from general knowledge, which the answer then says.
 */
export async function synthesize(ctx: MethodContext<RegramParams>, frame: QuestionFrame, map: EvidenceMapEntry[], hops: HopResult[]): Promise<MethodAnswer> {
  return ctx.trace.step(
    { kind: 'regram.synthesis', label: 'Final synthesis', input: { hops: map.map((e) => ({ hop: e.hop, mode: e.mode })) } },
    async (step) => {
      const set = await answerSetOf(ctx, step, frame);
      const out = await callRole(ctx, step, synthesizeTemplate, { frame, map, answerSet: set.facts });
      // The answer set is KG evidence too: its members may be named and it may be cited.
      const evidenceIds = new Set([...map.flatMap((e) => [...e.facts, ...e.hypotheses, ...e.absences].map((f) => f.id)), ...set.facts.map((f) => f.id)]);
      const entities = [...new Map([...hops.flatMap((h) => h.region.nodes), ...set.members].map((n) => [n.nodeId, n as RegionEntity])).values()];
      const guessed = map.some((e) => e.mode === 'LLM-GUESS' && !e.abstained);
      const claims = out.abstain ? [] : out.claims.map((c) => ({ text: c.text, evidenceIds: c.evidenceIds.filter((id) => evidenceIds.has(id)) }));
      const cited = [...new Set(claims.flatMap((c) => c.evidenceIds))];
      const option = chosenOption(out, frame, entities, guessed);
      const bounded = guessed ? { answer: out, entities: [] as RegionEntity[] } : holdToRegion(out, cited, { entities, evidenceIds });
      const final = option.rejected ? { ...bounded.answer, abstain: true, answer: '', rationale: `${out.rationale} ${option.rejected}` } : bounded.answer;
      const abstained = final.abstain || !final.answer.trim();
      const placed = abstained ? optionsVerdict(frame, hops, ctx.params) : null;
      const text = abstained ? '' : option.key ? frame.options![option.key] : final.answer;
      return {
        text: guessed && !abstained && !text.startsWith(GENERAL_KNOWLEDGE) ? `${GENERAL_KNOWLEDGE}: ${text}` : text,
        optionKey: abstained ? null : option.key,
        items: abstained ? [] : withoutExcluded(final.items, final.excluded),
        nodeIds: abstained ? [] : bounded.entities.filter((e) => withoutExcluded([e.name], final.excluded).length).map((e) => e.nodeId),
        count: abstained ? null : final.count,
        abstained,
        evidenceIds: abstained ? [] : cited,
        claims: abstained ? [] : claims,
        rationale: placed ? `${final.rationale} ${placed}` : final.rationale,
      };
    },
  );
}

/**
 * Why an abstained MCQ left its options out, for the answer's verdict: per option, whether any hop's region holds
 * it, whether it was scored as a candidate (its direct edges to the linked nodes, with how many the hub cap had left
 * out) but not selected, or whether no edge joins it to the linked nodes, so it never was a candidate.
 */
function optionsVerdict(frame: QuestionFrame, hops: HopResult[], p: RegramParams): string | null {
  if (!frame.options || p.optionSeeds) return null;
  const order = { region: 0, candidate: 1, outside: 2 } as const;
  const parts = Object.entries(frame.options).map(([key, text]) => {
    const places = hops.flatMap((h) => h.options.filter((o) => o.option === key)).sort((a, b) => order[a.place] - order[b.place]);
    const best = places[0];
    if (!best) return `${key} (${text}) links no KG entity`;
    if (best.place === 'region') return `${key} (${text}) is in the region`;
    if (best.place === 'candidate') {
      const cap = best.beyondCap ? `, ${best.beyondCap} of them beyond the hub cap of ${p.hubCap} triples per linked node` : '';
      return `${key} (${text}) is outside the region: its ${best.edges} KG edge(s) to the hop's linked nodes${cap} were scored but not among the K = ${p.k} selected`;
    }
    return `${key} (${text}) is outside the region: no KG edge joins it to the hop's linked nodes, and options seed no hop (optionSeeds off)`;
  });
  return `Options and the region: ${parts.join('; ')}.`;
}

/**
 * The option the synthesis chose: its letter, or an answer that names one. An
 * option whose linked entities all lie outside every region is refused; one
 * that links no entity (a mechanism, yes/no) has nothing to hold to the region.
 */
function chosenOption(out: FinalAnswer, frame: QuestionFrame, entities: RegionEntity[], guessed: boolean): { key: string | null; rejected: string | null } {
  if (!frame.options || out.abstain) return { key: null, rejected: null };
  const parsed = parseOptions(frame.options);
  const key = [out.optionKey, out.answer].map((a) => (a ? matchOption(a, parsed) : null)).find(Boolean) ?? null;
  if (!key) return { key: null, rejected: `The answer '${out.answer}' names no option.` };
  const links = frame.optionLinks[key] ?? [];
  const inRegion = links.some((l) => entities.some((e) => e.nodeId === l.nodeId)) || !!entityIn(entities, frame.options[key]);
  if (links.length && !inRegion && !guessed) return { key: null, rejected: `Option ${key} (${frame.options[key]}) names no entity of the region.` };
  return { key, rejected: null };
}
