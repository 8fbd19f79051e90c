import { z } from 'zod';
import { nameList } from '@/lib/llm/templates/names';
import { optionsBlock, questionShown } from '@/lib/llm/templates/options-block';
import { ANSWER_TEXT, excludedField, optionKeyField } from '@/lib/llm/templates/answer-fields';
import type { EntityLink } from '@/lib/kg';
import { RELATION_DOMAINS } from '@/lib/kg/metaedge-categories';
import type { LinkedEntity } from '@/lib/llm/offline/types';
import { defineTemplate } from '@/lib/llm/templates';
import type { EvidenceLine } from '../baselines/evidence';
import { AID_MARK } from '@/lib/channels/aid-names';
import type { TripleData } from '@/lib/trace/types';

/**
 * ReGraM's roles, with the prompts of the paper's Appendix A (Figures 2–9)
 * condensed: domain classification, multi-hop decomposition, hop answers per
 * mode, HYBRID hypothesis generation, the Reviewer (a judge call standing in
 * for the paper's LoRA classifier), triple revision and final synthesis.
 */

declare module '@/lib/llm/types' {
  interface RoleRegistry {
    classify: true;
    revise: true;
  }
}

export type Mode = 'KG-STRICT' | 'HYBRID' | 'LLM-GUESS';

/** The question as every role sees it; the links let the offline engine read it without the KG. */
export interface QuestionFrame {
  question: string;
  options: Record<string, string> | null;
  entities: EntityLink[];
  optionLinks: Record<string, EntityLink[]>;
}

/** An entity of a region (V_q). */
export interface RegionEntity {
  nodeId: string;
  name: string;
  kind: string;
}

/** A triple as roles see it; a hypothesis has no KG edge id. */
export type FactTriple = Omit<TripleData, 'edgeId'> & { edgeId: number | null };

/** A region fact or an accepted hypothesis, cited by its evidence id. */
export interface Fact {
  id: string;
  text: string;
  triple: FactTriple;
}

/**
 * The closed world's absence: a pair of the hop's linked nodes whose own edges
 * T_cand holds whole (read beyond the hub cap), and the relations it has none
 * of. What a "no" on a claim about the pair rests on.
 */
export interface AbsenceFact {
  id: string;
  text: string;
  fromId: string;
  toId: string;
  /** null: no edge of any relation. */
  metaedges: string[] | null;
}

/** A relation of the schema set R: metaedges joining kinds present in the region. */
export interface AllowedRelation {
  metaedge: string;
  verb: string;
  sourceKind: string;
  targetKind: string;
}

/** An earlier hop as later hops see it (the context C of Algorithm 1). */
export interface HopMemory {
  hop: number;
  question: string;
  mode: Mode;
  answer: string;
  items: RegionEntity[];
  abstained: boolean;
}

/** One hop question with its linked mentions and the earlier hops. */
export interface HopQuestion {
  hop: number;
  question: string;
  /** Mentions linked in the hop question (offsets into it). */
  links: LinkedEntity[];
  /** The earlier hop whose answers this hop starts from. */
  prior: HopMemory | null;
  context: HopMemory[];
  /** Candidate triples the region was selected from, so a cut list says so. */
  candidates?: number;
  /** Per relation at the hop's linked nodes, the edges the KG holds and how many the region shows (exact, from the KG). */
  totals?: string[];
}

export interface ProposedTriple {
  head: string;
  relation: string;
  tail: string;
}

/** What the Reviewer's programmatic check found, shown to the judge. */
export interface ProgrammaticCheck {
  headInRegion: boolean;
  tailInRegion: boolean;
  relationAllowed: boolean;
  /** The relation joins the head's and tail's kinds in this direction. */
  kindsFit: boolean;
  /** Whether the KG holds the edge; null when it could not be checked. */
  inKg: boolean | null;
  /** A region fact states it already. */
  inRegion: boolean;
}

export interface EvidenceMapEntry {
  hop: number;
  question: string;
  mode: Mode;
  answer: string;
  items: RegionEntity[];
  abstained: boolean;
  facts: Fact[];
  hypotheses: Fact[];
  absences: AbsenceFact[];
}

const TripleSchema = z.object({ head: z.string(), relation: z.string(), tail: z.string() });

export const HopAnswerSchema = z.object({
  answer: z.string().describe('The sub-answer in one sentence or a short list; empty when abstaining'),
  items: z.array(z.string()).describe('Each entity the sub-answer names, exactly as the facts name it'),
  evidenceIds: z.array(z.string()).describe('Ids of the facts the sub-answer rests on'),
  abstain: z.boolean(),
  rationale: z.string(),
});
export type HopAnswer = z.infer<typeof HopAnswerSchema>;

