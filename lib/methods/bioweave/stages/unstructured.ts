import { findRelationCues } from '@/lib/llm/offline/cues';
import { lexicalSimilarity } from '@/lib/llm/offline/lexical';
import { kindPlural, metaedgeInfo, sameKind } from '@/lib/llm/offline/metaedges';
import { findEntityMentions, type CandidateEntity } from '@/lib/llm/offline/passages';
import { normalise, splitSentences, wordTokens } from '@/lib/llm/offline/text';
import type { EvidenceRecord, StepHandle } from '@/lib/trace/types';
import type { MethodContext } from '../../types';
import { WHOLE_QUESTION } from '../operator';
import type { BioWeaveParams } from '../params';
import { findHop, followed, type Plan, type PlanHop } from '../plan';
import type { RoundPlan } from '../round';
import type { UnitEntity } from '../units';

/**
 * UnstructuredRetrieval, up to conversion: hop-level and partial-chain queries
 * (BuildHopQueries / BuildTargetedQueries, by rule), the doc or web channel,
 * then the entity-aware filter that keeps the sentences naming the topic
 * entities under the source's budget (W_doc, W_web).
 */

export interface KeptSpan {
  spanId: string;
  source: 'doc' | 'web';
  /** The passage or web record the span is in. */
  recordId: string;
  recordRef: string;
  /** Offsets into the record's text. */
  start: number;
  end: number;
  text: string;
  mentions: { nodeId: string; name: string; mention: string }[];
  cue: string | null;
  score: number;
  /** Other records holding the same sentence (a document stored twice, a snippet on two pages). */
  alsoIn: string[];
}

export interface TextRetrieval {
  /** How spans were matched to entities: names and aliases, or exact KG names with entity normalisation off (Table 8). */
  entityMatching: string;
  queries: string[];
  builtBy: string;
  attached: number;
  records: number;
  spans: KeptSpan[];
  /** Sentences considered by the filter, and why the rest were dropped. */
  considered: number;
  notes: string[];
}

export async function retrieveText(
  ctx: MethodContext<BioWeaveParams>,
  step: StepHandle,
  source: 'doc' | 'web',
  plan: Plan,
  round: RoundPlan,
  topics: UnitEntity[],
  candidates: CandidateEntity[],
): Promise<TextRetrieval> {
  const budget = source === 'doc' ? ctx.params.wDoc : ctx.params.wWeb;
  const queries = round.queries.length ? round.queries : hopQueries(plan, round, ctx.question.text);
  const records: EvidenceRecord[] = [];
  const notes: string[] = [];
  let attached = 0;
  if (source === 'doc' && round.round === 1 && ctx.question.documentIds.length) {
    const answer = await ctx.channels.doc.attached(step);
    attached = answer.items.length;
    records.push(...answer.items);
  }
  for (const query of queries) {
    const answer = source === 'doc' ? await ctx.channels.doc.search(step, query, budget) : await ctx.channels.web.search(step, query, budget);
    if (answer.note) notes.push(`${query}: ${answer.note}`);
    records.push(...answer.items);
  }
  const unique = [...new Map(records.map((r) => [r.ref, r])).values()];
  const { kept, considered } = entityAwareFilter(unique, source, topics, candidates, ctx.question.text, budget);
  return {
    entityMatching: ctx.params.entityNormalisation ? "KG names, aliases and the question's spelling" : 'exact KG names only (entity normalisation off)',
    queries,
    builtBy: round.queries.length ? 'the repair decision' : `rule: ${source === 'doc' ? 'hop-level and partial-chain queries' : 'targeted hop queries'} from the plan`,
    attached,
    records: unique.length,
    spans: kept,
    considered,
    notes,
  };
}

/** The hop's relation in words, from the hop's start: "are associated with", "treat". */
function relationPhrase(hop: PlanHop): string {
  const info = metaedgeInfo(followed(hop)[0] ?? hop.metaedges[0]);
  if (!info) return '';
  const clause = sameKind(info.source, hop.fromKind) ? info.sourceClause : info.targetClause;
  return clause.replace('{x}', '').trim();
}

/**
 * One query per target hop (its start, relation and target kind); for a round
 * over the whole plan also a partial-chain query per multi-hop constraint and a
 * joint query naming every anchor; the question itself when it has no hop.
 */
