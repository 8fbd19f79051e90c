/**
 * The offline engine's "reasoning stream" for EIGEN-1: no language model, so
 * the text is written from the question's understanding. It says what the
 * question asks and, per constraint, which facts it needs and that it does
 * not have them ("To answer this I need the …"): exactly what the monitor
 * looks for. It never states a fact; facts enter only through injected asides.
 * Proposers differ by which constraint they take up first.
 */

import { kindPlural, metaedgeInfo } from '@/lib/llm/offline/metaedges';
import { normaliseOnce } from '../normalised';
import type { Anchor, Hop, Proposition, QuestionReading } from '@/lib/llm/offline/types';
import type { TripleData } from '@/lib/trace/types';
import type { EvidenceItem } from '../templates';
import { onePerNode } from '@/lib/base/distinct';
import { askedFor } from '../../asked-for';

export interface PlanParagraph {
  text: string;
  /** The facts this paragraph asks for (the querier's query), if any. */
  need: string | null;
}

/** A stated need; the monitor and querier read it back from the stream. */
export const NEED_SENTENCE = /To answer this I need the ([^.]+)\./g;
/** An injected aside as the offline injector writes it (the paper's template), or (injector off) the raw records spliced for a query. */
export const ASIDE =
  /Wait a minute, by searching information about ([\s\S]*?), I found[\s\S]*?I can continue my reasoning\.|\[Retrieved for "([^"]*)":[\s\S]*?\n\]/g;

const ORDINALS = ['First', 'Second', 'Third', 'Fourth', 'Fifth'];

/** The hop's relation with the far end as subject: "are treated by {x}". */
function clause(hop: Hop, x: string): string {
  const edge = hop.edges[0];
  const m = metaedgeInfo(edge.metaedge);
  if (!m) return `are related to ${x}`;
  return (edge.fromEnd === 'source' ? m.targetClause : m.sourceClause).replace('{x}', x);
}

function anchorNeed(anchor: Anchor): string {
  const hop = anchor.chain[0];
  return `${kindPlural(hop.to)} that ${clause(hop, anchor.entity.name)}`;
}

function anchorParagraph(anchor: Anchor, i: number, answerKind: string): PlanParagraph {
  const need = anchorNeed(anchor);
  const among = anchor.negated ? 'must not be' : 'must be';
  const via = anchor.chain.length > 1 ? ` reached from there in ${anchor.chain.length - 1} further step(s) to a ${answerKind.toLowerCase()}` : '';
  const hop = anchor.chain[0];
  return {
    need,
    text:
      `${ORDINALS[i] ?? 'Another'} constraint: the answer ${among} related to ${anchor.entity.name} (${anchor.entity.kind})${via}. ` +
      `To answer this I need the ${need}. In the knowledge graph these are ${hop.from}–${hop.to} edges of type ${hop.edges.map((e) => e.metaedge).join(' or ')}. ` +
      'I do not have these facts at hand, and I will not list them from memory.',
  };
}

function propositionParagraph(p: Proposition): PlanParagraph {
  const need = `relation between ${p.subject.name} and ${p.object.name}`;
  return {
    need,
    text:
      `The claim to check is whether ${p.object.name} is among the ${kindPlural(p.object.kind)} that ${clause(p.hop, p.subject.name)}. ` +
      `To answer this I need the ${need}. I am not sure of it, and I will not assume it.`,
  };
}

/**
 * An MCQ's options are candidates to check, not facts at hand: the reasoning
 * asks for the relation between the question's entities and every option, so
 * the querier's query names each option and the KG channel searches around it.
 */
function optionsParagraph(u: QuestionReading): PlanParagraph | null {
  const options = u.options.map((o) => o.links[0]?.name ?? o.text.trim()).filter(Boolean);
  const about = [...new Set(u.anchors.map((a) => a.entity.name))];
  if (!options.length || !about.length) return null;
  const need = `relation between ${about.join(' and ')} and the options ${options.join(', ')}`;
  return {
    need,
    text:
      `The options are candidates to check: ${u.options.map((o) => `${o.letter}. ${o.text.trim()}`).join('; ')}. ` +
      `For each I must know whether it relates to ${about.join(' and ')} as the problem asks. To answer this I need the ${need}. I will not pick one from memory.`,
  };
}

