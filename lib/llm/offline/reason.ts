/**
 * Answering from the evidence a role was given, by set operations over the
 * understanding: walk each anchor's chain through the evidence triples,
 * intersect the anchors' candidate sets (subtracting negated ones), count the
 * deduplicated set, test a yes/no claim, or pick the option that names an
 * answer. Every answer carries the evidence ids it rests on; when the
 * evidence does not yield an answer the result abstains and says why.
 */

import { EvidenceGraph, startAt, type EvidenceBundle, type EvidencePassage, type EvidenceSet, type Reach } from './evidence';
import { reverseHop } from '@/lib/reading/attach';
import { normalise } from './text';
import type { Anchor, Hop, HopEdge, Proposition, QuestionReading } from './types';

export interface ReasonedAnswer {
  nodeId: string;
  name: string;
  kind: string;
  /** Evidence ids along every chain that reaches this answer. */
  supportIds: string[];
  /** Distinct KG edges behind the answer: the ranking key. */
  supportCount: number;
  /** The metaedges of those edges. */
  metaedges?: string[];
}

export interface ReasonResult {
  /** Best supported first. */
  answers: ReasonedAnswer[];
  /** Size of the deduplicated answer set, for counting questions. */
  count?: number;
  verdict?: 'yes' | 'no';
  /** The evidence a verdict on given pairs rests on: the edges that state a claim, the checks that found it absent. */
  verdictIds?: string[];
  chosenOption?: string;
  /** MCQ: the option was chosen (or the result abstained) by testing the options against the stem's entities, not by a derivation. */
  testedOptions?: boolean;
  /** MCQ: the options the evidence backs equally (the result then abstains and says so). */
  optionTie?: string[];
  abstain: boolean;
  reason: string;
  /** The derivation in short lines: "DaG(multiple sclerosis) ∩ DaG(Crohn's disease) = {IL23R, …}". */
  rationale: string[];
}

export interface ReasonOptions {
  /**
   * When a relation was chosen by the kinds alone (no phrase named it) and the
   * preferred reading gives no answer, retry with every metaedge between the
   * kinds. Default true.
   */
  widen?: boolean;
}

/** Metaedges a hop follows: all of them when the question named the relation or when widening, else the preferred one. */
export function hopEdges(hop: Hop, widen: boolean): HopEdge[] {
  return hop.explicit || widen ? hop.edges : hop.edges.slice(0, 1);
}

export interface Walk {
  anchor: Anchor;
  reach: Map<string, Reach>;
  /** Index of the hop after which nothing was reached; null when the chain went through. */
  emptyAt: number | null;
  /** "CtD(CtD(epilepsy))". */
  label: string;
}

export function walkChain(graph: EvidenceGraph, anchor: Anchor, widen: boolean): Walk {
  let reach = startAt(anchor.entity.nodeId);
  let label = anchor.entity.name;
  for (const [i, hop] of anchor.chain.entries()) {
    const edges = hopEdges(hop, widen);
    reach = graph.step(reach, hop, edges);
    label = `${edges.map((e) => e.metaedge).join('|')}(${label})`;
    if (!reach.size) return { anchor, reach, emptyAt: i, label };
  }
  // A chain that comes back to its own anchor ("a compound that also treats X") does not answer with X.
  reach.delete(anchor.entity.nodeId);
  return { anchor, reach, emptyAt: reach.size ? null : anchor.chain.length - 1, label };
}

const SHOWN = 5;

function setText(graph: EvidenceGraph, reach: Map<string, Reach>): string {
  const names = ranked(reach).map(([id]) => graph.node(id)?.name ?? id);
  const more = names.length > SHOWN ? `, … (+${names.length - SHOWN})` : '';
  return `{${names.slice(0, SHOWN).join(', ')}${more}}`;
}

function ranked(reach: Map<string, Reach>): [string, Reach][] {
  return [...reach.entries()].sort((a, b) => b[1].edges.size - a[1].edges.size || a[0].localeCompare(b[0]));
}

function merge(into: Reach, from: Reach): Reach {
  return { support: new Set([...into.support, ...from.support]), edges: new Set([...into.edges, ...from.edges]) };
}

interface Derivation {
  walks: Walk[];
  candidates: Map<string, Reach>;
  rationale: string[];
}

