import { answerSetQuery, askedPairs, questionReads } from './answer-set';
import { candidateEntities, readingOf, readQuestion, seedEntities, type FramedQuestion } from '@/lib/reading';
import type { LinkedEntity, QuestionReading } from '@/lib/llm/offline/types';
import type { EvidenceRecord, StepHandle } from '@/lib/trace/types';
import { z } from 'zod';
import { AID_NAMES, type AidName, type AidUse } from './aid-names';
import type { KgChannel, SetConstraint } from './kg';
import type { ChannelAnswer, ChannelDeps, Parent } from './types';
import { nameList } from '@/lib/llm/templates/names';

export type { AidName, AidUse, FramedQuestion };

/** The question's anchors as the reader reads them, and the relations it names at each. */
export interface ReadAnchors {
  /** Linked entities that constrain the answer (never an option). */
  anchors: LinkedEntity[];
  /** The options' linked nodes: candidates to test, never anchors. */
  options: LinkedEntity[];
  /** The relations (metaedges) the question names at each anchor, by node id; absent where it names none. */
  relations: Map<string, string[]>;
}

/**
 * The aids channel: the one way a method stage reaches Hopscope's question
 * reader and the aids built on it (docs/aids.md). Switched off (the default),
 * every call answers "no aid" and records nothing, so the method is its
 * paper's; on, each aid that acts records a `channel.aids` step naming itself,
 * its evidence is written as the `aids` channel's, and the run lists the aids
 * that shaped it (`used`).
 */
export class AidsChannel {
  private readonly uses: AidUse[] = [];

  constructor(
    private readonly deps: ChannelDeps,
    private readonly kg: KgChannel,
  ) {}

  get enabled() {
    return this.deps.switches.aids;
  }

  /**
   * The aids that acted in this run, in order: on a resumed run, first those its earlier attempts recorded (a
   * completed step given back from the trace does not run its aids again), then this attempt's.
   */
  used(): AidUse[] {
    const earlier = this.deps.trace.storedSteps('channel.aids').flatMap((s) => {
      const stored = StoredAidStep.safeParse(s);
      return stored.success ? [{ aid: stored.data.input.aid, evidenceIds: [...stored.data.output.evidence.map((e) => e.id), ...stored.data.input.shown] }] : [];
    });
    return [...earlier, ...this.uses];
  }

  /** Aid `question-reader`: the question's anchors, its options' nodes and the relations it names; null with aids off. */
  async anchors(parent: Parent, frame: FramedQuestion): Promise<ReadAnchors | null> {
    if (!this.enabled) return null;
    const reading = readingOf(frame);
    const read = readAnchors(reading, seedEntities(reading, frame.entities));
    await this.record(parent, 'question-reader', { question: frame.question }, async () => ({ did: describe(read), evidence: [] }));
    return read;
  }

  /** Aid `question-reader` on a text that is not the question (EIGEN-1's mid-reasoning query), with its own links. */
  async queryAnchors(parent: Parent, query: string, links: LinkedEntity[]): Promise<ReadAnchors | null> {
    if (!this.enabled) return null;
    const reading = readQuestion(query, { links });
    const read = readAnchors(reading, seedEntities(reading, links));
    await this.record(parent, 'question-reader', { query }, async () => ({ did: describe(read), evidence: [] }));
    return read;
  }

  /**
   * Aid `answer-set`: the question's complete answer set, as the reader reads
   * the question (a list or count over one-hop relations, or one answer under
   * several constraints), or for a yes/no question on a given pair that pair's
   * own edges; empty with aids off, with the kg switch off, or when the
   * question asks no such set or pair.
   */
  async questionAnswerSet(parent: Parent, frame: FramedQuestion, label = 'Answer set of the question (aid)'): Promise<EvidenceRecord[]> {
    if (!this.enabled || !this.kg.enabled) return [];
    const reading = readingOf(frame);
    const query = answerSetQuery(reading);
    // A yes/no question on a given pair is answered from that pair's own edges, read directly.
    const pairs = askedPairs(reading);
    if (!query && !pairs.length) return [];
    return this.record(
      parent,
      'answer-set',
      { question: frame.question, kind: query?.kind ?? null, pairs: pairs.map((p) => [p.from.id, p.to.id]) },
      async (step) => {
        const evidence = await questionReads(this.kg, step, reading, label);
        return { did: evidence.length ? evidence.map((r) => r.text).join('; ') : 'no edge between the asked pair', evidence };
      },
    );
  }