function closing(u: QuestionReading): string {
  const kind = u.answerKind ? u.answerKind.toLowerCase() : 'entity';
  const combine =
    u.operator === 'yesno' || u.propositions.length
      ? 'Once the relation is known, the answer is yes if the facts state it and no if they cover it without stating it.'
      : u.anchors.length > 1
        ? `Once these facts are known, the answer is the ${kind} that every constraint reaches: the intersection of the sets above${u.outputFormat === 'count' ? ', counted after merging duplicates' : ''}.`
        : `Once these facts are known, the answer is ${u.outputFormat === 'count' ? 'the size of that set, duplicates merged' : `the ${kind} they name`}.`;
  return `${combine} If the facts leave a constraint uncovered, I should say so rather than guess. Answer: the ${u.propositions.length ? 'verdict' : kind} the retrieved facts support.`;
}

/** The whole reasoning of one proposer, as paragraphs. */
export function reasoningPlan(u: QuestionReading, proposer: number): PlanParagraph[] {
  const named = onePerNode([...u.anchors.map((a) => a.entity), ...u.propositions.flatMap((p) => [p.subject, p.object])]);
  const paragraphs: PlanParagraph[] = [
    {
      need: null,
      text:
        `Let me reason about this step by step. The problem asks for ${askedFor(u)}.` +
        (named.length ? ` It names ${named.map((e) => `${e.name} (${e.kind})`).join(', ')}.` : ' It names no entity I can tie to the answer.'),
    },
  ];
  if (u.subquestions.length > 1) paragraphs.push({ need: null, text: `Broken into steps: ${u.subquestions.map((q, i) => `(${i + 1}) ${q}`).join(' ')}` });
  const anchors = u.anchors.filter((a) => a.chain.length);
  const options = u.propositions.length ? null : optionsParagraph(u);
  if (options) paragraphs.push(options);
  if (u.propositions.length) paragraphs.push(...u.propositions.map(propositionParagraph));
  else if (anchors.length) {
    const shift = proposer % anchors.length;
    const rotated = [...anchors.slice(shift), ...anchors.slice(0, shift)];
    paragraphs.push(...rotated.map((a, i) => anchorParagraph(a, i, u.answerKind ?? 'entity')));
  } else {
    for (const e of u.anchors.map((a) => a.entity)) {
      paragraphs.push({
        need: `facts about ${e.name}`,
        text: `I cannot tell how ${e.name} relates to the answer. To answer this I need the facts about ${e.name}.`,
      });
    }
  }
  paragraphs.push({ need: null, text: closing(u) });
  return paragraphs;
}

/**
 * The text to write next. Fresh: the whole plan. After injected asides: every
 * paragraph not yet written in full, except those whose need was just searched
 * (the aside answered it); an interrupted paragraph is restarted, as a writer
 * picking up the thread would.
 */
export function continueReasoning(plan: PlanParagraph[], prefix: string): string {
  const searched = new Set([...prefix.matchAll(ASIDE)].map((m) => normaliseOnce(m[1] ?? m[2])));
  const written = prefix.replace(ASIDE, '\u0000');
  return plan
    .filter((p) => !written.includes(p.text) && !(p.need && searched.has(normaliseOnce(p.need))))
    .map((p) => p.text)
    .join('\n\n');
}

/** Whether the evidence holds a triple of the hop's relations at the entity. */
function covers(evidence: EvidenceItem[], nodeId: string, hop: Hop): boolean {
  const relations = new Set(hop.edges.map((e) => e.metaedge));
  const at = (t: TripleData) => relations.has(t.metaedge) && (t.sourceId === nodeId || t.targetId === nodeId);
  return evidence.some((e) => e.triples.some(at));
}

/**
 * A corrector's or refiner's reasoning: it checks the candidate against the
 * evidence it has (the candidate's, and for HSR the references') and states a
 * need for each constraint that evidence leaves uncovered, in the proposers'
 * words, so the monitor can fetch it. A covered candidate raises no need.
 */
export function revisionPlan(u: QuestionReading, evidence: EvidenceItem[], subject: string): PlanParagraph[] {
  const open: PlanParagraph[] = u.propositions.length
    ? u.propositions.filter((p) => !covers(evidence, p.subject.nodeId, p.hop) && !covers(evidence, p.object.nodeId, p.hop)).map(propositionParagraph)
    : u.anchors.filter((a) => a.chain.length && !covers(evidence, a.entity.nodeId, a.chain[0])).map((a, i) => anchorParagraph(a, i, u.answerKind ?? 'entity'));
  const opening = open.length
    ? `Checking ${subject} against its ${evidence.length} evidence record(s): ${open.length} constraint(s) have no evidence yet.`
    : `Checking ${subject} against its ${evidence.length} evidence record(s): every constraint has evidence, so the answer is re-derived from it.`;
  return [{ need: null, text: opening }, ...open, { need: null, text: closing(u) }];
}
