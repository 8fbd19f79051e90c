import { tripleOf } from '@/lib/trace/evidence-data';
import type { ChannelAnswer } from '@/lib/channels';
import { lexicalSimilarity } from '@/lib/llm/offline/lexical';
import { joins, metaedgeInfo, sameKind } from '@/lib/llm/offline/metaedges';
import { normalise } from '@/lib/llm/offline/text';
import type { EvidenceRecord, StepHandle } from '@/lib/trace/types';
import type { MethodContext } from '../../types';
import { toLine, type EvidenceLine } from '../../baselines/evidence';
import { linkedNodes } from '../../baselines/frame';
import type { Xr2Params } from '../params';
import type { LoopState, StepRelation } from '../state';
import { cueText, type KgUnit, type StepEntity, type Xr2Frame } from '../templates';
import { metaedgeVerbs } from '@/lib/channels/kg-text';
import { relationTotals } from '@/lib/channels/relation-totals';
import type { StepExtraction } from './extract';

/** How one candidate unit ranked: the terms of its score, and what became of it. */
export interface CandidateRow {
  rank: number | null;
  evidenceIds: string[];
  text: string;
  /**
   * Constraint match: the share of the constraints the unit meets. Each step
   * entity E_t is one (touching it); with the aids on (`option-coverage`), when
   * the question names entities outside E_t (MCQ options, the other end of a
   * claim), reaching one of them is one more, weighed like the others.
   */
  coverage: number;
  /** Mean over its triples: 1 for a relation the cues name, 0.5 / 0.25 for the preferred / a fallback reading the kinds chose, 0 otherwise. */
  relation: number;
  /** 1 when it reaches an entity the question names outside E_t (an option, the other end of a claim); weighs `optionBonus` (0 by default). */
  focus: number;
  /** Lexical similarity of its text to Q_t. */
  lexical: number;
  score: number;
  status: 'selected' | 'candidate' | 'shown earlier';
}

export interface KgRetrieval {
  /** KG_t: units in rank order holding exactly K triples (fewer only when the candidates run out). */
  units: KgUnit[];
  /**
   * Aid `answer-set` (docs/aids.md; none with the aids off): at most one
   * complete answer set, one cited unit: the original question's as the reader
   * reads it, else this step's (for a list or count step), else the one an
   * earlier step showed. One set, so a prompt never holds two that disagree.
   */
  answerSet: EvidenceLine[];
  /** How much of the ranked candidates KG_t shows: "5 triples of 37 ranked candidates". */
  shown: string;
  /**
   * Per relation R_t names at each step entity, the exact number of edges the KG
   * holds and how many KG_t shows ("Compound –causes→ Punctate keratitis: 24 in
   * the KG (5 shown)"): the size of what the list is cut from, so a count is read
   * from the KG and not paged through K triples a step. Absent in older traces.
   */
  totals?: string[];
  /** The relations R_t names at each step entity: what this step asks, whose earlier findings it is shown whole. */
  asked?: StepRelation[];
  /** R_t as written for the model: each cue in its metaedge's direction, with the KG verb. */
  cues: string[];
  candidates: CandidateRow[];
  /** Eligible candidates below the top K with the best coverage of E_t there is: they could extend the answer as the ones shown did. */
  unexamined: number;
  /** Whether the check is told `unexamined` (aid `completeness-notice`; the paper's check sees the answer, Q and D). */
  completeness: boolean;
  notes: string[];
}

interface Unit {
  records: EvidenceRecord[];
  order: number;
}

/**
 * KG_t ← RetrieveKG(E_t, R_t), when the kg switch is on. Triples anchored on
 * the step entities along the relations the cues name; where several entities
 * lead to the same kind of node, also the short paths through the nodes they
 * share. Units are ranked by cue match (relation, lexical) and constraint match
 * (coverage of E_t, reaching a named entity); the top K go into the prompt,
 * the rest stay in the trace as candidates. Units already shown in an earlier
 * step are not shown again, so each step examines further candidates.
 * kgShuffle is applied by the kg channel itself.
 */