/** Intersection of the positive anchors' sets minus the negated anchors' sets, anchors themselves and the question's excluded entities left out. */
function derive(graph: EvidenceGraph, anchors: Anchor[], excluded: { nodeId: string }[], widen: boolean): Derivation {
  const walks = anchors.map((a) => walkChain(graph, a, widen));
  const positive = walks.filter((w) => !w.anchor.negated);
  const negative = walks.filter((w) => w.anchor.negated);
  const rationale = walks.map((w) => `${w.label} = ${setText(graph, w.reach)}`);
  let candidates = new Map(positive[0].reach);
  for (const w of positive.slice(1)) {
    const next = new Map<string, Reach>();
    for (const [id, reach] of candidates) {
      const other = w.reach.get(id);
      if (other) next.set(id, merge(reach, other));
    }
    candidates = next;
  }
  for (const w of negative) for (const id of w.reach.keys()) candidates.delete(id);
  for (const a of anchors) candidates.delete(a.entity.nodeId);
  for (const e of excluded) candidates.delete(e.nodeId);
  if (walks.length > 1) {
    const minus = negative.length ? ` ∖ ${negative.map((w) => w.label).join(' ∪ ')}` : '';
    rationale.push(`${positive.map((w) => w.label).join(' ∩ ')}${minus} = ${setText(graph, candidates)}`);
  }
  return { walks, candidates, rationale };
}

/** Answers from the candidate set; nodes whose names normalise alike are one entity (aliases, duplicates). */
function answersOf(graph: EvidenceGraph, candidates: Map<string, Reach>, rationale: string[]): ReasonedAnswer[] {
  const byName = new Map<string, { nodeId: string; name: string; kind: string; reach: Reach }>();
  for (const [nodeId, reach] of ranked(candidates)) {
    const node = graph.node(nodeId)!;
    const key = normalise(node.name);
    const seen = byName.get(key);
    if (seen) {
      seen.reach = merge(seen.reach, reach);
      rationale.push(`merged ${nodeId} into ${seen.nodeId}: same normalised name '${key}'`);
    } else byName.set(key, { nodeId, name: node.name, kind: node.kind, reach });
  }
  return [...byName.values()]
    .map((a) => ({
      nodeId: a.nodeId,
      name: a.name,
      kind: a.kind,
      supportIds: [...a.reach.support].sort(),
      supportCount: a.reach.edges.size,
      metaedges: [...new Set([...a.reach.edges].map((key) => key.split('|')[1]))].sort(),
    }))
    .sort((a, b) => b.supportCount - a.supportCount || a.name.localeCompare(b.name) || a.nodeId.localeCompare(b.nodeId));
}

function abstain(reason: string, rationale: string[] = []): ReasonResult {
  return { answers: [], abstain: true, reason, rationale };
}

/**
 * The answer the evidence gives the reading: the derivation along the anchors'
 * chains; for a multiple-choice question it does not settle, the options
 * tested against the stem's entities (testOptions).
 */
export function answerFromEvidence(u: QuestionReading, evidence: EvidenceBundle, options: ReasonOptions = {}): ReasonResult {
  const derived = deriveAnswer(u, evidence, options);
  if (derived.chosenOption || !u.options.length || u.options.every((o) => /^(?:yes|no|maybe|true|false)$/i.test(o.text.trim()))) return derived;
  return testOptions(u, new EvidenceGraph(evidence), derived) ?? derived;
}

