import { findRelationCues } from '@/lib/reading/relation-cues';
import { kindPlural, metaedgeInfo, sameKind } from '@/lib/llm/offline/metaedges';
import { findEntityMentions, type CandidateEntity } from '@/lib/llm/offline/passages';
import { normalise, splitSentences, wordTokens } from '@/lib/llm/offline/text';
import type { Similarity, SimilarityUse } from '@/lib/llm/similarity';
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
  /** Which similarity scored the spans' relevance to the question (the paper: SentenceBERT). */
  similarity: SimilarityUse;
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
  const queries = textQueries(plan, round, ctx.question.text);
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
  const { kept, considered, similarity } = await entityAwareFilter(unique, source, topics, candidates, ctx.question.text, budget, ctx.model.similarity);
  return {
    entityMatching: ctx.params.entityNormalisation ? "KG names, aliases and the question's spelling" : 'exact KG names only (entity normalisation off)',
    queries,
    builtBy: round.queries.length
      ? 'the repair decision'
      : `rule: ${source === 'doc' ? 'hop-level and partial-chain queries' : 'targeted hop queries'} from the plan`,
    attached,
    records: unique.length,
    spans: kept,
    considered,
    similarity,
    notes,
  };
}

/** A round's text queries: those the repair decision asked for, else built from the plan's hops. */
export function textQueries(plan: Plan, round: RoundPlan, question: string): string[] {
  return round.queries.length ? round.queries : hopQueries(plan, round, question);
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
    const names = new Map(
      Object.values(round.frontier)
        .flat()
        .map((e) => [e.nodeId, e.name]),
    );
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
 * known entities, a relation cue and their similarity to the question (the
 * run's: embedding cosine, as the paper's SentenceBERT relevance, else
 * lexical); a sentence must name a topic entity (or, when none is linked, be
 * similar to the question at all).
 */
export async function entityAwareFilter(
  records: EvidenceRecord[],
  source: 'doc' | 'web',
  topics: UnitEntity[],
  candidates: CandidateEntity[],
  question: string,
  budget: number,
  similarity: Similarity,
): Promise<{ kept: KeptSpan[]; considered: number; similarity: SimilarityUse }> {
  const required = new Set(topics.map((t) => t.nodeId));
  // A name can only match where its first word occurs: most of G_q's nodes are ruled out per record at once.
  const firstWords = candidates.map((c) => [c.name, ...(c.aliases ?? [])].flatMap((n) => wordTokens(n)[0]?.text ?? []));
  const named: {
    record: EvidenceRecord;
    sentence: { text: string; start: number; end: number };
    mentions: ReturnType<typeof findEntityMentions>;
    hits: number;
    others: number;
  }[] = [];
  let considered = 0;
  for (const record of records) {
    const words = new Set(wordTokens(record.text).map((t) => t.text));
    const present = candidates.filter((_, i) => firstWords[i].some((w) => words.has(w)));
    for (const sentence of splitSentences(record.text)) {
      considered++;
      const mentions = findEntityMentions(sentence.text, present);
      const ids = new Set(mentions.map((m) => m.nodeId));
      const hits = [...ids].filter((id) => required.has(id)).length;
      if (required.size && !hits) continue;
      named.push({ record, sentence, mentions, hits, others: Math.min(3, [...ids].filter((id) => !required.has(id)).length) });
    }
  }
  // Only the sentences that passed the entity test are compared with the question (and embedded).
  const comparison = await similarity.compare(
    named.map((n) => n.sentence.text),
    [question],
  );
  const spans: KeptSpan[] = [];
  for (const { record, sentence, mentions, hits, others } of named) {
    const sim = comparison.between(question, sentence.text);
    if (!required.size && !(sim > 0)) continue;
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
      score: hits + 0.5 * others + (cue ? 0.5 : 0) + sim,
      alsoIn: [],
    });
  }
  // One span per sentence text: the first record to hold it (attached documents come first) keeps it, the rest are its provenance.
  const byText = new Map<string, KeptSpan>();
  for (const span of spans) {
    const first = byText.get(normalise(span.text));
    if (first) first.alsoIn.push(span.recordId);
    else byText.set(normalise(span.text), span);
  }
  return { kept: [...byText.values()].sort((a, b) => b.score - a.score).slice(0, budget), considered, similarity: comparison.used };
}