export async function retrieveKG(
  ctx: MethodContext<Xr2Params>,
  parent: StepHandle,
  frame: Xr2Frame,
  current: string,
  extraction: StepExtraction,
  state: LoopState,
): Promise<KgRetrieval> {
  const { topK, candidatePool } = ctx.params;
  const entities = extraction.linked;
  return ctx.trace.step(
    {
      kind: 'xr2.kg',
      label: 'Retrieve KG triples',
      input: { entities: entities.map((e) => e.nodeId), topK, candidatePool, alreadyShown: state.shownEdges.length },
      parent,
    },
    async (step) => {
      // Retrieved while RecallParametric's call is in flight (started beside it), not before that call's request.
      await ctx.model.requestsOut();
      const notes: string[] = [];
      const node = (e: StepEntity) => ({ id: e.nodeId, kind: e.kind, name: e.name });
      if (!entities.length) {
        // Still asked, so a switched-off channel leaves its skipped step in the trace.
        const none = await ctx.channels.kg.triplesAround(step, [], {}, 'KG triples at the step entities');
        const answerSet = await setShown(ctx, step, frame, state, async () => []);
        return {
          units: [],
          answerSet,
          shown: 'no candidates',
          totals: [],
          asked: [],
          cues: await cuesOf(extraction),
          candidates: [],
          unexamined: 0,
          completeness: false,
          notes: [none.note ?? 'no step entity was linked to the KG'],
        };
      }
      const plans = entities.map((e) => ({ entity: e, ...relationsOf(e, extraction) }));
      const answers: ChannelAnswer[] = [];
      const units: Unit[] = [];

      // Short paths: entities whose relations lead to the same kind of node, joined through the nodes they share.
      const groups = new Map<string, typeof plans>();
      for (const p of plans) if (p.targetKind && !p.negated) groups.set(p.targetKind, [...(groups.get(p.targetKind) ?? []), p]);
      for (const [kind, group] of groups) {
        if (group.length < 2) continue;
        const metaedges = [...new Set(group.flatMap((p) => p.metaedges))];
        const shared = await ctx.channels.kg.sharedNeighbors(
          step,
          group.map((p) => node(p.entity)),
          { metaedges: metaedges.length ? metaedges : undefined, neighborKind: kind, limit: candidatePool },
        );
        answers.push(shared);
        // The channel gives one triple per anchor for each shared node, in anchor order.
        for (let i = 0; i + group.length <= shared.items.length; i += group.length)
          units.push({ records: shared.items.slice(i, i + group.length), order: units.length });
        if (shared.enabled && !shared.items.length) notes.push(`no ${kind} is shared by ${group.map((p) => p.entity.name).join(' and ')}`);
      }
      // Short paths of one edge: each pair of step entities' own edges along R_t (any relation where R_t names none between
      // their kinds), read whole, with a check record for the relations the pair has none of.
      for (const [i, p] of plans.entries()) {
        for (const q of plans.slice(i + 1, PAIR_ENTITIES)) {
          const asked = [...new Set([...p.metaedges, ...q.metaedges])].filter((m) => joins(m, p.entity.kind, q.entity.kind));
          const pair = await ctx.channels.kg.edgesBetween(
            step,
            node(p.entity),
            node(q.entity),
            `KG edges between ${p.entity.name} and ${q.entity.name}`,
            asked.length ? asked : undefined,
          );
          answers.push(pair);
          // A check is the step's "no" only for a pair it asks about: two of one set (compounds of a class, diseases sharing a
          // symptom) with no relation of R_t between their kind are candidates side by side, and their lack of an edge says nothing.
          const askedPair = asked.length > 0 || !sameKind(p.entity.kind, q.entity.kind);
          for (const r of pair.items) if (r.kind !== 'check' || askedPair) units.push({ records: [r], order: units.length });
        }
      }
      // Single triples at each entity.
      const joined = new Set(units.flatMap((u) => u.records.flatMap((r) => (r.kind === 'check' ? [] : [edgeOf(r)]))));
      for (const p of plans) {
        const around = await ctx.channels.kg.triplesAround(
          step,
          [node(p.entity)],
          {
            metaedges: p.metaedges.length ? p.metaedges : undefined,
            direction: p.direction,
            neighborKinds: p.targetKind ? [p.targetKind] : undefined,
            limit: candidatePool,
          },
          `KG triples at ${p.entity.name}`,
        );
        answers.push(around);
        for (const r of around.items) if (!joined.has(edgeOf(r))) units.push({ records: [r], order: units.length });
      }
      for (const a of answers) if (a.note && !notes.includes(a.note)) notes.push(a.note);

      // Aid `option-coverage`: reaching an entity the question names outside E_t (an option) counts as one more constraint met.
      const focus = focusNodes(frame, entities);
      const focusCovers =
        focus.size > 0 &&
        (await ctx.channels.aids.note(
          step,
          'option-coverage',
          `reaching one of ${focus.size} named entit${focus.size === 1 ? 'y' : 'ies'} outside E_t counts as a constraint met`,
        ));
      const rows = rank(units, { current, entities, extraction, focus, focusCovers, shown: new Set(state.shownEdges), optionBonus: ctx.params.optionBonus });
      const eligible = rows.filter((r) => r.row.status !== 'shown earlier');
      const chosen = withinBudget(eligible, topK);
      const rest = eligible.filter((r) => !chosen.includes(r));
      for (const [i, r] of chosen.entries()) Object.assign(r.row, { status: 'selected', rank: i + 1 });
      rest.forEach((r, i) => (r.row.rank = chosen.length + i + 1));
      const best = Math.max(0, ...eligible.map((r) => r.row.coverage));
      const unexamined = rest.filter((r) => r.row.coverage >= best).length;
      const completeness = await ctx.channels.aids.note(
        step,
        'completeness-notice',
        `the check is told that ${unexamined} candidate(s) below the top K cover the step entities as fully as those shown`,
      );
      const set = await setShown(ctx, step, frame, state, () => answerSetOf(ctx, step, plans, extraction));
      await ctx.trace.markSelected([...chosen.flatMap((r) => r.unit.records.map((x) => x.id)), ...set.map((l) => l.id)]);
      const tripleCount = (r: { unit: Unit }) => r.unit.records.filter((x) => x.kind !== 'check').length;
      const triples = chosen.reduce((n, r) => n + tripleCount(r), 0);
      const candidateTriples = eligible.reduce((n, r) => n + tripleCount(r), 0);
      const checks = chosen.reduce((n, r) => n + r.unit.records.length - tripleCount(r), 0);
      // The edges come first; a pair's check lines follow them, counted apart, as they state no triple.
      const shownUnits = [...chosen.filter((r) => tripleCount(r) > 0), ...chosen.filter((r) => tripleCount(r) === 0)];
      // R_t at each step entity: what the step asks, sized from the KG and kept whole in the next steps' findings.
      const relationPlans = plans.filter((p) => p.metaedges.length);
      const totals = await relationTotals(
        ctx.channels.kg,
        relationPlans.map((p) => ({ node: node(p.entity), metaedges: p.metaedges, direction: p.direction })),
        chosen.flatMap((r) => r.unit.records.filter((x) => x.kind !== 'check').map(tripleOf)),
      );
      return {
        units: shownUnits.map((r) => ({ lines: r.unit.records.map(toLine) })),
        answerSet: set,
        cues: await cuesOf(extraction),
        shown: `showing ${triples} of ${candidateTriples} ranked candidate triples${checks ? `, and ${checks} no-edge check line${checks === 1 ? '' : 's'}` : ''}`,
        totals: totals.map((t) => t.text),
        asked: relationPlans.map((p) => ({ nodeId: p.entity.nodeId, metaedges: p.metaedges })),
        candidates: rows.map((r) => r.row),
        unexamined,
        completeness,
        notes,
      };
    },
  );
}