function deriveAnswer(u: QuestionReading, evidence: EvidenceBundle, options: ReasonOptions): ReasonResult {
  const graph = new EvidenceGraph(evidence);
  const set = questionSet(u, evidence.sets ?? []);
  if (!graph.size && !set && !evidence.checks?.length)
    return abstain('no KG fact was given to this call, and the offline engine answers only from the facts it is given');
  if (u.propositions.length) return withOption(u, decidePropositions(graph, u.propositions));

  const anchors = u.anchors.filter((a) => a.chain.length);
  if (!u.anchors.length) return abstain('no linked entity in the question to start from');
  if (!anchors.length) return abstain(`no relation links ${u.anchors.map((a) => a.entity.name).join(', ')} to the answer`);
  if (anchors.every((a) => a.negated)) return abstain('every constraint is negated: the answer set would be a complement, which evidence cannot give');

  let derivation = derive(graph, anchors, u.excluded, false);
  for (const a of u.anchors) if (!a.chain.length) derivation.rationale.unshift(`ignored ${a.entity.name}: no relation joins a ${a.entity.kind} to the answer`);
  const widenable = anchors.some((a) => a.chain.some((h) => !h.explicit && h.edges.length > 1));
  if (!derivation.candidates.size && widenable && options.widen !== false) {
    const widened = derive(graph, anchors, u.excluded, true);
    widened.rationale.unshift(...derivation.rationale, 'no answer through the preferred relations: widened to every relation between the kinds');
    derivation = widened;
  }
  if (set) return withOption(u, fromSet(u, set, graph, derivation), evidence.passages);
  const { walks, candidates, rationale } = derivation;
  if (!candidates.size && u.operator === 'yesno' && walks.every((w) => w.emptyAt === null)) {
    rationale.push(`no ${u.answerKind ?? 'node'} satisfies every constraint`);
    return withOption(u, {
      answers: [],
      verdict: 'no',
      abstain: false,
      reason: 'the evidence covers every constraint but nothing satisfies them all',
      rationale,
    });
  }
  if (!candidates.size) {
    const empty = walks.find((w) => w.emptyAt !== null);
    const reason = empty ? `no KG evidence for ${empty.anchor.entity.name} via ${empty.label}` : 'the anchors have evidence but no common answer';
    return abstain(reason, rationale);
  }

  const answers = answersOf(graph, candidates, rationale);
  const result: ReasonResult = { answers, abstain: false, reason: `${answers.length} answer(s) supported by the evidence`, rationale };
  if (u.operator === 'count' || u.outputFormat === 'count') {
    result.count = answers.length;
    rationale.push(`count of distinct ${u.answerKind ?? 'answers'} = ${answers.length}`);
  }
  if (u.operator === 'yesno') {
    result.verdict = 'yes';
    rationale.push(`a ${u.answerKind ?? 'node'} satisfying the question exists: ${answers[0].name}`);
  }
  return withOption(u, result, evidence.passages);
}

/**
 * The complete answer set the evidence holds for this question, if any: read
 * from the question's own anchors (every constraint, none negated) for its
 * answer kind. Its membership is whole, however many of its edges the
 * evidence carries, so a count, a verdict or an option check read from it is
 * exact.
 */
export function questionSet(u: QuestionReading, sets: EvidenceSet[]): EvidenceSet | null {
  const anchors = u.anchors.filter((a) => a.chain.length);
  if (!anchors.length || u.propositions.length || anchors.some((a) => a.negated)) return null;
  const ids = [...new Set(anchors.map((a) => a.entity.nodeId))].sort().join(' ');
  return sets.find((s) => [...new Set(s.anchors)].sort().join(' ') === ids && (!u.answerKind || !s.kind || s.kind === u.answerKind)) ?? null;
}

/** Answers from a complete answer set: its members (less the anchors and the excluded), ranked by the edges the walk found to each. */
function fromSet(u: QuestionReading, set: EvidenceSet, graph: EvidenceGraph, derivation: Derivation): ReasonResult {
  const out = new Set([...u.anchors.map((a) => a.entity.nodeId), ...u.excluded.map((e) => e.nodeId)]);
  const members = set.members.filter((m) => !out.has(m.id));
  const walked = new Map(answersOf(graph, derivation.candidates, []).map((a) => [a.nodeId, a]));
  const answers: ReasonedAnswer[] = members
    .map((m) => {
      const a = walked.get(m.id);
      return a
        ? { ...a, supportIds: [...new Set([...a.supportIds, set.id])].sort() }
        : { nodeId: m.id, name: m.name, kind: m.kind, supportIds: [set.id], supportCount: 0 };
    })
    .sort((a, b) => b.supportCount - a.supportCount || a.name.localeCompare(b.name) || a.nodeId.localeCompare(b.nodeId));
  const rationale = [...derivation.rationale, `complete answer set ${set.id}: ${members.length} ${u.answerKind ?? 'node'}(s) meet every constraint`];
  const result: ReasonResult = { answers, abstain: false, reason: `${answers.length} answer(s) in the complete answer set`, rationale };
  if (u.operator === 'yesno') {
    result.verdict = answers.length ? 'yes' : 'no';
    rationale.push(
      answers.length ? `a ${u.answerKind ?? 'node'} meets every constraint: ${answers[0].name}` : `no ${u.answerKind ?? 'node'} meets every constraint`,
    );
    return result;
  }
  if (u.operator === 'count' || u.outputFormat === 'count') {
    result.count = answers.length;
    rationale.push(`count of distinct ${u.answerKind ?? 'answers'} = ${answers.length}`);
    return result;
  }
  return answers.length ? result : abstain('the complete answer set is empty', rationale);
}