export const FinalAnswerSchema = z.object({
  answer: z.string().describe(ANSWER_TEXT),
  optionKey: optionKeyField(),
  items: z.array(z.string()).describe('For list answers: one name per item'),
  excluded: excludedField(),
  count: z.number().int().nullable().describe('For counting questions: the number'),
  abstain: z.boolean(),
  rationale: z.string(),
  claims: z.array(z.object({ text: z.string(), evidenceIds: z.array(z.string()) })).describe('Each claim with the ids of the evidence that states it'),
});
export type FinalAnswer = z.infer<typeof FinalAnswerSchema>;

const entityLine = (e: { name: string; kind: string }) => `${e.name} (${e.kind})`;

function factsBlock(facts: Pick<Fact, 'id' | 'text'>[], empty = '(none)'): string {
  return facts.length ? facts.map((f) => `[${f.id}] ${f.text}`).join('\n') : empty;
}

/** The region's absences, under their own heading; nothing when there are none. */
function absencesBlock(absences: AbsenceFact[] | undefined): string {
  return absences?.length ? `\n\nAbsent from the KG (pairs of the hop's entities whose own edges were read whole):\n${factsBlock(absences)}` : '';
}

/**
 * " (showing 15 of the 143 candidate triples retrieved for this hop: …)" when the region is a cut of its candidates.
 * The candidates are themselves capped per linked node, so their number is no total of what the KG holds.
 */
function shownOf(input: { hop: HopQuestion; facts: Fact[] }): string {
  const n = input.hop.candidates;
  if (!n || n <= input.facts.length) return '';
  const totals = input.hop.totals?.length ? `; the KG holds, per relation at the hop's entities (exact counts): ${input.hop.totals.join('; ')}` : '';
  return ` (showing ${input.facts.length} of the ${n} candidate triples retrieved for this hop: not a complete list${totals ? '' : `, and the KG may hold more than ${n}`}${totals})`;
}

/**
 * A hop's answer as later prompts show it: the answerer's text, then the entities it names joined by a separator no
 * name holds, since the text joins names with commas and names may hold them ("Jaundice, Obstructive").
 */
function hopAnswerLines(h: { answer: string; items: RegionEntity[]; abstained: boolean }, label: string): string {
  if (h.abstained) return `  ${label}: (no answer)`;
  const names = [...new Set(h.items.map((e) => e.name))];
  return `  ${label}: ${h.answer}${names.length ? `\n  Its ${names.length} entit${names.length === 1 ? 'y' : 'ies'}: ${nameList(names)}` : ''}`;
}

function contextBlock(context: HopMemory[]): string | null {
  if (!context.length) return null;
  const lines = context.map((c) => `Hop ${c.hop} (${c.mode}): ${c.question}\n${hopAnswerLines(c, 'Answer')}`);
  return `Earlier hops:\n${lines.join('\n')}`;
}

/**
 * The sub-question, and for a hop built on an earlier one what its "these" names: two hops may read alike
 * ("Which genes regulate these genes?" twice in a chain), and only the hop they start from tells them apart.
 */
function hopBlock(hop: HopQuestion): string {
  const names = hop.prior ? [...new Set(hop.prior.items.map((e) => e.name))] : [];
  const these = hop.prior
    ? `\n"These" in the sub-question: the ${names.length} entit${names.length === 1 ? 'y' : 'ies'} of hop ${hop.prior.hop}'s answer${names.length ? ` (${nameList(names)})` : ''}`
    : '';
  return [contextBlock(hop.context), `Sub-question (hop ${hop.hop}): ${hop.question}${these}`].filter(Boolean).join('\n\n');
}

function tripleLine(t: ProposedTriple): string {
  return `(${t.head}, ${t.relation}, ${t.tail})`;
}

function relationsBlock(relations: AllowedRelation[]): string {
  return relations.map((r) => `${r.metaedge}: ${r.sourceKind} ${r.verb} ${r.targetKind}`).join('\n');
}