  /**
   * Aid `option-tests`: for a multiple-choice question, the KG edges joining
   * each option's nodes to each entity the stem names (any metaedge, either
   * direction; every entity of the stem, context included), read in one step;
   * empty with aids off, with the kg switch off, or without options.
   */
  async optionTests(parent: Parent, frame: FramedQuestion, label = 'Options tested against the stem (aid)'): Promise<EvidenceRecord[]> {
    if (!this.enabled || !this.kg.enabled) return [];
    const reading = readingOf(frame);
    const node = (e: LinkedEntity) => ({ id: e.nodeId, kind: e.kind, name: e.name });
    const options = [
      ...new Map(reading.options.flatMap((o) => o.links.flatMap((l) => [l, ...(l.readings ?? [])])).map((e) => [e.nodeId, node(e as LinkedEntity)])).values(),
    ];
    const stem = [...new Map(reading.stemEntities.filter((e) => !options.some((o) => o.id === e.nodeId)).map((e) => [e.nodeId, node(e)])).values()];
    if (!options.length || !stem.length) return [];
    return this.record(parent, 'option-tests', { options: options.map((o) => o.id), stem: stem.map((s) => s.id) }, async (step) => {
      const found = await this.kg.edgesAmong(step, options, stem, label);
      return {
        did: `${found.items.length} direct edge(s) between ${options.length} option node(s) and ${stem.length} entit(ies) of the stem`,
        evidence: found.items,
      };
    });
  }

  /** Aid `answer-set` for relations a method's own step named (X-R2's R_t): the nodes of `kind` meeting all of them. */
  async answerSet(parent: Parent, constraints: SetConstraint[], kind: string | null, label = 'Answer set of the step (aid)'): Promise<EvidenceRecord[]> {
    if (!this.enabled || !this.kg.enabled || !constraints.length) return [];
    return this.record(
      parent,
      'answer-set',
      { constraints: constraints.map((c) => ({ anchor: c.anchor.id, metaedges: c.metaedges, direction: c.direction })), kind },
      async (step) => {
        const found = await this.kg.answerSet(step, constraints, kind, label);
        return { did: setText(found), evidence: found.items };
      },
    );
  }

  /**
   * Records an aid that shaped a ranking, a notice or a choice without evidence
   * of its own (`option-coverage`, `completeness-notice`, `option-checks`), or
   * one that chose which channel evidence to show (`option-tests`: `shown`, the
   * records it put in the prompt). `what` says what it did. Returns whether
   * aids are on, so a caller applies the aid only when this says so.
   */
  async note(parent: Parent, aid: AidName, what: string, shown: string[] = []): Promise<boolean> {
    if (!this.enabled) return false;
    await this.record(parent, aid, { shown }, async () => ({ did: what, evidence: [] }), shown);
    return true;
  }

  /**
   * One aid's step; a replayed step (a resumed run) gives back its stored evidence, and its use is counted from the
   * stored trace (`used`), not again here. `shown`: channel records the aid put in a prompt, part of its use.
   */
  private async record(
    parent: Parent,
    aid: AidName,
    input: object,
    fn: (step: StepHandle) => Promise<{ did: string; evidence: EvidenceRecord[] }>,
    shown: string[] = [],
  ): Promise<EvidenceRecord[]> {
    let ran = false;
    const out = await this.deps.trace.step({ kind: 'channel.aids', label: `Aid: ${aid}`, input: { aid, ...input }, parent }, async (step) => {
      ran = true;
      const done = await fn(step);
      return { aid, did: done.did, evidence: done.evidence };
    });
    if (ran) this.uses.push({ aid, evidenceIds: [...out.evidence.map((e) => e.id), ...shown] });
    return out.evidence as EvidenceRecord[];
  }
}

/**
 * Not an aid: the question's own options, given apart or written inline, as
 * the offline kit's candidates (BioWeave's operator check reads the plan the
 * model wrote against them). Here so that method stages reach the reader
 * through this module only.
 */
export function questionOptions(frame: FramedQuestion): QuestionReading['options'] {
  return readingOf(frame).options;
}

/** Not an aid: every entity the question's stem names (outside its options), what the offline kit tests options against. */
export function stemEntities(frame: FramedQuestion): QuestionReading['stemEntities'] {
  return readingOf(frame).stemEntities;
}

/** An aid's step as a resumed run finds it stored: which aid, the records it added and those it showed. */
const StoredAidStep = z.object({
  input: z.object({ aid: z.enum(AID_NAMES as [AidName, ...AidName[]]), shown: z.array(z.string()).default([]) }),
  output: z.object({ evidence: z.array(z.object({ id: z.string() })) }),
});

function readAnchors(reading: QuestionReading, anchors: LinkedEntity[]): ReadAnchors {
  const relations = new Map<string, string[]>();
  for (const a of reading.anchors) if (a.metaedges.length && !relations.has(a.entity.nodeId)) relations.set(a.entity.nodeId, a.metaedges);
  const options = candidateEntities(reading).filter((c) => !anchors.some((a) => a.nodeId === c.nodeId));
  return { anchors, options, relations };
}

function describe(read: ReadAnchors): string {
  const named = read.anchors.map((a) => `${a.name}${read.relations.get(a.nodeId) ? ` (${read.relations.get(a.nodeId)!.join('/')})` : ''}`);
  return `anchors: ${nameList(named) || 'none'}${read.options.length ? `; options to test: ${nameList(read.options.map((o) => o.name))}` : ''}`;
}

function setText(found: ChannelAnswer): string {
  return found.items.length ? found.items.map((r) => r.text).join('; ') : (found.note ?? 'no set');
}
