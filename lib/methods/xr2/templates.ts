import { z } from 'zod';
import { optionsBlock, questionShown } from '@/lib/llm/templates/options-block';
import { ANSWER_TEXT, excludedField, optionKeyField } from '@/lib/llm/templates/answer-fields';
import { defineTemplate } from '@/lib/llm/templates';
import { metaedges } from '@/lib/llm/offline/metaedges';
import type { LinkedEntity } from '@/lib/llm/offline/types';
import { linesBlock, type EvidenceLine } from '../baselines/evidence';
import { OPTION_TESTS_TITLE } from '../baselines/templates';
import { entityList, questionBlock, type QuestionFrame } from '../baselines/frame';
import { AID_MARK } from '@/lib/channels/aid-names';

/**
 * X-R2's roles (xr2.txt §4.1, METHODS.md §2): Decompose(Q, D, A_{t−1}),
 * Extract(Q_t, D), Reason(Q_t, D, E_t, R_t, KG_t, M_t) and Check(A_t, Q, D).
 * RetrieveKG is code, not a role; RecallParametric is the param channel's recall.
 */

/** The question with its document evidence D, as every role sees it. */
export interface Xr2Frame extends QuestionFrame {
  documents: EvidenceLine[];
  /** Aid `option-tests` (none with the aids off): the KG edges joining each MCQ option to an entity the stem names. */
  optionTests: EvidenceLine[];
}

export const DecompositionSchema = z.object({
  subquestions: z.array(z.string()).describe('The question broken into step questions, in order'),
  constraints: z.array(z.string()).describe('Conditions the answer must meet'),
  required_evidence: z.array(z.string()).describe('Evidence still needed to answer'),
  current: z.string().min(1).describe('The step question to work on now (Q_t)'),
});
export type Decomposition = z.infer<typeof DecompositionSchema>;

export const OUTPUT_FORMATS = ['single', 'list', 'count', 'option', 'yesno'] as const;

export const ExtractionSchema = z.object({
  entities: z
    .array(z.object({ mention: z.string().min(1), kind: z.string().nullable() }))
    .describe('Entities the step question is about, as written in it, with their KG node kind'),
  relations: z
    .array(
      z.object({
        entity: z.string().describe('The mention this relation starts from'),
        metaedges: z.array(z.string()).describe('KG relation abbreviations that express it'),
        direction: z.enum(['out', 'in', 'both']).describe("'out' when the entity is the relation's source"),
        targetKind: z.string().nullable().describe('Kind of node the relation leads to'),
        cue: z.string().nullable().describe('The words of the question that name the relation'),
        negated: z.boolean().describe('True when the answer must NOT have this relation'),
      }),
    )
    .describe('Relation cues: which relation each entity constrains the answer by'),
  answerKind: z.string().nullable(),
  outputFormat: z.enum(OUTPUT_FORMATS),
  constraints: z
    .array(z.object({ type: z.enum(['negation', 'comparison', 'count', 'shared', 'condition', 'attribute', 'option']), text: z.string() }))
    .describe('Conditions, required attributes, comparison operators and the output format, in words'),
});
export type Extraction = z.infer<typeof ExtractionSchema>;

export const ReasonSchema = z.object({
  answer: z
    .array(z.string())
    .describe(
      "The full answer to the original question as a list: names, one number or yes/no (for multiple choice: the chosen option's text); empty when abstaining",
    ),
  optionKey: optionKeyField(),
  excluded: excludedField(),
  count: z.number().int().nullable().describe('For counting questions: the number'),
  abstain: z.boolean(),
  rationale: z.string(),
  claims: z
    .array(z.object({ text: z.string(), evidenceIds: z.array(z.string()) }))
    .describe('Each claim with the ids (K…, D…, E…, W…, A…; P… only for a claim taken from unverified memory) of the lines that state it'),
  evidenceIds: z.array(z.string()).describe('Every evidence id the answer used (K…, D…, E…, W…, A…)'),
});
export type ReasonOutput = z.infer<typeof ReasonSchema>;