export const classifyTemplate = defineTemplate({
  role: 'classify',
  id: 'regram.classify',
  version: 2,
  system:
    'You are an expert biomedical query classifier. Choose the single most relevant category for the query; it may span several domains, ' +
    'so select the one that best represents its main thrust. GENE_PROTEIN: genes, proteins, interactions, expression. ' +
    'DRUG_THERAPY: drugs, therapies, treatments, side effects, indications. DISEASE_SYMPTOM: diseases, symptoms, phenotypes, diagnoses. ' +
    'PATHWAY_METABOLISM: pathways, metabolism or processes. INTEGRATED: complex questions spanning several categories.',
  render: (input: { frame: QuestionFrame }) =>
    [
      `Query: ${questionShown(input.frame.question, input.frame.options)}`,
      optionsBlock(input.frame.question, input.frame.options),
      `Entities recognised: ${input.frame.entities.length ? input.frame.entities.map(entityLine).join('; ') : '(none)'}`,
    ]
      .filter(Boolean)
      .join('\n\n'),
  output: z.object({ category: z.enum(RELATION_DOMAINS), reason: z.string() }),
});

export const decomposeTemplate = defineTemplate({
  role: 'decompose',
  id: 'regram.decompose',
  version: 3,
  // The paper's prompt says "up to three"; the hop limit is the run's maxHops, stated once, in the user message.
  system:
    'You are a world-class medical reasoning engine. Decompose a complex medical question into logical, answerable ' +
    'sub-questions (hops), no more than the hop limit given, each about the entities and one relation. First give your analysis, then the hops. ' +
    'A hop that works on the answers of an earlier hop refers to them as "these <kind>" and names that hop in usesHop. ' +
    'Example: "What drug that targets the FLT4 gene also suppresses inflammation?" Analysis: the primary entity is FLT4; ' +
    'the secondary condition is inflammation; the task is to find a drug connecting them. Hops: ' +
    '"Which compounds bind FLT4?" (usesHop null); "Which of these compounds treat inflammation?" (usesHop 1).',
  render: (input: { frame: QuestionFrame; maxHops: number }) =>
    [
      `User query: ${questionShown(input.frame.question, input.frame.options)}`,
      optionsBlock(input.frame.question, input.frame.options),
      `Hop limit: at most ${input.maxHops} hop${input.maxHops === 1 ? '' : 's'}.`,
    ]
      .filter(Boolean)
      .join('\n\n'),
  output: z.object({
    analysis: z.string(),
    hops: z.array(
      z.object({
        question: z.string().min(1),
        usesHop: z.number().int().min(1).nullable().describe('The earlier hop (1-based) whose answers this hop starts from, or null'),
      }),
    ),
  }),
});

export const answerStrictTemplate = defineTemplate({
  role: 'answer',
  id: 'regram.answer-kg-strict',
  version: 3,
  system:
    'You are an expert medical reasoner. Based ONLY on the Verified Facts, give a direct, concise answer to the sub-question. ' +
    'Name only entities that appear in the facts and cite the ids of the facts you use. If the facts do not answer it, abstain.',
  render: (input: { hop: HopQuestion; facts: Fact[]; absences?: AbsenceFact[] }) =>
    `${hopBlock(input.hop)}\n\nVerified Facts${shownOf(input)}:\n${factsBlock(input.facts)}${absencesBlock(input.absences)}`,
  output: HopAnswerSchema,
});

export const answerHybridTemplate = defineTemplate({
  role: 'answer',
  id: 'regram.answer-hybrid',
  version: 3,
  system:
    'You are a knowledgeable analyst. Derive the answer to the sub-question by reasoning step by step over the verified facts ' +
    '(KG facts and Reviewer-accepted hypotheses): Fact, Fact, Connection, then a one-sentence answer. Name only entities that appear ' +
    'in the facts and cite the ids you use. If the facts do not answer it, abstain.',
  render: (input: { hop: HopQuestion; facts: Fact[]; hypotheses: Fact[]; absences?: AbsenceFact[] }) =>
    `${hopBlock(input.hop)}\n\nVerified Facts${shownOf(input)}:\n${factsBlock(input.facts)}${absencesBlock(input.absences)}\n\nAccepted hypotheses:\n${factsBlock(input.hypotheses)}`,
  output: HopAnswerSchema,
});

export const answerGuessTemplate = defineTemplate({
  role: 'answer',
  id: 'regram.answer-llm-guess',
  version: 3,
  system:
    'You are an expert biomedical researcher. No specific facts were found in the knowledge graph for this sub-question. ' +
    'Based on general knowledge, give a plausible answer beginning with "Based on general knowledge". If you do not know, abstain. ' +
    'There are no facts to cite.',
  render: (input: { hop: HopQuestion }) => hopBlock(input.hop),
  output: HopAnswerSchema,
});

