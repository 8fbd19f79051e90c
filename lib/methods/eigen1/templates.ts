import { z } from 'zod';
import { optionsBlock, questionShown } from '@/lib/llm/templates/options-block';
import { ANSWER_TEXT, excludedField, optionKeyField } from '@/lib/llm/templates/answer-fields';
import { defineTemplate } from '@/lib/llm/templates';
import type { LinkedEntity } from '@/lib/llm/offline/types';
import type { TripleData } from '@/lib/trace/types';

/**
 * EIGEN-1's roles, with prompts condensed from the paper's appendix (A.2):
 * the RAG monitor, querier and injector of monitored generation, then the
 * proposer, corrector, HSR refiner, QAIR evaluator and ranker.
 */

/** The question as every role sees it; the linked entities let the offline engine read it without the KG. */
export interface QuestionFrame {
  question: string;
  options: Record<string, string> | null;
  entities: LinkedEntity[];
  optionLinks: Record<string, LinkedEntity[]>;
  /** Passages of the documents attached to the question. */
  context: EvidenceItem[];
  /** Explicit RAG (monitor off): the question's retrieval, put in every prompt before any reasoning. */
  retrieved: EvidenceItem[];
}

/** One retrieved record as a role sees it: the text, and for KG records the structured triple(s) behind it. */
export interface EvidenceItem {
  id: string;
  text: string;
  triples: TripleData[];
}

export const SolutionSchema = z.object({
  answer: z.string().describe(ANSWER_TEXT),
  optionKey: optionKeyField(),
  items: z.array(z.string()).describe('For list answers: one name per item'),
  excluded: excludedField(),
  count: z.number().int().nullable().describe('For counting questions: the number'),
  abstain: z.boolean(),
  rationale: z
    .string()
    .describe(
      'The reasoning that leads to the answer, citing evidence ids. It stands on its own: about the problem and its evidence only, ' +
        'never about an anchor, other solutions, a suggestion or what was revised (later judges read it without them)',
    ),
  claims: z
    .array(z.object({ text: z.string(), evidenceIds: z.array(z.string()) }))
    .describe('Each claim the answer rests on, with the ids of the evidence that states it'),
});
export type Solution = z.infer<typeof SolutionSchema>;

/** A candidate solution as shown to another role. */
export interface SolutionView {
  solution: Solution;
  evidence: EvidenceItem[];
}

const entityList = (entities: LinkedEntity[]) => (entities.length ? entities.map((e) => `${e.name} (${e.kind})`).join('; ') : '(none linked)');

/**
 * Blocks rendered once per object: every role call of a run renders the same frame, and a candidate's evidence list goes
 * into its correction, its refinement, every peer's refinement and its evaluation. Frames and evidence lists are never
 * changed once made (a revision makes new ones).
 */
const rendered = new WeakMap<object, string>();
const renderedOnce = <T extends object>(value: T, render: (value: T) => string): string => {
  let text = rendered.get(value);
  if (text === undefined) rendered.set(value, (text = render(value)));
  return text;
};

function frameBlock(frame: QuestionFrame): string {
  return renderedOnce(frame, renderFrame);
}

function renderFrame(frame: QuestionFrame): string {
  const block = optionsBlock(frame.question, frame.options);
  const options = block ? `\n\n${block}` : '';
  const context = frame.context.length ? `\n\nContext:\n${evidenceBlock(frame.context)}` : '';
  const retrieved = frame.retrieved.length ? `\n\nRetrieved for the problem before reasoning (explicit RAG):\n${evidenceBlock(frame.retrieved)}` : '';
  return `Problem: ${questionShown(frame.question, frame.options)}${options}${context}${retrieved}\n\nEntities recognised in the problem: ${entityList(frame.entities)}`;
}

function evidenceBlock(evidence: EvidenceItem[]): string {
  return evidence.length ? renderedOnce(evidence, (list) => list.map((e) => `[${e.id}] ${e.text}`).join('\n')) : '(none)';
}

function solutionBlock(view: SolutionView): string {
  const s = view.solution;
  return [`Answer: ${s.abstain ? '(abstained)' : s.answer}`, `Rationale: ${s.rationale}`, `Evidence it rests on:\n${evidenceBlock(view.evidence)}`].join('\n');
}

