import { z } from 'zod';
import { nameList } from '@/lib/llm/templates/names';
import { optionsBlock, questionShown } from '@/lib/llm/templates/options-block';
import { ANSWER_TEXT, excludedField, optionKeyField } from '@/lib/llm/templates/answer-fields';
import { defineTemplate } from '@/lib/llm/templates';
import { loadedMetagraph } from '@/lib/kg/loaded-metagraph';
import { metaedges } from '@/lib/llm/offline/metaedges';
import type { CandidateEntity } from '@/lib/llm/offline/passages';
import type { QuestionFrame } from './frame';
import type { RefinedGraph } from './graph';
import type { OperatorCheck } from './operator';
import { locatedHops, PlanSchema, SOURCES, type Plan, type PlanHop, type Source } from './plan';
import type { Attempt } from './round';

declare module '@/lib/llm/types' {
  interface RoleRegistry {
    /** BioWeave's controller deciding which hop and source to repair. */
    repair: true;
  }
}

/**
 * BioWeave's roles, with prompts condensed from the paper's Appendix H:
 * question initialisation and source planning, unified evidence graph
 * conversion, LLM-aware evidence selection, source repair and verified answer
 * generation. Query construction, cross-verification, refinement and the
 * operator check are programmatic (the paper's purple and orange modules).
 */

/** The loaded graph's relations, as the planner may name them. */
function relationVocabulary(): string {
  return metaedges()
    .map((m) => `${m.abbr}: ${m.source} – ${m.sourceClause.replace('{x}', m.target)}`)
    .join('\n');
}

function entityLines(entities: { nodeId: string; name: string; kind: string }[]): string {
  return entities.length ? entities.map((e) => `[${e.nodeId}] ${e.name} (${e.kind})`).join('\n') : '(none linked)';
}

/** The question, then its options block when it has one. */
function questionLine(frame: QuestionFrame): string {
  const options = optionsBlock(frame.question, frame.options);
  return `Q: ${questionShown(frame.question, frame.options)}${options ? `\n${options}` : ''}`;
}

/**
 * A hop as the prompts show it: where it starts (the named nodes it starts
 * from, or, past a chain's first hop, the previous hop's answers), the kind it
 * reaches, and each metaedge in its own direction, which may run against the
 * walk from the anchor to the answer.
 */
export function hopLine(hop: PlanHop, from: string | null): string {
  const start = from ? `${from} (${hop.fromKind})` : `each ${hop.fromKind} the previous hop reached`;
  const via = hop.metaedges.map((m) => {
    const info = loadedMetagraph().byAbbr.get(m);
    return info ? `${m} (${info.source} → ${info.target})` : m;
  });
  return `${hop.id}: ${start} → ${hop.toKind} via ${via.join(' | ')}${hop.explicit ? '' : ' (uncertain: chosen by the kinds)'}`;
}

/** Every hop of the plan as the prompts show it: only a chain's first hop (and a claim's) starts at its named entity. */
export function planHopLines(plan: Plan, names: Map<string, string>): string[] {
  return locatedHops(plan).map((h) => hopLine(h.hop, h.index === 0 ? (names.get(h.anchorId) ?? null) : null));
}

export const initTemplate = defineTemplate({
  role: 'decompose',
  id: 'bioweave.init',
  version: 2,
  system:
    'You are a biomedical reasoning planner. Given a question, identify the biomedical mentions, the candidate entities it is about, ' +
    'the expected answer type and kind, the reasoning operator (shared_neighbor, intersection, chain, count, lookup) and the source plan. ' +
    'Write each constraint as typed hops from a candidate entity to the answer, using only the relations listed; write a yes/no ' +
    'question about two entities as a claim. Prefer KG evidence for typed biomedical relations, document evidence for distributed ' +
    'literature support, and web evidence for freshness or missing local coverage. Do not select sources outside the allowed ones. ' +
    'List as missing hops those whose relation the question leaves uncertain.',
  render: (input: { frame: QuestionFrame }) =>
    [
      questionLine(input.frame),
      `Candidate entities (node id, name, kind):\n${entityLines(input.frame.entities)}`,
      ...Object.entries(input.frame.optionLinks).map(([k, links]) => `Entities in option ${k}:\n${entityLines(links)}`),
      `Allowed sources: ${input.frame.enabledSources.join(', ') || '(none)'}`,
      `Attached documents: ${input.frame.attachedDocuments}`,
      `Relations (abbreviation: source kind – relation – target kind):\n${relationVocabulary()}`,
    ].join('\n\n'),
  output: PlanSchema,
});

export interface SpanView {
  spanId: string;
  source: Source;
  text: string;
}