export const CheckSchema = z.object({
  stop: z.boolean().describe('True to return this answer now'),
  sufficient: z.boolean().describe('The evidence covers every constraint of the question'),
  consistent: z.boolean().describe('The answer agrees with the evidence and the question'),
  reason: z.string(),
  missing: z.array(z.string()).describe('What is still missing or wrong, for the next decomposition'),
});
export type CheckOutput = z.infer<typeof CheckSchema>;

/** What the last iteration left: A_{t−1} and the check that judged it. */
export interface PreviousStep {
  t: number;
  current: string;
  answer: ReasonOutput;
  check: CheckOutput;
  /** KG candidates of that step ranked below the top K with the best coverage of the step entities. */
  unexamined: number;
}

/** A KG triple, or the triples joining several step entities through a shared node, shown as one unit of KG_t. */
export interface KgUnit {
  lines: EvidenceLine[];
}

/** A step entity: a mention of the step question linked to a KG node through the entity channel. */
export type StepEntity = LinkedEntity;

function dBlock(frame: Xr2Frame): string {
  return `Document evidence D:\n${linesBlock(frame.documents)}`;
}

function answerBlock(a: ReasonOutput): string {
  return a.abstain ? '(abstained)' : `${a.answer.join('; ')}${a.optionKey ? ` (option ${a.optionKey})` : ''}`;
}

/** "Compound –treats→ multiple sclerosis": a relation cue in the metaedge's direction, with its KG verb. */
export function cueText(r: Extraction['relations'][number], verbs: Map<string, string>): string {
  const verb = [...new Set(r.metaedges.map((m) => verbs.get(m) ?? m))].join(' / ') || '?';
  const other = r.targetKind ?? '?';
  const [from, to] = r.direction === 'in' ? [other, r.entity] : [r.entity, other];
  return `${r.negated ? 'NOT ' : ''}${from} –${verb}→ ${to}${r.metaedges.length ? ` [${r.metaedges.join('|')}]` : ''}${r.cue ? ` ("${r.cue}")` : ''}`;
}

/**
 * One line per KG line, so the lines match the header's counts; the further triples of a unit joined through a shared
 * node are indented under its first.
 */
function kgBlock(units: KgUnit[]): string {
  return units.length ? units.map((u) => u.lines.map((l) => `[${l.id}] ${l.text}`).join('\n    ')).join('\n') : '(none)';
}

/** The loaded graph's relations, as the decomposer may name them. */
function relations(): string {
  return metaedges()
    .map((m) => `${m.abbr}: ${m.source} → ${m.target} ("${m.sourceClause.replace('{x}', m.target.toLowerCase())}")`)
    .join('; ');
}

export interface DecomposeInput {
  frame: Xr2Frame;
  t: number;
  tMax: number;
  previous: PreviousStep | null;
  /** Findings of earlier steps: every line an earlier answer cited, then the most recent up to the cap. */
  established: EvidenceLine[];
  establishedOmitted: number;
}

export const decomposeTemplate = defineTemplate({
  role: 'decompose',
  id: 'xr2.decompose',
  version: 3,
  system:
    'You decompose a biomedical research question into step questions (decomposition is mandatory). Give the sub-questions, the ' +
    'constraints the answer must meet, the evidence required, and `current`: the step question to work on now. When a previous ' +
    'answer and its self-check are given, re-decompose: make `current` the follow-up question that closes the gap the check names.',
  render: (input: DecomposeInput) =>
    [
      questionBlock(input.frame),
      dBlock(input.frame),
      // Each line says which iteration it comes from: the previous check's own words may name its iteration, never this one.
      input.previous
        ? [
            `Iteration ${input.t} of at most ${input.tMax}: re-decompose.`,
            `Step question of iteration ${input.previous.t}: ${input.previous.current}`,
            `Answer A_${input.previous.t} (iteration ${input.previous.t}): ${answerBlock(input.previous.answer)}`,
            `Self-check of A_${input.previous.t} (iteration ${input.previous.t}): ${input.previous.check.reason}`,
            `Missing after iteration ${input.previous.t}: ${input.previous.check.missing.length ? input.previous.check.missing.join('; ') : '(nothing named)'}`,
            establishedBlock(input),
          ].join('\n')
        : `Iteration 1 of at most ${input.tMax}: decompose the question.`,
    ].join('\n\n'),
  output: DecompositionSchema,
});