export const generateTemplate = defineTemplate({
  role: 'generate',
  id: 'eigen1.generate',
  version: 3,
  system:
    'You are a careful biomedical reasoner solving a problem step by step in plain prose. ' +
    'Where you are unsure of a fact (which entities a relation connects, the members of a set, a number), say plainly what you need ' +
    'instead of guessing; relevant facts may be added to your reasoning as you write. ' +
    "If the problem lists options, consider each option in turn: say how it would relate to the problem's entities and what you need to know to accept or reject it. " +
    'Finish with a line "Answer: <answer>".',
  render: (input: { frame: QuestionFrame; proposer: number; proposers: number }) =>
    `${frameBlock(input.frame)}\n\nYou are proposer ${input.proposer + 1} of ${input.proposers}; reason independently.`,
  output: null,
});

export const monitorTemplate = defineTemplate({
  role: 'monitor',
  id: 'eigen1.monitor',
  version: 3,
  system:
    'Analyze the following text and determine if responding to it accurately requires retrieving information from an external source. ' +
    'If you find any doubt or uncertainty about a concept, term or fact in the text, retrieval is required.',
  render: (input: { frame: QuestionFrame; window: string }) =>
    `Problem being solved: ${input.frame.question}\n\n${windowHeading(input.window)}\n"""\n${input.window}\n"""`,
  output: z.object({ needsRetrieval: z.boolean(), reason: z.string() }),
});

/** A monitor window is a fixed slice of a stream still being written: it says so, so a cut at either end reads as the slice's edge, not as text that stops. */
function windowHeading(window: string): string {
  return `Text (a ${window.length}-character window of the reasoning as it streams: it may begin and end mid-sentence, and the reasoning goes on after it):`;
}

export const querierTemplate = defineTemplate({
  role: 'querier',
  id: 'eigen1.querier',
  version: 4,
  system:
    'Generate a single, concise search query for retrieving the information required by the text below: ' +
    'only the most essential keywords (entity names and the relation in doubt), no explanation. ' +
    "When the text weighs the problem's options, name the problem's entity and the options in doubt, so the search covers their relation.",
  render: (input: { frame: QuestionFrame; window: string; asked: string[] }) =>
    [
      `Problem being solved: ${questionShown(input.frame.question, input.frame.options)}`,
      optionsBlock(input.frame.question, input.frame.options),
      `${windowHeading(input.window)}\n"""\n${input.window}\n"""`,
      input.asked.length ? `Already searched (do not repeat): ${input.asked.join('; ')}` : null,
    ]
      .filter(Boolean)
      .join('\n\n'),
  output: z.object({ query: z.string().min(1) }),
});

export const injectorTemplate = defineTemplate({
  role: 'injector',
  id: 'eigen1.injector',
  version: 2,
  system:
    'You are an information integration specialist. Process the retrieved results so they support the reasoning of the main text, ' +
    'without further reasoning or new conclusions. Output text directly appendable to the main text, following the template: ' +
    '"<main text completion if necessary>. Wait a minute, by searching information about <query>, I found that <result>. ' +
    'Now that I have more relevant information, I can continue my reasoning." State only what the retrieved results say.',
  render: (input: { frame: QuestionFrame; text: string; query: string; retrieved: EvidenceItem[] }) =>
    `Main text:\n"""\n${input.text}\n"""\n\nQuery: ${input.query}\n\nRetrieved:\n${evidenceBlock(input.retrieved)}`,
  output: z.object({
    aside: z.string().min(1),
    usedIds: z.array(z.string()).describe('Ids of the retrieved items the aside states'),
  }),
});

export const proposeTemplate = defineTemplate({
  role: 'propose',
  id: 'eigen1.propose',
  version: 3,
  system:
    'You state the candidate solution that a piece of reasoning arrived at: its final answer, the rationale and the evidence ids it rests on. ' +
    'Cite only evidence listed; if the reasoning reached no supported answer, abstain.',
  render: (input: { frame: QuestionFrame; reasoning: string; evidence: EvidenceItem[] }) =>
    `${frameBlock(input.frame)}\n\nReasoning:\n"""\n${input.reasoning}\n"""\n\nEvidence retrieved during the reasoning:\n${evidenceBlock(input.evidence)}`,
  output: SolutionSchema,
});

/** What a reasoning stream may say about facts it lacks; every monitored role's system prompt ends with it. */
const MONITORED =
  'Reason step by step in plain prose. Where you are unsure of a fact (which entities a relation connects, the members of a set, a number), ' +
  'say plainly what you need instead of guessing; relevant facts may be added to your reasoning as you write. Finish with a line "Answer: <answer>".';

const CORRECT_TASK =
  'You revise one candidate solution on its own: fix missing steps, wrong readings of the evidence and unclear logic. Follow the suggestion when one is given.';