export const ConversionSchema = z.object({
  units: z.array(
    z.object({
      spanId: z.string(),
      entityIds: z.array(z.string()).describe('Node ids of candidate entities the span itself names'),
      predicate: z.string().nullable().describe('The relation phrase as written in the span'),
      relations: z.array(z.string()).describe('Metaedge abbreviations the phrase can mean between the named entities'),
      hop: z.string().nullable().describe('Id of the plan hop the span bears on'),
      negated: z.boolean(),
    }),
  ),
  unused: z.array(z.string()).describe('Span ids that support no hop'),
  notes: z.string(),
});
export type Conversion = z.infer<typeof ConversionSchema>;

export interface ConversionInput {
  question: string;
  plan: Plan;
  hops: string[];
  spans: SpanView[];
  candidates: CandidateEntity[];
}

export const convertTemplate = defineTemplate({
  role: 'extract',
  id: 'bioweave.convert',
  version: 2,
  system:
    'You are a biomedical evidence normalizer. Convert each document or web snippet into graph-compatible evidence units. ' +
    'Use only claims stated in the snippet. Normalize the biomedical entities it names to the candidate entities (by name or alias). ' +
    'Map the relation phrase to the metaedges it can mean between those entities. If a snippet supports no hop, mark it unused. ' +
    'A unit records what the text says; it is not a knowledge-graph fact.',
  render: (input: ConversionInput) =>
    [
      `Q: ${input.question}`,
      `Reasoning operator: ${input.plan.operator}; answer type: ${input.plan.answerType}${input.plan.answerKind ? ` (${input.plan.answerKind})` : ''}`,
      `Target hops: ${input.hops.join(', ') || '(the question as a whole)'}`,
      `Candidate entities:\n${input.candidates.map((c) => `[${c.nodeId}] ${c.name} (${c.kind})${c.aliases?.length ? `; aliases: ${nameList(c.aliases)}` : ''}`).join('\n')}`,
      `Snippets:\n${input.spans.map((s) => `[${s.spanId}] (${s.source}) ${s.text}`).join('\n')}`,
    ].join('\n\n'),
  output: ConversionSchema,
});

export interface CandidateView {
  id: string;
  source: Source;
  text: string;
  sCross: number;
  hops: string[];
  relations: string[];
  kinds: string[];
  operatorConsistent: boolean;
}

export interface SelectionInput {
  question: string;
  plan: Plan;
  hops: string[];
  candidates: CandidateView[];
  k: number;
}

export const SelectionSchema = z.object({
  selected: z.array(z.object({ id: z.string(), reason: z.string() })).describe('At most k candidate ids, most useful first'),
  briefReason: z.string(),
});
export type Selection = z.infer<typeof SelectionSchema>;

export const selectTemplate = defineTemplate({
  role: 'select',
  id: 'bioweave.select',
  version: 3,
  system:
    'You select the evidence units a biomedical answer should rest on. Check source-condition satisfaction, answer-type ' +
    'compatibility, relation consistency and support for the required reasoning operator; every hop of the plan should be covered. ' +
    'Keep at most k units, chosen only from the candidates listed.',
  render: (input: SelectionInput) =>
    [
      `Q: ${input.question}`,
      `Reasoning operator: ${input.plan.operator}; answer type: ${input.plan.answerType}${input.plan.answerKind ? ` (${input.plan.answerKind})` : ''}; k = ${input.k}`,
      `Hops:\n${input.hops.join('\n') || '(the question as a whole)'}`,
      `Candidates (cross-score, source, hops covered, relations):\n${input.candidates
        .map(
          (c) =>
            `[${c.id}] s_cross=${c.sCross.toFixed(3)} ${c.source} hops=${c.hops.join(',') || '-'} relations=${c.relations.join(',') || '-'}${c.operatorConsistent ? ' fits-operator' : ''}\n  ${c.text}`,
        )
        .join('\n')}`,
    ].join('\n\n'),
  output: SelectionSchema,
});

export interface RepairCandidate {
  id: string;
  description: string;
  /** What has been retrieved for the hop: KG reading ('preferred' | 'widened' | 'none'), text queries issued. */
  tried: Attempt;
  canWiden: boolean;
  /** The KG search for the hop hit the raw cap: re-expanding from its frontier may add answers. */
  capped: boolean;
  /** Metaedges between the hop's kinds. */
  relations: string[];
  frontier: string[];
}

export interface RepairInput {
  question: string;
  plan: Plan;
  activeSources: Source[];
  graph: string;
  failedCheck: string;
  candidates: RepairCandidate[];
}

export const RepairSchema = z.object({
  repairNeeded: z.boolean(),
  missingHop: z.string().nullable(),
  targetEntities: z.array(z.string()),
  targetRelation: z.array(z.string()).describe('Metaedges to follow for the missing hop'),
  updatedSourcePlan: z.array(z.enum(SOURCES)),
  retrievalQueries: z.array(z.string()),
  briefReason: z.string(),
});
export type Repair = z.infer<typeof RepairSchema>;

