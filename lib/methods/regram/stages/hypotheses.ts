import type { StepHandle } from '@/lib/trace/types';
import type { MethodContext } from '../../types';
import type { RegramParams } from '../params';
import type { Region } from '../region';
import { orientedTriple, resolveTriple, REVIEWER_SUBSTITUTE, withinSchema, type ResolvedTriple } from '../review';
import { hypothesizeTemplate, reviewTemplate, reviseTemplate, type Fact, type HopQuestion, type ProgrammaticCheck, type ProposedTriple } from '../templates';
import { callRole } from './call';

/** One hypothesis in the verify–revise loop; revisions point back to what they revise. */
export interface HypothesisRecord {
  id: string;
  parent: string | null;
  /** 0 for a generated hypothesis, n for the n-th revision. */
  round: number;
  triple: ProposedTriple;
  resolved: ResolvedTriple;
  check: ProgrammaticCheck;
  /** The judge's score; null when the programmatic check already ruled it out, or with the reviewer off. */
  judge: { score: number; reason: string } | null;
  score: number;
  /** 'unreviewed': kept without review (reviewer ablation), only when it resolves inside the region's schema. */
  verdict: 'accepted' | 'rejected' | 'unreviewed';
  /** The hypothesis evidence record, for an accepted one. */
  evidenceId: string | null;
  revisedBy: string | null;
}

export interface HypothesisOutcome {
  reviewer: string;
  records: HypothesisRecord[];
  /** Accepted hypotheses as facts: the only ones that become evidence. */
  accepted: Fact[];
}

type Ctx = MethodContext<RegramParams>;

/**
 * HYBRID (§3.4): hypothesis triples restricted to V_q and R, each reviewed
 * (score ≥ acceptScore accepts, and only inside the region's schema);
 * rejected ones go to revision and back to the Reviewer, for at most
 * maxRevisions rounds. Only accepted ones become evidence, of kind
 * 'hypothesis'. With `reviewer` off (ablation) there is no judge and no
 * revision: every hypothesis that resolves inside the schema is kept as
 * 'unreviewed' evidence (one that does not resolve names no KG entity and
 * cannot be evidence at all).
 */
export async function verifyHypotheses(ctx: Ctx, parent: StepHandle, hop: HopQuestion, region: Region): Promise<HypothesisOutcome> {
  const { acceptScore, maxRevisions, maxHypotheses, reviewer } = ctx.params;
  const label = reviewer ? 'Hypotheses (verify & revise)' : 'Hypotheses (unreviewed: reviewer off)';
  return ctx.trace.step(
    {
      kind: 'regram.hypotheses',
      label,
      input: { acceptScore, maxRevisions, maxHypotheses, reviewer: reviewer ? REVIEWER_SUBSTITUTE : 'off (ablation)' },
      parent,
    },
    async (step) => {
      const generated = await ctx.trace.step(
        {
          kind: 'regram.hypothesize',
          label: 'Generate hypotheses',
          input: { entities: region.nodes.length, relations: region.relations.map((r) => r.metaedge) },
          parent: step,
        },
        async (s) => {
          const out = await callRole(ctx, s, hypothesizeTemplate, {
            hop,
            facts: region.facts,
            entities: region.nodes,
            relations: region.relations,
            max: maxHypotheses,
            background: ctx.channels.param.enabled,
          });
          return out.triples.slice(0, maxHypotheses);
        },
      );
      const records: HypothesisRecord[] = [];
      if (!reviewer) {
        records.push(...generated.map((triple, i) => unreviewed(`h${i + 1}`, triple, region)));
        return { reviewer: 'off (ablation)', ...(await recordAccepted(ctx, step, hop, region, records)) };
      }
      // A review's record is its step's output, stored as the review left it: what came later (its revision) is added to a copy.
      const revisedBy = new Map<HypothesisRecord, string>();
      let pending = generated.map((triple, i) => ({ id: `h${i + 1}`, parent: null as string | null, round: 0, triple, tried: [triple] }));
      for (let round = 0; pending.length; round++) {
        // Each hypothesis is reviewed on its own, and each rejected one revised on its own: a round's calls go out together.
        const reviewed = await Promise.all(pending.map(async (h) => ({ h, record: await review(ctx, step, hop, region, h) })));
        records.push(...reviewed.map((r) => r.record));
        const rejected = reviewed.filter((r) => r.record.verdict === 'rejected');
        if (round >= maxRevisions) break;
        const revisions = await Promise.all(rejected.map(({ h, record }) => revise(ctx, step, hop, region, record, h.tried)));
        const next: typeof pending = [];
        for (const [i, { h, record }] of rejected.entries()) {
          const revised = revisions[i];
          if (!revised) continue;
          const id = `${h.id.split('.')[0]}.r${round + 1}`;
          revisedBy.set(record, id);
          next.push({ id, parent: h.id, round: round + 1, triple: revised, tried: [...h.tried, revised] });
        }
        pending = next;
      }
      const revised = records.map((r) => (revisedBy.has(r) ? { ...r, revisedBy: revisedBy.get(r)! } : r));
      return { reviewer: REVIEWER_SUBSTITUTE, ...(await recordAccepted(ctx, step, hop, region, revised)) };
    },
  );
}

