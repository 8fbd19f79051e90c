import type { CandidateEntity } from '@/lib/llm/offline/passages';
import type { Anchor, LocatedEntity, Operator as KitOperator, OutputFormat, Proposition, QuestionReading } from '@/lib/llm/offline/types';
import { questionOptions, stemEntities } from '@/lib/channels/aids';
import { kitHop, linkedById, type AnswerType, type Plan, type Source } from './plan';

/** The question as every BioWeave role sees it. */
export interface QuestionFrame {
  question: string;
  options: Record<string, string> | null;
  /** Mentions linked through the entity channel: the candidate entities C_q. */
  entities: LocatedEntity[];
  optionLinks: Record<string, LocatedEntity[]>;
  /** Aliases from entity profiles (entity channel), by node id; empty with the entity switch off. */
  aliases: Record<string, string[]>;
  /** Channels this run may use, of the three BioWeave plans over. */
  enabledSources: Source[];
  /** Documents attached to the question. */
  attachedDocuments: number;
}

const FORMATS: Record<AnswerType, OutputFormat> = {
  entity: 'single',
  entity_list: 'list',
  integer: 'count',
  yes_no: 'yesno',
  option_letter: 'option',
};

function kitOperator(plan: Plan): KitOperator {
  if (plan.answerType === 'yes_no') return 'yesno';
  if (plan.operator === 'chain') return 'path';
  return plan.operator;
}

/**
 * The plan in the offline kit's terms, so the kit's set operations
 * (answerFromEvidence, checkAnswer, walkChain) read the plan the model wrote,
 * whichever backend wrote it.
 */
export function understandingOf(plan: Plan, frame: QuestionFrame): QuestionReading {
  const linked = linkedById(frame);
  const anchors: Anchor[] = plan.constraints.flatMap((c) => {
    const entity = linked.get(c.anchorId);
    if (!entity) return [];
    const chain = c.hops.map(kitHop);
    return [{ entity, metaedges: chain[0]?.edges.map((e) => e.metaedge) ?? [], cue: null, chain, negated: c.negated }];
  });
  const propositions: Proposition[] = plan.claims.flatMap((c) => {
    const [subject, object] = [linked.get(c.subjectId), linked.get(c.objectId)];
    return subject && object ? [{ subject, object, hop: kitHop(c.hop), negated: c.negated }] : [];
  });
  const outputFormat = FORMATS[plan.answerType];
  return {
    question: frame.question,
    stem: frame.question,
    answerKind: plan.answerKind,
    answerKindFrom: null,
    operator: kitOperator(plan),
    outputFormat,
    answerType: plan.answerType,
    anchors,
    hops: anchors.reduce<Anchor['chain']>((longest, a) => (a.chain.length > longest.length ? a.chain : longest), []),
    propositions,
    excluded: plan.excludedIds.flatMap((id) => {
      const e = linked.get(id);
      return e ? [e] : [];
    }),
    // Given apart or written inline, the options are the candidates the answer is chosen among.
    options: questionOptions(frame),
    stemEntities: stemEntities(frame),
    cues: { relations: [], question: [] },
    subquestions: [],
    notes: [],
  };
}

/** The linked entities (question and options) as mention-finding candidates, with their profile aliases. */
export function frameCandidates(frame: QuestionFrame): CandidateEntity[] {
  const seen = new Map<string, CandidateEntity>();
  for (const e of linkedById(frame).values()) {
    if (!seen.has(e.nodeId)) seen.set(e.nodeId, { nodeId: e.nodeId, name: e.name, kind: e.kind, aliases: [e.mention, ...(frame.aliases[e.nodeId] ?? [])] });
  }
  return [...seen.values()];
}