export interface ExtractInput {
  frame: Xr2Frame;
  current: string;
  /** Mentions of the step question the entity channel linked to KG nodes. */
  recognised: LinkedEntity[];
}

export const extractTemplate = defineTemplate({
  role: 'extract',
  id: 'xr2.extract',
  version: 3,
  system:
    'You extract, for one step question, the entities it is about (as written, with their kind) and the relation and constraint cues: ' +
    'which KG relation links each entity to the answer (direction, target kind), conditions, required attributes, comparison ' +
    'operators and the output format. The KG relations are listed with the question.',
  render: (input: ExtractInput) =>
    [
      `Step question Q_t: ${input.current}`,
      `Original question: ${questionShown(input.frame.question, input.frame.options)}`,
      optionsBlock(input.frame.question, input.frame.options),
      `Mentions the entity linker recognised in Q_t: ${entityList(input.recognised)}`,
      `KG relations: ${relations()}.`,
      dBlock(input.frame),
    ]
      .filter(Boolean)
      .join('\n\n'),
  output: ExtractionSchema,
});

export interface ReasonInput {
  frame: Xr2Frame;
  t: number;
  current: string;
  entities: StepEntity[];
  relations: Extraction['relations'];
  constraints: Extraction['constraints'];
  /** KG_t: this step's units, exactly K triples. */
  kg: KgUnit[];
  /** How much of the ranked candidates KG_t shows. */
  kgShown: string;
  /** Per relation of R_t at each step entity: the edges the KG holds, and how many KG_t shows. */
  kgTotals: string[];
  /** Complete answer sets (the question's, earlier steps', this step's), each one unit. */
  answerSet: EvidenceLine[];
  /** R_t as written for the model, each in its metaedge's direction. */
  cues: string[];
  /** Entity profiles of E_t. */
  profiles: EvidenceLine[];
  /** M_t: parametric claims, kept apart from KG and document evidence. */
  claims: EvidenceLine[];
  /** Findings of earlier steps: every line an earlier answer cited, then the most recent up to the cap. */
  established: EvidenceLine[];
  /** Earlier findings left out by the cap. */
  establishedOmitted: number;
  previous: ReasonOutput | null;
  /** The `param` switch: may background knowledge be used? */
  background: boolean;
}

/** Every evidence line a reason call is shown; unverified memory (`claims`) is apart. */
export function evidenceOf(input: ReasonInput): EvidenceLine[] {
  return [
    ...input.frame.documents,
    ...input.frame.optionTests,
    ...input.answerSet,
    ...input.kg.flatMap((u) => u.lines),
    ...input.established,
    ...input.profiles,
  ];
}

/** Every line a reason call is shown, memory included. */
export function linesOf(input: ReasonInput): EvidenceLine[] {
  return [...evidenceOf(input), ...input.claims];
}

/** The exact size of each relation KG_t is cut from, read from the KG: a count needs no paging. */
function totalsLine(totals: string[]): string {
  return totals.length ? `Edges the KG holds per relation of R_t (exact counts): ${totals.join('; ')}\n` : '';
}

function establishedBlock(input: { established: EvidenceLine[]; establishedOmitted: number }): string {
  const omitted = input.establishedOmitted ? ` (showing ${input.established.length} of ${input.established.length + input.establishedOmitted})` : '';
  return `Established in earlier steps${omitted}:\n${linesBlock(input.established)}`;
}