/**
 * Claims between named entities. A claim holds when an edge of its relation
 * joins the pair; it fails only where the pair's own edges were read whole and
 * none was found (a `check` record, cited as the "no"'s evidence). A
 * neighbourhood cut to its top edges says nothing about an edge it left out,
 * so without such a read the claim stays open and the result abstains.
 */
function decidePropositions(graph: EvidenceGraph, propositions: Proposition[]): ReasonResult {
  const rationale: string[] = [];
  const support = new Set<string>();
  let allHold = true;
  for (const p of propositions) {
    const relation = p.hop.edges.map((e) => e.metaedge).join('|');
    const ids = graph.connecting(p.subject.nodeId, p.object.nodeId, p.hop.edges);
    const checks = ids.length ? [] : graph.checkedAbsent(p.subject.nodeId, p.object.nodeId, p.hop.edges);
    if (!ids.length && !checks.length) {
      const seen = graph.touches(p.subject.nodeId, p.hop.edges) || graph.touches(p.object.nodeId, reverseHop(p.hop).edges);
      return abstain(
        seen
          ? `${relation}(${p.subject.name}, ${p.object.name}) is not among the retrieved edges, and the pair's own edges were not read: a cut neighbourhood cannot say no`
          : `no KG evidence about ${p.subject.name} or ${p.object.name} via ${relation}`,
        rationale,
      );
    }
    const holds = ids.length > 0;
    for (const id of [...ids, ...checks]) support.add(id);
    rationale.push(
      holds
        ? `${relation}(${p.subject.name}, ${p.object.name}) is stated by ${ids.join(', ')}`
        : `no ${relation} edge between ${p.subject.name} and ${p.object.name}: the pair's own edges were read whole (${checks.join(', ')})`,
    );
    if (holds === p.negated) allHold = false;
  }
  const verdict = allHold ? 'yes' : 'no';
  const object = propositions[0].object;
  const answers =
    verdict === 'yes' ? [{ nodeId: object.nodeId, name: object.name, kind: object.kind, supportIds: [...support].sort(), supportCount: support.size }] : [];
  return {
    answers,
    verdict,
    verdictIds: [...support].sort(),
    abstain: false,
    reason: `the evidence ${verdict === 'yes' ? 'states' : 'does not state'} the claim`,
    rationale,
  };
}

/** How strongly the evidence backs one option: the ranking key between options that name derived answers. */
export interface OptionSupport {
  letter: string;
  answer: ReasonedAnswer;
  /** Every edge behind it is of a relation the question asks (not one a widened reading or a fallback metaedge added). */
  askedRelation: boolean;
  /** Distinct KG edges behind it. */
  edges: number;
  /** Retrieved passages naming both the option and an entity of the question. */
  passages: string[];
}

/** Metaedges the question asks for: every edge of a hop the question named, else each hop's preferred reading. */
function askedMetaedges(u: QuestionReading): Set<string> {
  return new Set(u.anchors.flatMap((a) => a.chain.flatMap((h) => (h.explicit ? h.edges : h.edges.slice(0, 1)).map((e) => e.metaedge))));
}

function describeSupport(s: OptionSupport): string {
  const relation = s.askedRelation ? '' : ', partly through a relation the question does not ask';
  const passages = s.passages.length ? `, ${s.passages.length} corroborating passage(s)` : '';
  return `${s.edges} supporting edge(s)${relation}${passages}`;
}

function sameStrength(a: OptionSupport, b: OptionSupport): boolean {
  return a.askedRelation === b.askedRelation && a.edges === b.edges && a.passages.length === b.passages.length;
}