/**
 * The prompt budget is exactly K triples: units are taken in rank order while
 * they fit, so a shared-node unit of several triples never pushes it past K.
 * A pair's check record states no triple and costs none.
 */
function withinBudget<T extends { unit: Unit }>(ranked: T[], k: number): T[] {
  const chosen: T[] = [];
  let left = k;
  for (const r of ranked) {
    if (left <= 0) break;
    const size = r.unit.records.filter((x) => x.kind !== 'check').length;
    if (size > left) continue;
    chosen.push(r);
    left -= size;
  }
  return chosen;
}

/**
 * The one answer set a step shows (aid `answer-set`): the question's own as
 * the reader reads it; else this step's; else the one an earlier step showed.
 * Never two: sets read from two readings of one question can disagree.
 */
async function setShown(
  ctx: MethodContext<Xr2Params>,
  step: StepHandle,
  frame: Xr2Frame,
  state: LoopState,
  stepSet: () => Promise<EvidenceLine[]>,
): Promise<EvidenceLine[]> {
  if (!ctx.channels.aids.enabled) return [];
  const question = (await ctx.channels.aids.questionAnswerSet(step, frame, 'Answer set of the question (aid)')).map(toLine);
  if (question.length) return question.slice(0, 1);
  const own = await stepSet();
  return (own.length ? own : (state.sets ?? [])).slice(-1);
}

/** For a list or count step: one set unit, the nodes of the answer kind every (non-negated) entity reaches along its relation. */
async function answerSetOf(
  ctx: MethodContext<Xr2Params>,
  step: StepHandle,
  plans: (ReturnType<typeof relationsOf> & { entity: StepEntity })[],
  x: StepExtraction,
): Promise<EvidenceLine[]> {
  if (x.outputFormat !== 'list' && x.outputFormat !== 'count') return [];
  const usable = plans.filter((p) => !p.negated && p.metaedges.length);
  if (!usable.length || usable.length !== plans.filter((p) => !p.negated).length) return [];
  const kind = x.answerKind ?? usable[0].targetKind;
  const constraints = usable.map((p) => ({
    anchor: { id: p.entity.nodeId, kind: p.entity.kind, name: p.entity.name },
    metaedges: p.metaedges,
    direction: p.direction,
  }));
  return (await ctx.channels.aids.answerSet(step, constraints, kind)).map(toLine);
}