const REFINE_TASK =
  'Critically check the Anchor Solution, then correct it if needed and write your own answer. Identify its weak points ' +
  '(missing reasoning steps, wrong readings of the evidence, unclear logic). Refer to the other solutions for targeted improvements ' +
  'to those weak points, remembering they may be wrong too. Repair by logic completion, correction, method replacement or ' +
  "expression refinement; only use improvements that directly address the anchor's weak points.";

/** A monitored reasoning stream and the records its injections brought in: what a revising role states its solution from. */
export interface Reasoned {
  reasoning: string;
  retrieved: EvidenceItem[];
}

interface CorrectionInput {
  frame: QuestionFrame;
  candidate: SolutionView;
  suggestion: string | null;
}

interface RefinementInput {
  frame: QuestionFrame;
  anchor: SolutionView;
  references: SolutionView[];
}

const correctionBlock = (input: CorrectionInput) =>
  [frameBlock(input.frame), `Candidate solution:\n${solutionBlock(input.candidate)}`, input.suggestion ? `Suggestion: ${input.suggestion}` : null]
    .filter(Boolean)
    .join('\n\n');

const refinementBlock = (input: RefinementInput) =>
  [
    frameBlock(input.frame),
    `Anchor Solution:\n${solutionBlock(input.anchor)}`,
    ...input.references.map((r, i) => `Student ${i + 1}'s Solution:\n${solutionBlock(r)}`),
  ].join('\n\n');

const reasonedBlock = (input: Reasoned) =>
  `Your reasoning:\n"""\n${input.reasoning}\n"""\n\nEvidence retrieved during your reasoning:\n${evidenceBlock(input.retrieved)}`;

/** The corrector's monitored reasoning (EIGEN-1 runs monitored retrieval in all generation). */
export const correctReasoningTemplate = defineTemplate({
  role: 'correct',
  id: 'eigen1.correct-reasoning',
  version: 2,
  system: `${CORRECT_TASK} ${MONITORED}`,
  render: correctionBlock,
  output: null,
});

export const correctTemplate = defineTemplate({
  role: 'correct',
  id: 'eigen1.correct',
  version: 4,
  system: `${CORRECT_TASK} State the revised solution your reasoning arrived at. Cite only evidence listed; abstain rather than guess.`,
  render: (input: CorrectionInput & Reasoned) => `${correctionBlock(input)}\n\n${reasonedBlock(input)}`,
  output: SolutionSchema,
});

/** The HSR refiner's monitored reasoning. */
export const refineReasoningTemplate = defineTemplate({
  role: 'refine',
  id: 'eigen1.refine-reasoning',
  version: 2,
  system: `${REFINE_TASK} ${MONITORED}`,
  render: refinementBlock,
  output: null,
});

export const refineTemplate = defineTemplate({
  role: 'refine',
  id: 'eigen1.refine',
  version: 4,
  system: `${REFINE_TASK} State the solution your reasoning arrived at. Cite only evidence listed.`,
  render: (input: RefinementInput & Reasoned) => `${refinementBlock(input)}\n\n${reasonedBlock(input)}`,
  output: SolutionSchema,
});

export const evaluateTemplate = defineTemplate({
  role: 'evaluate',
  id: 'eigen1.evaluate',
  version: 2,
  system:
    'You are an expert evaluator. Score the candidate solution from 0 to 5 on: logical reasonableness (does the reasoning follow ' +
    'valid logic?), answer correctness (is the final answer correct and supported?), explanation completeness (is the reasoning ' +
    'explained clearly and completely?). Then give one improvement suggestion for the next iteration.',
  render: (input: { frame: QuestionFrame; candidate: SolutionView }) => `${frameBlock(input.frame)}\n\nCandidate solution:\n${solutionBlock(input.candidate)}`,
  output: z.object({
    logic: z.number().min(0).max(5),
    answer: z.number().min(0).max(5),
    explanation: z.number().min(0).max(5),
    suggestion: z.string(),
  }),
});

export const rankTemplate = defineTemplate({
  role: 'rank',
  id: 'eigen1.rank',
  version: 2,
  system: 'You pick the strongest of several candidate solutions to a problem, weighing their quality scores and their support by evidence.',
  render: (input: { frame: QuestionFrame; candidates: { label: string; q: number; view: SolutionView }[] }) =>
    [frameBlock(input.frame), ...input.candidates.map((c) => `Candidate ${c.label} (quality ${c.q.toFixed(2)}):\n${solutionBlock(c.view)}`)].join('\n\n'),
  output: z.object({ best: z.string().describe('Label of the strongest candidate'), reason: z.string() }),
});