/**
 * The options that name derived answers, strongest first: edges of the asked
 * relation before any other, then more distinct KG edges, then more passages
 * naming the option beside a question entity; equals keep the options' order.
 */
export function optionSupports(u: QuestionReading, result: ReasonResult, passages: EvidencePassage[] = []): OptionSupport[] {
  const asked = askedMetaedges(u);
  const anchors = u.anchors.map((a) => normalise(a.entity.name));
  const names = (text: string, name: string) => ` ${normalise(text)} `.includes(` ${normalise(name)} `);
  const supports: OptionSupport[] = [];
  for (const option of u.options) {
    const answer = result.answers.find(
      (a) => option.links.some((l) => l.nodeId === a.nodeId || normalise(l.name) === normalise(a.name)) || normalise(option.text) === normalise(a.name),
    );
    if (!answer) continue;
    const optionNames = [answer.name, option.text, ...option.links.map((l) => l.name)];
    supports.push({
      letter: option.letter,
      answer,
      askedRelation: (answer.metaedges ?? []).every((m) => asked.has(m)),
      edges: answer.supportCount,
      passages: passages.filter((p) => optionNames.some((n) => names(p.text, n)) && anchors.some((n) => names(p.text, n))).map((p) => p.id),
    });
  }
  return supports.sort((a, b) => Number(b.askedRelation) - Number(a.askedRelation) || b.edges - a.edges || b.passages.length - a.passages.length);
}

/**
 * For MCQ: the option naming the best supported answer (or the count, or the
 * verdict); abstain rather than guess, and when the evidence backs several
 * options equally, say it is a tie and why instead of picking by order.
 */
function withOption(u: QuestionReading, result: ReasonResult, passages: EvidencePassage[] = []): ReasonResult {
  if (!u.options.length || result.abstain) return result;
  const pick = (letter: string | undefined, why: string): ReasonResult => {
    if (!letter) return { ...result, abstain: true, reason: `no option matches: ${why}` };
    result.rationale.push(`option ${letter}: ${why}`);
    return { ...result, chosenOption: letter };
  };
  if (result.count !== undefined) {
    const letter = u.options.find((o) => Number(/-?\d+/.exec(o.text)?.[0]) === result.count)?.letter;
    return pick(letter, `count ${result.count}`);
  }
  if (result.verdict && u.options.some((o) => ['yes', 'no'].includes(normalise(o.text)))) {
    return pick(u.options.find((o) => normalise(o.text) === result.verdict)?.letter, `verdict ${result.verdict}`);
  }
  const [best, ...rest] = optionSupports(u, result, passages);
  if (!best) return pick(undefined, `none of the ${result.answers.length} derived answer(s) is an option`);
  const tied = [best, ...rest.filter((s) => sameStrength(s, best))];
  if (tied.length > 1) {
    const reason = `tie between options ${tied.map((s) => `${s.letter} (${s.answer.name})`).join(' and ')}: each has ${describeSupport(best)}, so the evidence does not tell them apart`;
    return { ...result, abstain: true, reason, optionTie: tied.map((s) => s.letter) };
  }
  const over = rest.length ? `; over ${rest.map((s) => `${s.letter} (${s.answer.name}: ${describeSupport(s)})`).join(', ')}` : '';
  return pick(best.letter, `names ${best.answer.name} (${describeSupport(best)})${over}`);
}

/** One option's test: the stem's mentions its nodes are joined to in the evidence, and by which edges. */
interface OptionTest {
  letter: string;
  name: string;
  /** Mention span → the stem entity's name, for the mentions joined. */
  joined: Map<string, string>;
  ids: Set<string>;
  metaedges: Set<string>;
}

/**
 * Multiple choice tested option by option: each option's nodes against every
 * entity the stem names, through the edges of the evidence that join them
 * (any metaedge, either direction). The option joined to the most of the
 * stem's mentions (then by more edges) is chosen; none joined, or several
 * equally, abstains. A negated question ("which is NOT …", "all of the
 * following EXCEPT") asks for the one linked option joined to nothing while
 * every other linked option is joined. null when the stem names no entity
 * apart from the options, or no option is linked.
 */