async function review(
  ctx: Ctx,
  parent: StepHandle,
  hop: HopQuestion,
  region: Region,
  h: { id: string; parent: string | null; round: number; triple: ProposedTriple },
): Promise<HypothesisRecord> {
  return ctx.trace.step({ kind: 'regram.review', label: `Review ${h.id}`, input: { id: h.id, triple: h.triple, parent: h.parent }, parent }, async (step) => {
    const { resolved, check: schema } = resolveTriple(h.triple, region);
    const inKg = schema.inRegion ? true : withinSchema(schema) ? await kgHolds(ctx, step, resolved) : null;
    const check: ProgrammaticCheck = { ...schema, inKg };
    // Outside the region or the schema the answer is fixed: the region is a hard boundary, not the judge's call.
    const judge = withinSchema(schema)
      ? await callRole(ctx, step, reviewTemplate, { question: hop.question, triple: orientedTriple(h.triple, resolved), facts: region.facts, check })
      : null;
    const score = judge?.score ?? 0;
    // Only a judged hypothesis (inside the schema, so fully resolved) can be accepted, whatever acceptScore is.
    const verdict = judge && score >= ctx.params.acceptScore ? 'accepted' : 'rejected';
    return { id: h.id, parent: h.parent, round: h.round, triple: h.triple, resolved, check, judge, score, verdict, evidenceId: null, revisedBy: null };
  });
}

/** The reviewer ablation's record: kept unreviewed when it resolves inside the schema, else rejected by the closed world. */
function unreviewed(id: string, triple: ProposedTriple, region: Region): HypothesisRecord {
  const { resolved, check } = resolveTriple(triple, region);
  const verdict = withinSchema(check) ? 'unreviewed' : 'rejected';
  return { id, parent: null, round: 0, triple, resolved, check: { ...check, inKg: null }, judge: null, score: 0, verdict, evidenceId: null, revisedBy: null };
}

/** Whether the KG holds the edge, asked of the kg channel as a one-hop path; null when the channel is off. */
async function kgHolds(ctx: Ctx, parent: StepHandle, r: ResolvedTriple): Promise<boolean | null> {
  const node = (e: NonNullable<ResolvedTriple['source']>) => ({ id: e.nodeId, kind: e.kind, name: e.name });
  const found = await ctx.channels.kg.paths(parent, node(r.source!), node(r.target!), { maxDepth: 1, metaedges: [r.metaedge!], limit: 1 });
  return found.enabled ? found.items.some((r) => r.kind !== 'check') : null;
}

async function revise(
  ctx: Ctx,
  parent: StepHandle,
  hop: HopQuestion,
  region: Region,
  rejected: HypothesisRecord,
  tried: ProposedTriple[],
): Promise<ProposedTriple | null> {
  return ctx.trace.step(
    { kind: 'regram.revise', label: `Revise ${rejected.id}`, input: { id: rejected.id, triple: rejected.triple }, parent },
    async (step) => {
      const rejection = rejected.judge
        ? `score ${rejected.judge.score}: ${rejected.judge.reason}`
        : `fails the programmatic check ${JSON.stringify(rejected.check)}`;
      const out = await callRole(ctx, step, reviseTemplate, {
        question: hop.question,
        triple: rejected.triple,
        rejection,
        relations: region.relations,
        entities: region.nodes,
        tried,
      });
      return out.revised;
    },
  );
}

/**
 * Accepted hypotheses become selected evidence of kind 'hypothesis', in the region's closed world (kg channel): the
 * records, each accepted one (a copy) naming its evidence record, and the accepted facts.
 */
async function recordAccepted(
  ctx: Ctx,
  step: StepHandle,
  hop: HopQuestion,
  region: Region,
  records: HypothesisRecord[],
): Promise<{ records: HypothesisRecord[]; accepted: Fact[] }> {
  const accepted = records.filter((r) => r.verdict !== 'rejected');
  const evidence = await ctx.trace.addEvidence(
    step,
    accepted.map((r) => {
      // Accepted implies within the schema, so the triple resolved completely.
      const [source, target, metaedge] = [r.resolved.source!, r.resolved.target!, r.resolved.metaedge!];
      const verb = region.relations.find((rel) => rel.metaedge === metaedge)!.verb;
      return {
        channel: 'kg' as const,
        kind: 'hypothesis' as const,
        ref: `hypothesis:hop${hop.hop}:${r.id}`,
        text: `${source.name} (${source.kind}) – ${verb} – ${target.name} (${target.kind}) [hypothesis ${r.id}, ${r.judge ? `Reviewer score ${r.score.toFixed(2)}` : 'unreviewed'}]`,
        data: {
          edgeId: null,
          sourceId: source.nodeId,
          sourceName: source.name,
          sourceKind: source.kind,
          metaedge,
          verb,
          targetId: target.nodeId,
          targetName: target.name,
          targetKind: target.kind,
          hypothesis: r.id,
          parent: r.parent,
          inKg: r.check.inKg,
        },
        scores: { reviewer: r.judge ? r.score : null, judge: r.judge?.score ?? null },
        selected: true,
      };
    }),
  );
  const evidenceOf = new Map(accepted.map((r, i) => [r, evidence[i].id]));
  return {
    records: records.map((r) => (evidenceOf.has(r) ? { ...r, evidenceId: evidenceOf.get(r)! } : r)),
    accepted: evidence.map((e) => ({ id: e.id, text: e.text, triple: e.data as Fact['triple'] })),
  };
}