export const hypothesizeTemplate = defineTemplate({
  role: 'hypothesize',
  id: 'regram.hypothesize',
  version: 3,
  system:
    'You are a cautious biomedical reasoning expert. Generate triples that would help answer the sub-question. Rules: use the Known ' +
    'Facts; where they are insufficient, propose general, plausible triples; do not invent entities or overly specific relations; ' +
    'every head and tail must be one of the Region entities and every relation one of the Allowed relations (give its code).',
  render: (input: { hop: HopQuestion; facts: Fact[]; entities: RegionEntity[]; relations: AllowedRelation[]; max: number; background: boolean }) =>
    [
      hopBlock(input.hop),
      `Known Facts (from the KG):\n${factsBlock(input.facts)}`,
      `Region entities:\n${input.entities.map(entityLine).join('\n')}`,
      `Allowed relations:\n${relationsBlock(input.relations)}`,
      input.background ? null : 'Do not use background knowledge: propose only triples the facts and the schema make plausible.',
      `At most ${input.max} triples.`,
    ]
      .filter(Boolean)
      .join('\n\n'),
  output: z.object({ triples: z.array(TripleSchema) }),
});

export const reviewTemplate = defineTemplate({
  role: 'judge',
  id: 'regram.review',
  version: 2,
  system:
    'You are the Reviewer of hypothesised knowledge-graph triples. Score how likely the triple is a valid, useful fact for the ' +
    'sub-question, from 0 (invalid) to 1 (certainly valid); 0.5 or more accepts it. A programmatic check of the region, the schema ' +
    'and the knowledge graph is given; a triple outside the region or the schema is invalid.',
  render: (input: { question: string; triple: ProposedTriple; facts: Fact[]; check: ProgrammaticCheck }) =>
    [
      `Sub-question: ${input.question}`,
      `Triple: ${tripleLine(input.triple)}`,
      `Region facts:\n${factsBlock(input.facts)}`,
      `Programmatic check: ${JSON.stringify(input.check)}`,
    ].join('\n\n'),
  output: z.object({ score: z.number().min(0).max(1), reason: z.string() }),
});

export const reviseTemplate = defineTemplate({
  role: 'revise',
  id: 'regram.revise',
  version: 2,
  system:
    'You are a fact-checker correcting a triple the Reviewer rejected. The relation MUST be one of the allowed relations (give its code) ' +
    'and the head and tail must be region entities. Correct semantic or schema errors; give null when it cannot be corrected.',
  render: (input: {
    question: string;
    triple: ProposedTriple;
    rejection: string;
    relations: AllowedRelation[];
    entities: RegionEntity[];
    tried: ProposedTriple[];
  }) =>
    [
      `Question (context): ${input.question}`,
      `Triple: ${tripleLine(input.triple)}`,
      `Reviewer: ${input.rejection}`,
      `Allowed relations:\n${relationsBlock(input.relations)}`,
      `Region entities:\n${input.entities.map(entityLine).join('\n')}`,
      input.tried.length > 1 ? `Already rejected: ${input.tried.map(tripleLine).join('; ')}` : null,
    ]
      .filter(Boolean)
      .join('\n\n'),
  output: z.object({ revised: TripleSchema.nullable(), note: z.string() }),
});

export const synthesizeTemplate = defineTemplate({
  role: 'synthesize',
  id: 'regram.synthesize',
  version: 4,
  system:
    'You are a lead researcher writing the final, conclusive answer. Synthesize the reasoning in the Evidence Map to answer the ' +
    'Original Question. Cite only evidence ids listed in the map (or in a Hopscope aid block, when one is given). Where a hop answered from general knowledge, say so; ' +
    'if the map supports no answer, abstain. For multiple choice, put the letter in optionKey.',
  render: (input: { frame: QuestionFrame; map: EvidenceMapEntry[]; answerSet?: EvidenceLine[] }) =>
    [
      `Original Question: ${questionShown(input.frame.question, input.frame.options)}`,
      optionsBlock(input.frame.question, input.frame.options),
      input.answerSet?.length
        ? `${AID_MARK}: complete answer set from the KG, outside the hops' regions, for the question as Hopscope's reader reads it (one unit: every node meeting all the question's relations as read):\n${factsBlock(input.answerSet)}`
        : null,
      `Evidence Map:\n${input.map
        .map((e) =>
          [
            `Hop ${e.hop} (${e.mode}): ${e.question}`,
            hopAnswerLines(e, 'Sub-answer'),
            ...[...e.facts, ...e.hypotheses, ...(e.absences ?? [])].map((f) => `  [${f.id}] ${f.text}`),
          ].join('\n'),
        )
        .join('\n')}`,
    ]
      .filter(Boolean)
      .join('\n\n'),
  output: FinalAnswerSchema,
});
