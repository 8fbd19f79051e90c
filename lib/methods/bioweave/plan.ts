import { z } from 'zod';
import { everyReading } from '@/lib/llm/offline/linked';
import { metaedgeInfo, metaedgesBetween, sameKind } from '@/lib/llm/offline/metaedges';
import type { Hop, HopEdge, LocatedEntity } from '@/lib/llm/offline/types';

/**
 * BioWeave's question abstraction (AbstractQuestion + InitSourcePlan): the
 * operator, the answer type, the constraints as typed hops from candidate
 * entities to the answer, the source plan and the uncertain hops. The model
 * (or the offline rules) writes it; `validatePlan` keeps only what the linked
 * entities and the metagraph allow, so every later stage can trust it.
 */

export const OPERATORS = ['shared_neighbor', 'intersection', 'chain', 'count', 'lookup'] as const;
export type Operator = (typeof OPERATORS)[number];
export const ANSWER_TYPES = ['entity', 'entity_list', 'integer', 'yes_no', 'option_letter'] as const;
export type AnswerType = (typeof ANSWER_TYPES)[number];
export const SOURCES = ['kg', 'doc', 'web'] as const;
export type Source = (typeof SOURCES)[number];

export const HopSchema = z.object({
  id: z.string().describe('"c1.h1": constraint 1, hop 1 ("p1" for a yes/no claim)'),
  fromKind: z.string(),
  toKind: z.string(),
  metaedges: z.array(z.string()).describe('Metaedge abbreviations the hop may follow, preferred first'),
  explicit: z.boolean().describe('True when the question names the relation; false when only the kinds chose it (an uncertain hop)'),
});
export type PlanHop = z.infer<typeof HopSchema>;

export const PlanSchema = z.object({
  mentions: z.array(z.string()).describe('Biomedical mentions as written in the question'),
  topicEntityIds: z.array(z.string()).describe('Node ids of the candidate entities the question is about'),
  answerType: z.enum(ANSWER_TYPES),
  answerKind: z.string().nullable().describe('Node kind of the answer (Gene, Disease, ...); null for yes/no'),
  operator: z.enum(OPERATORS),
  constraints: z
    .array(z.object({ id: z.string(), anchorId: z.string(), negated: z.boolean(), hops: z.array(HopSchema).describe('From the anchor to the answer') }))
    .describe('Each candidate entity that constrains the answer, with its hops to the answer'),
  claims: z
    .array(z.object({ id: z.string(), subjectId: z.string(), objectId: z.string(), hop: HopSchema, negated: z.boolean() }))
    .describe('Yes/no claims between two candidate entities'),
  excludedIds: z.array(z.string()).default([]).describe('Linked entities of the answer kind the question sets aside ("other than X"): never an answer'),
  sourcePlan: z.array(z.enum(SOURCES)),
  missingHops: z.array(z.string()).describe('Ids of hops that are uncovered or uncertain'),
  briefReason: z.string(),
});
export type Plan = z.infer<typeof PlanSchema>;

/** A hop with where it sits: the constraint (or claim) and its index on the chain. */
export interface LocatedHop {
  hop: PlanHop;
  anchorId: string;
  /** The constraint's id, or the claim's. */
  owner: string;
  index: number;
  /** The hops from this one to the answer (for a claim: the claim's hop). */
  rest: PlanHop[];
}

export function locatedHops(plan: Plan): LocatedHop[] {
  return [
    ...plan.constraints.flatMap((c) => c.hops.map((hop, index) => ({ hop, anchorId: c.anchorId, owner: c.id, index, rest: c.hops.slice(index) }))),
    ...plan.claims.map((c) => ({ hop: c.hop, anchorId: c.subjectId, owner: c.id, index: 0, rest: [c.hop] })),
  ];
}

export function findHop(plan: Plan, id: string): LocatedHop | undefined {
  return locatedHops(plan).find((h) => h.hop.id === id);
}

/** Metaedges a hop follows now: all of them once named or widened, else the preferred reading (the kit's rule). */
export function followed(hop: PlanHop): string[] {
  return hop.explicit ? hop.metaedges : hop.metaedges.slice(0, 1);
}

/** Every metaedge the plan follows: the relation vocabulary paths are ranked against. */
export function planRelations(plan: Plan): Set<string> {
  return new Set(locatedHops(plan).flatMap((h) => followed(h.hop)));
}

/** The kit's hop: which end of each metaedge the hop starts from. */
export function kitHop(hop: PlanHop): Hop {
  const edges: HopEdge[] = hop.metaedges.flatMap((m) => {
    const info = metaedgeInfo(m);
    if (!info) return [];
    const fromEnd: HopEdge['fromEnd'] = sameKind(info.source, info.target) ? 'any' : sameKind(info.source, hop.fromKind) ? 'source' : 'target';
    return [{ metaedge: m, fromEnd }];
  });
  return { from: hop.fromKind, to: hop.toKind, edges, cue: null, explicit: hop.explicit };
}

/** The hop with every metaedge between its kinds (or the given ones), all followed: the repair of an uncertain hop. */
export function widenHop(plan: Plan, hopId: string, metaedges: string[]): Plan {
  const widen = (h: PlanHop): PlanHop => {
    if (h.id !== hopId) return h;
    const wanted = metaedges.length ? metaedges : metaedgesBetween(h.fromKind, h.toKind);
    return { ...h, metaedges: [...new Set([...h.metaedges, ...wanted])], explicit: true };
  };
  return {
    ...plan,
    constraints: plan.constraints.map((c) => ({ ...c, hops: c.hops.map(widen) })),
    claims: plan.claims.map((c) => ({ ...c, hop: widen(c.hop) })),
  };
}