export const reasonTemplate = defineTemplate({
  role: 'reason',
  id: 'xr2.reason',
  version: 6,
  system:
    'You answer the ORIGINAL question in full, as a list, from the step context: document evidence, step entities and relation cues, ' +
    "this step's KG triples, findings established in " +
    'earlier steps, entity profiles and (when given) unverified memory, which is not evidence and is kept apart. A list marked ' +
    '"showing n of m" is cut: do not count it as complete. Cite the ids of the lines you use (K…, D…, E…, W…, A… for a Hopscope aid line; a P… id only for a claim ' +
    'taken from memory); never cite an id that is not listed. If the evidence does not support an answer yet, abstain.',
  render: (input: ReasonInput) =>
    [
      questionBlock(input.frame),
      `Iteration ${input.t}. Step question Q_t: ${input.current}`,
      `Step entities E_t: ${entityList(input.entities)}`,
      `Relation cues R_t: ${input.cues.join('; ') || '(none)'}`,
      input.constraints.length ? `Constraints: ${input.constraints.map((c) => `${c.type}: ${c.text}`).join('; ')}` : null,
      dBlock(input.frame),
      input.answerSet.length
        ? `${AID_MARK}: complete answer set from the KG (one unit: every node meeting the relations as read):\n${linesBlock(input.answerSet)}`
        : null,
      input.frame.optionTests.length ? `${OPTION_TESTS_TITLE}:\n${linesBlock(input.frame.optionTests)}` : null,
      `KG triples of this step KG_t (${input.kgShown}):\n${totalsLine(input.kgTotals)}${kgBlock(input.kg)}`,
      establishedBlock(input),
      `Entity profiles:\n${linesBlock(input.profiles)}`,
      input.background
        ? `Unverified memory M_t (the model's own recall, NOT evidence; cite a P id only for a claim taken from it):\n${linesBlock(input.claims)}`
        : 'Do not use background knowledge: answer only from the evidence above.',
      input.previous ? `Previous answer: ${answerBlock(input.previous)}` : null,
    ]
      .filter(Boolean)
      .join('\n\n'),
  output: ReasonSchema,
});

export interface CheckInput {
  frame: Xr2Frame;
  t: number;
  tMax: number;
  answer: ReasonOutput;
  /** Every evidence line the answer could draw on. */
  evidence: EvidenceLine[];
  /** Unverified memory it was also shown, apart from the evidence. */
  memory: EvidenceLine[];
  /** KG candidates ranked below the top K with the best coverage of the step entities, not yet examined (0 unless `completeness`). */
  unexamined: number;
  /** Aid `completeness-notice`: whether the check is told `unexamined` (docs/aids.md). */
  completeness: boolean;
  /** How much of the ranked candidates KG_t showed ("showing 5 of 200 ranked candidate triples"). */
  kgShown: string;
  /** Per relation of R_t at each step entity: the edges the KG holds, and how many KG_t showed. */
  kgTotals: string[];
  /** Evidence lines this step added that no earlier step had shown. */
  newEvidence: number;
  /** Memory lines (unverified claims) this step added, counted apart from the evidence. */
  newMemory: number;
}

/** What this step added, as the lines above show it: evidence and memory counted apart. */
function newLines(input: CheckInput): string {
  return `New this step: ${input.newEvidence} evidence line(s)${input.newMemory ? ` and ${input.newMemory} memory line(s)` : ''}.`;
}

export const checkTemplate = defineTemplate({
  role: 'check',
  id: 'xr2.check',
  version: 4,
  system:
    'You self-check an answer to a biomedical question: is it sufficient (the evidence covers every constraint and, for list or count ' +
    'questions, every candidate) and consistent (it follows from the evidence and fits the question and the documents)? Say stop to ' +
    'return it; otherwise name what is missing, so the question can be re-decomposed. Stop without an answer when nothing new can be found.',
  render: (input: CheckInput) =>
    [
      questionBlock(input.frame),
      `Iteration ${input.t} of at most ${input.tMax}. Answer A_${input.t}: ${answerBlock(input.answer)}`,
      `Rationale: ${input.answer.rationale}`,
      `Evidence the answer could draw on:\n${linesBlock(input.evidence)}`,
      input.memory.length ? `Unverified memory it was also shown (not evidence):\n${linesBlock(input.memory)}` : null,
      input.completeness
        ? `KG triples this step: ${input.kgShown}; ${AID_MARK}: of those not shown, ${input.unexamined} match the step entities as fully as the ones shown ` +
          `(the rest cover fewer of them). ${newLines(input)}`
        : `KG triples this step: ${input.kgShown}. ${newLines(input)}`,
      input.kgTotals.length ? totalsLine(input.kgTotals).trimEnd() : null,
    ]
      .filter(Boolean)
      .join('\n\n'),
  output: CheckSchema,
});