function testOptions(u: QuestionReading, graph: EvidenceGraph, derived: ReasonResult): ReasonResult | null {
  const nodesOf = (o: QuestionReading['options'][number]) => o.links.flatMap((l) => [l.nodeId, ...(l.readings ?? []).map((r) => r.nodeId)]);
  const optionNodes = new Set(u.options.flatMap(nodesOf));
  const stem = u.stemEntities.filter((e) => !optionNodes.has(e.nodeId));
  const linked = u.options.filter((o) => o.links.length);
  if (!stem.length || !linked.length) return null;
  const tests: OptionTest[] = linked.map((o) => {
    const test: OptionTest = { letter: o.letter, name: o.links[0].name, joined: new Map(), ids: new Set(), metaedges: new Set() };
    for (const node of nodesOf(o))
      for (const s of stem)
        for (const edge of graph.between(node, s.nodeId)) {
          test.joined.set(`${s.start}:${s.end}`, s.name);
          edge.ids.forEach((id) => test.ids.add(id));
          test.metaedges.add(edge.metaedge);
        }
    return test;
  });
  const describe = (t: OptionTest) =>
    t.joined.size
      ? `${t.letter} (${t.name}) is joined to ${[...new Set(t.joined.values())].join(', ')} by ${t.ids.size} edge(s) (${[...t.metaedges].join(', ')})`
      : `${t.letter} (${t.name}) to no entity of the stem`;
  const rationale = [...derived.rationale, `options tested against the stem's entities (${stem.length}) in the evidence: ${tests.map(describe).join('; ')}`];
  // A tie the derivation found stands as its own reason when the tests do not break it.
  const abstained = (reason: string, tie?: string[]): ReasonResult =>
    derived.optionTie ? { ...derived, rationale } : { ...derived, abstain: true, reason, rationale, testedOptions: true, ...(tie ? { optionTie: tie } : {}) };
  const answer = (t: OptionTest, why: string): ReasonResult => {
    const option = u.options.find((o) => o.letter === t.letter)!;
    rationale.push(`option ${t.letter}: ${why}`);
    const supportIds = [...t.ids].sort();
    const chosen = { nodeId: option.links[0].nodeId, name: option.links[0].name, kind: option.links[0].kind, supportIds, supportCount: t.ids.size };
    return { answers: [chosen], chosenOption: t.letter, testedOptions: true, abstain: false, reason: why, rationale };
  };
  const joined = tests.filter((t) => t.joined.size);
  if (negatedAsk(u)) {
    const unjoined = tests.filter((t) => !t.joined.size);
    if (unjoined.length === 1 && joined.length === tests.length - 1 && joined.length) {
      // A "no" drawn from the evidence: the unjoined option is cited with the edges that join the others.
      const others = new Set(joined.flatMap((t) => [...t.ids]));
      return answer({ ...unjoined[0], ids: others }, `the question asks for the exception: the only linked option joined to no entity of the stem`);
    }
    return abstained('the question asks for the exception, and the evidence does not single out one option joined to no entity of the stem');
  }
  if (!joined.length) return abstained(`no option is joined to an entity of the stem in the evidence`);
  const strength = (t: OptionTest) => [t.joined.size, t.ids.size];
  joined.sort((a, b) => strength(b)[0] - strength(a)[0] || strength(b)[1] - strength(a)[1]);
  const tied = joined.filter((t) => strength(t)[0] === strength(joined[0])[0] && strength(t)[1] === strength(joined[0])[1]);
  if (tied.length > 1)
    return abstained(
      `tie between options ${tied.map((t) => t.letter).join(' and ')}: each is joined to as many of the stem's entities by as many edges`,
      tied.map((t) => t.letter),
    );
  return answer(joined[0], `joined to the most of the stem's entities (${joined[0].joined.size}) by ${joined[0].ids.size} edge(s)`);
}

/** "Which of the following is NOT …", "all of the following EXCEPT": a negation or exclusion in the sentence that asks (the last), not in the case told before it. */
function negatedAsk(u: QuestionReading): boolean {
  const text = u.question.replace(/[\s.?!:]+$/, '');
  const asking = Math.max(0, ...[...text.matchAll(/[.?!]\s+/g)].map((m) => m.index + m[0].length));
  return u.cues.question.some((c) => (c.cue === 'negation' || c.cue === 'exclusion') && c.start >= asking);
}