/** Whether widening the hop would follow any metaedge it does not follow now. */
export function canWiden(hop: PlanHop): boolean {
  const now = new Set(followed(hop));
  return metaedgesBetween(hop.fromKind, hop.toKind).some((m) => !now.has(m));
}

/**
 * The plan as later stages may trust it: constraints start at linked entities,
 * hops chain kind to kind along metaedges that join those kinds, the source
 * plan stays inside the enabled channels. What was dropped is said in `notes`;
 * a constraint on a linked entity of the question that no hop could keep is
 * also `unfollowed`: the question asks for it, and no evidence the plan
 * gathers can meet it (an anchor linked as a kind its relation does not start
 * from, e.g. "epilepsy" the Side Effect for "indicated for").
 */
/** What validation reads of the question frame (./frame): the linked entities and the enabled sources. */
type FrameLinks = { entities: LocatedEntity[]; optionLinks: Record<string, LocatedEntity[]>; enabledSources: Source[] };

/**
 * The frame's linked entities (question and options) by node id, each
 * mention's other readings included: a plan may anchor on any of them
 * ("headache" read as the side effect a drug causes).
 */
export function linkedById(frame: Pick<FrameLinks, 'entities' | 'optionLinks'>): Map<string, LocatedEntity> {
  return new Map(everyReading([...frame.entities, ...Object.values(frame.optionLinks).flat()]).map((e) => [e.nodeId, e]));
}

export function validatePlan(raw: Plan, frame: FrameLinks): { plan: Plan; notes: string[]; unfollowed: string[] } {
  const notes: string[] = [];
  const unfollowed: string[] = [];
  const linked = linkedById(frame);
  const usedIds = new Set<string>();
  const cleanHop = (h: PlanHop, owner: string): PlanHop | null => {
    const id = usedIds.has(h.id) ? `${owner}.${h.id}` : h.id;
    usedIds.add(id);
    const metaedges = [...new Set(h.metaedges)].filter((m) => {
      const info = metaedgeInfo(m);
      const ok =
        !!info &&
        ((sameKind(info.source, h.fromKind) && sameKind(info.target, h.toKind)) || (sameKind(info.source, h.toKind) && sameKind(info.target, h.fromKind)));
      if (!ok) notes.push(`hop ${id}: dropped ${m}, which does not join ${h.fromKind} and ${h.toKind}`);
      return ok;
    });
    if (!metaedges.length) {
      notes.push(`hop ${id} (${h.fromKind} → ${h.toKind}) has no valid metaedge`);
      return null;
    }
    return { ...h, id, metaedges };
  };
  const constraints = raw.constraints.flatMap((c) => {
    const anchor = linked.get(c.anchorId);
    if (!anchor) {
      notes.push(`constraint ${c.id}: ${c.anchorId} is not a linked entity`);
      return [];
    }
    const hops: PlanHop[] = [];
    let kind = anchor.kind;
    for (const h of c.hops) {
      if (!sameKind(h.fromKind, kind)) {
        notes.push(`constraint ${c.id}: hop ${h.id} starts at ${h.fromKind}, not ${kind}; chain cut there`);
        break;
      }
      const clean = cleanHop(h, c.id);
      if (!clean) break;
      hops.push(clean);
      kind = h.toKind;
    }
    if (!hops.length) {
      notes.push(`constraint ${c.id} on ${anchor.name} has no usable hop`);
      unfollowed.push(
        `constraint ${c.id} on ${anchor.name} (${anchor.kind}): ${c.hops.map((h) => `${h.fromKind} → ${h.toKind} via ${h.metaedges.join('/') || '?'}`).join(', ') || 'no hop'}`,
      );
    }
    return hops.length ? [{ ...c, hops }] : [];
  });
  const claims = raw.claims.flatMap((c) => {
    const [subject, object] = [linked.get(c.subjectId), linked.get(c.objectId)];
    const hop = subject && object && sameKind(c.hop.fromKind, subject.kind) && sameKind(c.hop.toKind, object.kind) ? cleanHop(c.hop, c.id) : null;
    if (!hop) notes.push(`claim ${c.id}: not a relation between two linked entities`);
    return hop ? [{ ...c, hop }] : [];
  });
  const topicEntityIds = [...new Set(raw.topicEntityIds.filter((id) => linked.has(id)))];
  for (const id of raw.topicEntityIds) if (!linked.has(id)) notes.push(`topic entity ${id} is not a linked entity`);
  const sourcePlan = [...new Set(raw.sourcePlan)].filter((s) => frame.enabledSources.includes(s));
  for (const s of raw.sourcePlan) if (!frame.enabledSources.includes(s)) notes.push(`source ${s} is not enabled in this run: left out of the plan`);
  const hopIds = new Set([...constraints.flatMap((c) => c.hops.map((h) => h.id)), ...claims.map((c) => c.hop.id)]);
  const missingHops = [...new Set(raw.missingHops)].filter((id) => hopIds.has(id));
  const excludedIds = [...new Set(raw.excludedIds.filter((id) => linked.has(id)))];
  return { plan: { ...raw, topicEntityIds, constraints, claims, excludedIds, sourcePlan, missingHops }, notes, unfollowed };
}