export const repairTemplate = defineTemplate({
  role: 'repair',
  id: 'bioweave.repair',
  version: 3,
  system:
    'You are the BioWeave controller. Given a question, the active source condition, the current evidence graph and the failed ' +
    'reasoning check, decide which hop or source should be repaired. Do not add sources outside the active source condition. ' +
    'Prefer targeted repair: re-query only the missing entity, relation or hop instead of restarting retrieval. If nothing left to ' +
    'try can supply the hop, return repairNeeded=false.',
  render: (input: RepairInput) =>
    [
      `Q: ${input.question}`,
      `Active source condition: ${input.activeSources.join(', ') || '(none)'}`,
      `Reasoning operator: ${input.plan.operator}; answer type: ${input.plan.answerType}`,
      `Current source plan: ${input.plan.sourcePlan.join(', ') || '(none)'}`,
      `Current evidence graph: ${input.graph}`,
      `Failed check: ${input.failedCheck}`,
      `Candidate missing hops:\n${input.candidates
        .map(
          (c) =>
            `${c.id}: ${c.description}; tried kg=${c.tried.kg} (${c.tried.kgRounds} round(s))${c.capped ? ' and hit the raw cap' : ''}, doc queries=${c.tried.doc}, web queries=${c.tried.web}; ` +
            `relations between the kinds: ${c.relations.join(', ') || '-'}; frontier: ${c.frontier.length ? `[${nameList(c.frontier)}]` : '-'}`,
        )
        .join('\n')}`,
    ].join('\n\n'),
  output: RepairSchema,
});

export const AnswerSchema = z.object({
  answer: z.string().describe(`${ANSWER_TEXT}; empty when repair is needed`),
  normalizedAnswer: z.string(),
  optionKey: optionKeyField(),
  items: z.array(z.string()).describe('For list and count answers: the distinct answer entities'),
  excluded: excludedField(),
  count: z.number().int().nullable(),
  supportingSources: z.array(z.enum(SOURCES)),
  evidenceIds: z.array(z.string()),
  claims: z.array(z.object({ text: z.string(), evidenceIds: z.array(z.string()) })),
  needsRepair: z.boolean(),
  missingHop: z.string().nullable(),
  briefReason: z.string(),
});
export type Answer = z.infer<typeof AnswerSchema>;

export interface AnswerInput {
  frame: QuestionFrame;
  plan: Plan;
  graph: RefinedGraph;
  check: OperatorCheck;
  activeSources: Source[];
  /** The KG's verb per metaedge, so edges read "Metformin –treats→ type 2 diabetes mellitus". */
  verbs?: Record<string, string>;
}

function graphBlock(graph: RefinedGraph, verbs: Record<string, string> = {}): string {
  const name = new Map(graph.nodes.map((n) => [n.nodeId, n.name]));
  const edges = graph.edges.map(
    (e) =>
      `${name.get(e.sourceId)} –${verbs[e.metaedge] ?? e.metaedge}→ ${name.get(e.targetId)} [${e.metaedge}; ${e.origin}; sources: ${e.sources.join(', ')}; evidence: ${e.evidenceIds.join(', ')}]`,
  );
  const units = graph.units.filter((u) => u.source !== 'kg').map((u) => `[${u.id}] (${u.source}${u.negated ? ', negated' : ''}) ${u.text}`);
  return [
    `Nodes: ${graph.nodes.map((n) => `${n.name} (${n.kind}; ${n.sources.join(', ')})`).join('; ') || '(none)'}`,
    `Edges:\n${edges.join('\n') || '(none)'}`,
    `Text units:\n${units.join('\n') || '(none)'}`,
  ].join('\n');
}

export const answerTemplate = defineTemplate({
  role: 'answer',
  id: 'bioweave.answer',
  version: 2,
  system:
    'You are the final BioWeave answer generator. Answer only from the refined source-aware evidence graph. Before answering, ' +
    'verify that the evidence satisfies the reasoning operator, expected answer type and active source condition. For multiple-choice ' +
    'questions select the option the graph supports; for open questions give the normalized entity name or set; for counting, count ' +
    'distinct normalized answer entities after alias merging. Cite only evidence ids shown. If the graph does not support a valid ' +
    'answer, return needsRepair=true and name the missing hop instead of guessing.',
  render: (input: AnswerInput) =>
    [
      questionLine(input.frame),
      `Active source condition: ${input.activeSources.join(', ') || '(none)'}`,
      `Reasoning operator: ${input.plan.operator}; answer type: ${input.plan.answerType}${input.plan.answerKind ? ` (${input.plan.answerKind})` : ''}`,
      `Refined evidence graph:\n${graphBlock(input.graph, input.verbs)}`,
      `Operator check: ${input.check.satisfied ? 'satisfied' : 'FAILED'} (${input.check.reason})${input.check.missingHops.length ? `; missing hops: ${input.check.missingHops.join(', ')}` : ''}`,
    ].join('\n\n'),
  output: AnswerSchema,
});