async function cuesOf(x: StepExtraction): Promise<string[]> {
  const verbs = await metaedgeVerbs();
  return x.relations.map((r) => cueText(r, verbs));
}

/** R_t for one entity: the named relations (known metaedges only), their direction and target kind. */
function relationsOf(e: StepEntity, x: StepExtraction) {
  const mine = x.relations.filter((r) => [e.mention, e.name].some((m) => normalise(m) === normalise(r.entity)));
  const metaedges = [...new Set(mine.flatMap((r) => r.metaedges.filter((m) => metaedgeInfo(m))))];
  const directions = new Set(mine.map((r) => r.direction));
  const kinds = [...new Set(mine.map((r) => r.targetKind).filter((k): k is string => !!k))];
  return {
    metaedges,
    direction: directions.size === 1 ? [...directions][0] : ('both' as const),
    targetKind: kinds.length === 1 ? kinds[0] : null,
    negated: mine.some((r) => r.negated),
  };
}

/** Entities the question names besides E_t: the options' and the question's own. */
function focusNodes(frame: Xr2Frame, entities: StepEntity[]): Set<string> {
  const step = new Set(entities.map((e) => e.nodeId));
  return new Set(
    linkedNodes(frame)
      .map((n) => n.nodeId)
      .filter((id) => !step.has(id)),
  );
}

const edgeOf = (r: EvidenceRecord) => tripleOf(r).edgeId;

/** Step entities whose pairs are read: a step relates few entities to each other. */
const PAIR_ENTITIES = 4;

function rank(
  units: Unit[],
  by: {
    current: string;
    entities: StepEntity[];
    extraction: StepExtraction;
    focus: Set<string>;
    focusCovers: boolean;
    shown: Set<number>;
    optionBonus: number;
  },
) {
  const ids = new Set(by.entities.map((e) => e.nodeId));
  // A relation the question's words name weighs 1; one the kinds chose, 0.5 for the preferred reading and 0.25 for the fallbacks.
  const weight = new Map<string, number>();
  for (const r of by.extraction.relations) {
    r.metaedges.forEach((m, i) => weight.set(m, Math.max(weight.get(m) ?? 0, r.cue ? 1 : i === 0 ? 0.5 : 0.25)));
  }
  const rows = units.map((unit) => {
    const lines = unit.records.map(toLine);
    const triples = lines.flatMap((l) => l.triples);
    // A check record is about its pair: it touches both ends and weighs as the relations it found absent.
    const checks = lines.flatMap((l) => (l.check ? [l.check] : []));
    const nodes = new Set([...triples.flatMap((t) => [t.sourceId, t.targetId]), ...checks.flatMap((c) => [c.fromId, c.toId])]);
    const named = by.focusCovers && by.focus.size ? 1 : 0;
    const focusHit = [...nodes].some((n) => by.focus.has(n)) ? 1 : 0;
    const coverage = ids.size + named ? ([...ids].filter((id) => nodes.has(id)).length + named * focusHit) / (ids.size + named) : 0;
    const relations = [...triples.map((t) => t.metaedge), ...checks.flatMap((c) => c.metaedges ?? [...weight.keys()])];
    const relation = relations.reduce((s, m) => s + (weight.get(m) ?? 0), 0) / Math.max(1, relations.length);
    const focus = focusHit;
    const text = lines.map((l) => l.text).join('; ');
    const lexical = lexicalSimilarity(by.current, text);
    // A check states no edge: it is shown again with its pair in each step that reads the pair.
    const shownEarlier = triples.length > 0 && triples.every((t) => by.shown.has(t.edgeId));
    const row: CandidateRow = {
      rank: null,
      evidenceIds: lines.map((l: EvidenceLine) => l.id),
      text,
      coverage: round(coverage),
      relation: round(relation),
      focus,
      lexical: round(lexical),
      score: round(by.optionBonus * focus + coverage + relation + lexical),
      status: shownEarlier ? 'shown earlier' : 'candidate',
    };
    return { unit, row };
  });
  // Stable: equal scores keep the channel's order (best-connected first).
  return rows.sort((a, b) => b.row.score - a.row.score || a.unit.order - b.unit.order);
}

const round = (x: number) => Math.round(x * 1000) / 1000;