export function hopQueries(plan: Plan, round: RoundPlan, question: string): string[] {
  const queries: string[] = [];
  for (const id of round.targetHops) {
    if (id === WHOLE_QUESTION) {
      queries.push(question);
      continue;
    }
    const located = findHop(plan, id);
    if (!located) continue;
    const starts = (round.frontier[id] ?? []).slice(0, 3).map((s) => s.name);
    const claim = plan.claims.find((c) => c.id === located.owner);
    const target = claim ? '' : kindPlural(located.hop.toKind);
    if (starts.length) queries.push(`${starts.join(' ')} ${relationPhrase(located.hop)} ${target}`.trim());
  }
  if (round.round === 1) {
    const names = new Map(Object.values(round.frontier).flat().map((e) => [e.nodeId, e.name]));
    for (const c of plan.constraints.filter((c) => c.hops.length > 1)) {
      const anchor = names.get(c.anchorId);
      if (anchor) queries.push(`${anchor} ${c.hops.map((h) => `${relationPhrase(h)} ${kindPlural(h.toKind)}`).join(' ')}`);
    }
    for (const c of plan.claims) {
      const [s, o] = [names.get(c.subjectId), names.get(c.objectId)];
      if (s && o) queries.push(`${s} ${relationPhrase(c.hop)} ${o}`);
    }
    const anchors = [...new Set(plan.constraints.map((c) => names.get(c.anchorId)).filter((n): n is string => !!n))];
    if (anchors.length > 1) queries.push(`${anchors.join(' ')} ${plan.answerKind ? kindPlural(plan.answerKind) : ''}`.trim());
  }
  return [...new Set(queries)];
}

/**
 * EntityAwareFilter: sentences ranked by the topic entities they name, other
 * known entities, a relation cue and their lexical similarity to the question;
 * a sentence must name a topic entity (or, when none is linked, share words
 * with the question).
 */
export function entityAwareFilter(
  records: EvidenceRecord[],
  source: 'doc' | 'web',
  topics: UnitEntity[],
  candidates: CandidateEntity[],
  question: string,
  budget: number,
): { kept: KeptSpan[]; considered: number } {
  const required = new Set(topics.map((t) => t.nodeId));
  // A name can only match where its first word occurs: most of G_q's nodes are ruled out per record at once.
  const firstWords = candidates.map((c) => [c.name, ...(c.aliases ?? [])].flatMap((n) => wordTokens(n)[0]?.text ?? []));
  const spans: KeptSpan[] = [];
  let considered = 0;
  for (const record of records) {
    const words = new Set(wordTokens(record.text).map((t) => t.text));
    const present = candidates.filter((_, i) => firstWords[i].some((w) => words.has(w)));
    for (const sentence of splitSentences(record.text)) {
      considered++;
      const mentions = findEntityMentions(sentence.text, present);
      const ids = new Set(mentions.map((m) => m.nodeId));
      const hits = [...ids].filter((id) => required.has(id)).length;
      const others = Math.min(3, [...ids].filter((id) => !required.has(id)).length);
      const lexical = lexicalSimilarity(question, sentence.text);
      if (!(hits > 0 || (!required.size && lexical > 0))) continue;
      const cue = findRelationCues(sentence.text)[0]?.phrase ?? null;
      spans.push({
        spanId: `${record.id}:${sentence.start}-${sentence.end}`,
        source,
        recordId: record.id,
        recordRef: record.ref,
        start: sentence.start,
        end: sentence.end,
        text: sentence.text,
        mentions: mentions.map((m) => ({ nodeId: m.nodeId, name: m.name, mention: m.mention })),
        cue,
        score: hits + 0.5 * others + (cue ? 0.5 : 0) + lexical,
        alsoIn: [],
      });
    }
  }
  // One span per sentence text: the first record to hold it (attached documents come first) keeps it, the rest are its provenance.
  const byText = new Map<string, KeptSpan>();
  for (const span of spans) {
    const first = byText.get(normalise(span.text));
    if (first) first.alsoIn.push(span.recordId);
    else byText.set(normalise(span.text), span);
  }
  return { kept: [...byText.values()].sort((a, b) => b.score - a.score).slice(0, budget), considered };
}
