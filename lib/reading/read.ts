/**
 * Reading a question without a language model: what kind of entity it asks
 * for, which linked entities constrain the answer and through which relation,
 * whether it asks for one entity, a list, a number or yes/no, and a
 * decomposition into hop questions. Rules only; nothing is looked up in the KG.
 *
 * The question is read as a small graph: the answer (and any hidden
 * intermediate such as "a compound that ...") are variables; every linked
 * entity attaches to one variable through the nearest relation phrase that
 * fits both kinds; intermediates attach towards the answer the same way.
 */

import { findQuestionCues, type QuestionCue } from './question-cues';
import { findRelationCues } from './relation-cues';
import { findKindWords, type KindWord } from './kind-words';
import { memberHops } from './members';
import { joins, kindPlural, metaedgeInfo, metaedges, metaedgesBetween, otherEnd, sameKind, type NodeKind } from '@/lib/llm/offline/metaedges';
import { relationNouns } from './relation-nouns';
import { insideOptions, lettered, parseOptions, splitInlineOptions, type InlineOptions, type ParsedOption } from './options';
import { blankOut, gap, hopChoices, outermost, overlaps, reverseHop, sentencesOf, type HopChoice, type SentenceOf, type Span } from './attach';
import { writeSubquestions } from './subquestions';
import { readArrowChain, type ArrowChain } from './arrows';
import { arrowsAsSentences, setsTakenUp } from './discourse';
import { memberOf, membershipAsMeeting, type Member } from './membership';
import { everyReading } from '@/lib/llm/offline/linked';
import { nounModifierCues, prepositionCues } from './modifiers';
import { excludedMembers, governedAfter, isNegated, kindOfExcluded, negatedRetakes, otherMembers, type Mention } from './exclusion';
import { normalise } from '@/lib/llm/offline/text';
import { analyse } from '@/lib/nlp/english';
import { loadedMetagraph, type LoadedMetagraph } from '@/lib/kg/loaded-metagraph';
import { registryVersion } from './senses';
import { BoundedMemo } from '@/lib/base/memo';
import type {
  RelationCue,
  Anchor,
  AnswerType,
  Hop,
  LinkedEntity,
  LocatedEntity,
  Operator,
  OutputFormat,
  Proposition,
  QuestionOption,
  QuestionReading,
} from '@/lib/llm/offline/types';

export interface ReadInput {
  /** Entity links over the question text (offsets into it), e.g. from linkEntities. */
  links: LinkedEntity[];
  /** MCQ options, when they are not written into the question text. */
  options?: Record<string, string> | string[];
  /** Entity links of each option's text, by letter; inline options take theirs from `links`. */
  optionLinks?: Record<string, LinkedEntity[]>;
  /**
   * The reading of the question this text is a step of (X-R2's Q_t, a
   * re-decomposition): what the question sets aside stays set aside and its
   * negated anchors stay negated, however the step words them.
   */
  within?: QuestionReading;
}

interface Variable {
  id: string;
  kind: NodeKind;
  spans: Span[];
}

const FOCUS =
  /(?<![\p{L}])(?:which|what|whose|who|how many|(?<!\b(?:a|an)\s+(?:\w+\s+)?)number of|#|(?:no\.?|nr\.?|num\.?|n) of|count|list|name|identify|find|give|enumerate|determine|tell|provide|select|choose|pick)(?![\p{L}])/giu;
const FOCUS_WINDOW_WORDS = 5;
const INDEFINITE = new Set(['a', 'an', 'another', 'other', 'some', 'any', 'one', 'certain']);
const DEFINITE = new Set(['the', 'this', 'that', 'these', 'those', 'its', 'their', 'such', 'said', 'same', 'which', 'what', 'whose']);
// Between a kind word and the entity it describes: "the drug metformin", "the 'Apoptosis' pathway", "anatomy [liver]".
// "frustration (listed) as a side effect": a role given to the entity is an apposition too.
const APPOSITION_GAP =
  /^[\s"'“”‘’()[\],:-]*(?:(?:the|a|an|called|named|known as|(?:(?:listed|reported|recorded|noted|mentioned|given|known)\s+)?as)[\s"'“”‘’()[\],:-]*)*$/i;
const COPULA_BEFORE = /(?<![\p{L}])(?:is|are|was|were|be)\s+$/iu;
// "Is there a drug …", "Does any drug …", "Are there genes …": a yes/no question that introduces a kind. With "a"/"an" only
// when a clause or "exist" follows ("Does a drug exist that …"): "as a side effect", "constitutes a treatment for" name a relation.
// "any of the drugs …", "some of these genes …" introduce the kind as well.
const EXISTENTIAL = /\b(?:(?:any|some)(?:\s+of\s+(?:the|these|those))?|there(?: (?:is|are|exists?))?(?: (?:a|an|any|some))?)\s+$/i;
// "Which …", "List the …", "What are the other …" right before a collection's name: its members are asked for.
const COLLECTION_ASKED = /(?<![\p{L}])(?:which|what|list|name|enumerate|identify)(?:\s+(?:all|the|of|these|those|other|known|approved|are|were))*\s+$/iu;
// A selection of one among names that follow.
const SINGULAR_SELECTION = /\bwhich\s+(?:one\s+|single\s+)?(?:of\s+(?:these|those|the following)\b|is\b|one\b)|\bwhich\s*[?.!]*\s*$/i;
// A question word (with a noun or two) fronted before do-support: it is the object of the clause's verb ("what class do … belong to").
const FRONTED_OBJECT = /\b(?:what|which)\s+(?:[\p{L}-]+\s+){0,2}(?:do|does|did)\s/iu;
const RUN_GAP = /^[\s,;/?]*(?:\bor\b)?[\s,;/?]*$/i;
// The end of the question, or a last "which one?" asking to choose among the names before it.
const RUN_END = /^[\s.?!]*(?:(?:which|what)(?:\s+one)?[\s.?!]*)?$/i;
const TAKEN_UP = /^\s+(?:ones?|of them|are they|is it)\b/i;
const RELATIVE_CLAUSE = /^\s+(?:that|which|who|whose)\b/i;
// A demonstrative (and a modifier at most) right before a kind word: it takes up a set named before ("those drugs", "these etofibrate-like compounds").
const DEMONSTRATIVE = /(?<![\p{L}])(?:those|these|said|such|the same)\s+(?:[\p{L}-]+\s+)?$/iu;
// A pronoun read as the set an earlier sentence named (./discourse.ts).
const TAKEN_UP_SET = /^(?:those|these|them|they)$/i;
// A pronoun standing for a set ("resemble those treated by", "the ones that").
const SET_PRONOUN = /(?<![\p{L}])(?:those|the ones)(?![\p{L}])/giu;
// "Are there any genes …": a plural kind introduced by "there" is asked for in full.
const THERE_INTRODUCED = /\bthere\s+(?:(?:is|are|exists?)\s+)?(?:(?:any|some)\s+)?$/i;
const PARTICIPLE = /^\p{L}+(?:ed|ing)(?![\p{L}])/iu;
const INDEFINITE_INTRODUCED = { before: /\b(?:a|an)\s+$/i, after: /^\s+(?:that|which|who|exists?)\b/i };
// Between the asked kind and another word of its kind, a copula makes that word a predicate of the answer ("which drug here is a treatment for").
const PREDICATIVE = /^(?:\s+\w+){0,2}\s+(?:is|are|was|were|be|as|constitutes?|represents?)\s+(?:(?:a|an|the|one of the)\s+)?(?:[\p{L}-]+\s+)?$/iu;
// "Which gene has a protein that …", "genes whose products …": a node of the kind has no other of its kind but by a relation; the second is the first.
const POSSESSED = /^(?:\s+(?:that|which))?\s+(?:has|have|having|with|whose)\s+(?:(?:a|an|the|its|their)\s+)?(?:[\p{L}-]+\s+)?$/iu;
// Between the asked kind word and another of its kind: a copula or "as" makes the second a predicate ("which drug is a treatment for"),
// brackets or "encode" an apposition ("protein targets (genes)", "genes that encode proteins"), a possessive the same node.
const SAME_SET = new RegExp(
  `${PREDICATIVE.source}|^\\s*(?:[([,:/-]|or|and)\\s*$|^(?:\\s+\\w+){0,2}\\s+(?:encode|encodes|encoding|code for|codes for|coding for)\\s+(?:the\\s+)?$|${POSSESSED.source}`,
  'iu',
);
// "Which disease have …", "Which gene are …": the verb's number says a list is asked for, whatever the noun's.
const PLURAL_VERB = /^\s+(?:\w+\s+)?(?:are|have|do|were)\b/i;
// Where a clause ends: a sentence's end, a colon, a semicolon, a dash set off by spaces, a line break.
const CLAUSE_END = /[.?!](?=\s|$)|[:;](?=\s)|\s[—–-]\s|[—–]|\n/g;
// A word taking up an entity named in an earlier clause ("… which pathways is it in?"); "of these" points at options instead.
const SINGULAR_PRONOUN = /\b(?:it|its|hers)\b/gi;
const ANAPHOR =
  /\b(?:it|its|they|them|their|theirs|hers|those|the latter|the former|(?<!\bof\s)(?:this|these)|(?:that|the same) (?:group|class|family|set|category|condition|disease|drug|gene|pathway)s?)\b/gi;

/**
 * Whether a clause takes up what an earlier one named. "that" right after a
 * noun opens a relative clause ("the diseases that drugs in the class treat"),
 * not a demonstrative ("in that class").
 */
function takesUp(clause: string): boolean {
  // "…: lung cancer included?": "included" with nothing after it says "in the set named before".
  if (/\bincluded\b(?!\s+(?:in|among|on|within)\b)/i.test(clause)) return true;
  const words = analyse(clause);
  return [...clause.matchAll(ANAPHOR)].some((m) => {
    if (!/^that\s/i.test(m[0])) return true;
    const before = words.filter((w) => w.end <= m.index).at(-1);
    return !before || !['NOUN', 'PROPN'].includes(before.pos);
  });
}

/** What every method's question frame holds: the question, its options if given apart, and the entity links of both. */
export interface FramedQuestion {
  question: string;
  options: Record<string, string> | null;
  entities: LinkedEntity[];
  optionLinks: Record<string, LinkedEntity[]>;
}

/** The one reading of a method's question frame. */
export function readingOf(frame: FramedQuestion): QuestionReading {
  return readQuestion(frame.question, { links: frame.entities, options: frame.options ?? undefined, optionLinks: frame.optionLinks });
}

/**
 * The entities KG retrieval starts from: the reading's anchors and the two
 * ends of its yes/no claims, never an option (options are candidates, tested
 * against the anchors). A question the rules could not relate falls back to
 * the entities linked in its stem.
 */
export function seedEntities(reading: QuestionReading, entities: LinkedEntity[]): LinkedEntity[] {
  const seeds = [...reading.anchors.map((a) => a.entity), ...reading.propositions.flatMap((p) => [p.subject, p.object])];
  const inline = splitInlineOptions(reading.question).options;
  const fallback = entities.filter((e) => !insideOptions(e, inline));
  return [...new Map((seeds.length ? seeds : fallback).map((e) => [e.nodeId, e])).values()];
}

/** The options' linked nodes: the candidates an MCQ asks to test. */
export function candidateEntities(reading: QuestionReading): LinkedEntity[] {
  return [...new Map(reading.options.flatMap((o) => o.links.slice(0, 1)).map((e) => [e.nodeId, e])).values()];
}

/**
 * Readings made before, by the metagraph and senses they were read with (new ones read afresh), then by text and input: a run's
 * stages and offline roles read the same question again and again (BioWeave's operator check reads it in every round), and a
 * question asked again is read again. Readings are never changed by their readers.
 */
const readings = new WeakMap<LoadedMetagraph, BoundedMemo<string, QuestionReading>>();

export function readQuestion(text: string, input: ReadInput): QuestionReading {
  const graph = loadedMetagraph();
  let known = readings.get(graph);
  if (!known) readings.set(graph, (known = new BoundedMemo(500)));
  const key = JSON.stringify([registryVersion(), text, input.links, input.options ?? null, input.optionLinks ?? null, input.within ?? null]);
  return known.get(key, () => readNow(text, input));
}

function readNow(original: string, input: ReadInput, asSentences = false): QuestionReading {
  const text = withoutTrailingTags(original, input.links);
  const links = locate(input.links, text);
  const { stem, blanked: optionless, options, written } = readOptions(text, links, input);
  // An arrow note the chain rules of ./arrows.ts do not read is read as sentences, its question asked in its last part.
  const note = asSentences ? arrowsAsSentences(optionless) : null;
  const notes: string[] = [];
  const named = mentionsIn(links, written);
  const context: Span[] = [];
  const inAsking = askedMentions(named, note?.text ?? optionless, notes, context);
  // A clause read as context ("Subject: LCE6A-expressing tissues" above the ask, a case told before it) relates nothing to the
  // answer: its words are blanked (punctuation kept), so its relation and kind words join no chain.
  const blanked = context.reduce(
    (t, c) => t.slice(0, c.start) + t.slice(c.start, c.end).replace(/[\p{L}\p{N}]/gu, ' ') + t.slice(c.end),
    note?.text ?? optionless,
  );
  const mentions = onceEach(inAsking, findQuestionCues(blanked), blanked);
  const mentionSpans = mentions.map((m) => m[0] as Span);
  const cuesFound = findRelationCues(blanked).filter((c) => !mentionSpans.some((s) => overlaps(c, s)));
  // "palliated (relieved but not treated) by …": a bracket right after a relation phrase glosses it; its words name no relation of their own.
  const glossed = glosses(blanked, cuesFound, mentionSpans);
  const found = cuesFound.filter((c) => !glossed.some((g) => overlaps(c, g))).map((c) => withGloss(c, glossed, blanked));
  const questionCues = findQuestionCues(blanked).filter((c) => !mentionSpans.some((s) => overlaps(c, s)) && !glossed.some((g) => overlaps(c, g)));
  // With options to choose among ("Is it IL6, TNF or INS that …"), an opening "Is" picks one, unless the options are themselves yes and no.
  const choosing = options.length > 0 && !options.every((o) => /^(?:yes|no|true|false)$/i.test(o.text.trim()));
  const has = (cue: QuestionCue['cue']) => !(cue === 'yesno' && choosing) && questionCues.some((c) => c.cue === cue);

  const kindWords = findKindWords(blanked).filter((w) => !mentionSpans.some((s) => overlaps(w, s)));
  const free: KindWord[] = [];
  // "used to tx brain ca": a word that is both a kind noun and a relation phrase is the verb after "to".
  const infinitive = (w: KindWord) => found.some((c) => overlaps(c, w)) && /(?<![\p{L}])to\s+$/iu.test(blanked.slice(0, w.start));
  for (const word of kindWords) if (!word.weak && !infinitive(word) && !settleApposition(word, mentions, blanked, found)) free.push(word);
  // "X binds some proteins. Which tissues express those?": a pronoun taking up a set named in an earlier sentence stands for it.
  free.push(...setsTakenUp(blanked, free, mentionSpans, options.length > 0, found));
  free.sort((a, b) => a.start - b.start);
  // "drugs for gout", "asthma drugs": the preposition or the noun modifier relates the kind word to the entity, where no phrase of the registry stands.
  const beside = (cues: RelationCue[]) => cues.filter((m) => !found.some((c) => overlaps(c, m)));
  const asked = [...found, ...beside(prepositionCues(blanked, free, mentions))].sort((a, b) => a.start - b.start);
  // A chain written with arrows, or a yes/no on whether an entity belongs to a chain's set, is read as such first.
  const arrows = note ? null : readArrowChain(blanked, mentions, kindWords, asked);
  if (!arrows && !note && arrowsAsSentences(blanked)) return readNow(text, input, true);
  // A noun modifier stands between a question word and its kind word ("Which asthma drugs"): it joins the relations once the focus is found.
  const relations = [...asked, ...beside(nounModifierCues(blanked, free, mentions))].sort((a, b) => a.start - b.start);
  // "Betaxolol — among the drugs treating …?": with no asking word, an entity set before "among" or "one of" a set of its kind asks whether it belongs.
  const stated =
    !has('yesno') && !options.length && blanked.search(FOCUS) < 0 && /\?\s*$/.test(blanked) && !!memberOf(mentions, free, relations, blanked, true);
  // The sentence that asks a yes/no: a topic sentence before it ("X is a drug that …") states no membership.
  const askingFrom = has('yesno') ? Math.min(...questionCues.filter((c) => c.cue === 'yesno').map((c) => sentenceStart(c.start, blanked))) : 0;
  const membership = (has('yesno') || stated) && !options.length ? readMembership(arrows, mentions, free, relations, questionCues, blanked, askingFrom) : null;
  // A yes/no clause introduces a kind only after its opener ("I'm doing some drug repurposing work. Does X bind any of the genes …").
  // A trailing cue ("…, yes or no?", "… y/n") asks about its whole clause: the clause opens where it starts.
  const opener = has('yesno')
    ? Math.min(...questionCues.filter((c) => c.cue === 'yesno').map((c) => (trailing(c, blanked) ? clauseStart(c.start, blanked) : c.start)))
    : 0;
  // "Is peptic ulcer a side effect caused by X?": a kind word an entity is said to be, over a set of one hop, is a claim on the pair.
  const predicated = has('yesno') && !membership && !arrows ? memberOf(mentions, free, relations, blanked, false, askingFrom) : null;
  const predicate = predicated?.word;
  const worded = restated(
    membership
      ? null
      : arrows
        ? { word: arrows.word, asked: !has('yesno') }
        : earlier(
            collectionFocus(blanked, mentions, free),
            focusWord(
              note ? ' '.repeat(note.last) + blanked.slice(note.last) : blanked,
              free.filter((w) => w !== predicate && (!note || w.start >= note.last)),
              asked,
              has('yesno'),
              opener,
              mentionSpans,
            ),
          ),
    free,
    blanked,
  );
  const subject = subjectAsked(worded, blanked, relations);
  const focused = subject ? null : optionsFocus(worded, options, free, blanked);
  const focus = focused?.word ?? null;
  // "Are there any genes linked to both …?", "Is there a gene …? Which ones?": an opening auxiliary that introduces a plural kind, or
  // a question word asking for it, asks for the members, not a verdict.
  // "niacin upregulate WIF1", "droxidopa HTR1A binding": two entities and a relation joining them, with nothing asked for, state a claim to check.
  const claim = !focused && !options.length && !kindWords.length && blanked.search(FOCUS) < 0 && statesClaim(mentions, relations);
  const yesno = (has('yesno') && !focused?.asked) || claim || !!membership;

  let answerKind: NodeKind | null = membership?.answerKind ?? focus?.kind ?? null;
  let answerKindFrom: QuestionReading['answerKindFrom'] = focus || membership ? 'noun' : null;
  const propositional = yesno && !focus && !membership;
  if (!answerKind && !propositional) {
    const adverb = kindWords.find((w) => w.weak);
    const fromOptions = optionKind(options);
    const fromExcluded = kindOfExcluded(questionCues, mentions, blanked);
    const fromRelation = relationKind(mentions, relations);
    [answerKind, answerKindFrom] = adverb
      ? [adverb.kind, 'adverb']
      : fromOptions
        ? [fromOptions, 'options']
        : subject
          ? [subject, 'relation']
          : fromExcluded
            ? [fromExcluded, 'excluded']
            : fromRelation
              ? [fromRelation, 'relation']
              : [null, null];
  }

  let anchors: Anchor[] = [];
  let propositions: Proposition[] = [];
  const excluded: LocatedEntity[] = [];
  if (membership) {
    anchors = membership.anchors;
    notes.push(membership.note);
  } else if (arrows) {
    anchors = [arrows.anchor];
  } else if (propositional) {
    const pairNotes: string[] = [];
    ({ anchors, propositions } = readPropositions(...asMember(predicated, mentions, relations), questionCues, pairNotes));
    const meeting = propositions.length ? null : meetingThroughMembers(mentions, relations);
    if (meeting) {
      ({ anchors, answerKind } = meeting);
      answerKindFrom = 'relation';
      notes.push(`read as whether a member of ${meeting.anchors[0].entity.name} joins ${meeting.anchors[1].entity.name}`);
    } else notes.push(...pairNotes);
  } else if (answerKind) {
    // "Which drugs other than metformin …": an entity of the answer's kind after an exclusion is left out of the answers, not a constraint.
    // An entity named twice, once set aside as a member and once as a constraint ("Other than asthma, which diseases share a
    // drug with asthma?", "genes interacting with BRCA1, not counting BRCA1 itself"), holds both roles: the member is left out
    // of the answers, the other mention relates to them. So the repeats onceEach dropped are read for members too.
    const repeats = inAsking.filter((m) => !mentions.some((k) => k[0].start === m[0].start));
    const all = [...mentions, ...repeats].sort((a, b) => a[0].start - b[0].start);
    const cued = excludedMembers(answerKind, questionCues, all, blanked);
    const members = [...cued, ...otherMembers(answerKind, focus, mentions, blanked).filter((o) => !cued.some((c) => c.mention === o.mention))];
    const setAside = new Set(input.within?.excluded.map((e) => e.nodeId));
    const carried = mentions.filter((m) => !members.some((x) => x.mention === m) && m.some((l) => setAside.has(l.nodeId)));
    excluded.push(...members.map((m) => m.entity), ...carried.map((m) => m.find((l) => setAside.has(l.nodeId))!));
    const spent = new Set(cued.map((m) => m.cue));
    const kept = mentions.filter((m) => !members.some((x) => x.mention === m) && !carried.includes(m));
    const names = (m: Mention, id: string) => m.some((l) => l.nodeId === id);
    // Only a repeat in the sentence that sets the member aside: a name told in a sentence before ("… regadenoson. Apart from
    // regadenoson, which …") is context.
    const sameSentence = (m: Mention, c: (typeof cued)[number]) =>
      !/[.?!](?=\s)/.test(blanked.slice(Math.min(m[0].end, c.cue.end), Math.max(m[0].start, c.cue.start)));
    const restored = repeats.filter(
      (m) =>
        !members.some((x) => x.mention === m) &&
        cued.some((c) => names(m, c.entity.nodeId) && sameSentence(m, c) && !kept.some((k) => names(k, c.entity.nodeId))),
    );
    const constraining = all.filter((m) => kept.includes(m) || restored.includes(m));
    anchors = readAnchors(
      answerKind,
      focus,
      free,
      constraining,
      relations,
      questionCues.filter((c) => !spent.has(c)),
      blanked,
      notes,
    );
    const negatedBefore = new Set(input.within?.anchors.filter((a) => a.negated).map((a) => a.entity.nodeId));
    anchors = anchors.map((a) => (negatedBefore.has(a.entity.nodeId) ? { ...a, negated: true } : a));
  } else {
    notes.push('answer kind could not be determined: no kind word, option kinds or relation phrase');
  }
  if (!mentions.length) notes.push('no linked entity in the question');
  for (const a of anchors) if (!a.chain.length) notes.push(`no relation links ${a.entity.name} (${a.entity.kind}) to the answer`);
  if (anchors.length && anchors.every((a) => a.negated)) notes.push('every anchor is negated: the complement of a set is not derivable from evidence');
  const comparisons = questionCues.filter((c) => c.cue === 'comparison' && !relations.some((r) => overlaps(r, c)));
  for (const c of comparisons) notes.push(`comparison cue '${c.phrase}' is not modelled; answers are ranked by support`);

  const operator = operatorOf(anchors, yesno, has('count'));
  const outputFormat: OutputFormat = options.length
    ? 'option'
    : has('count')
      ? 'count'
      : yesno
        ? 'yesno'
        : has('list') || focus?.plural || (focus && PLURAL_VERB.test(blanked.slice(focus.end))) || numberless(answerKindFrom, has('single'))
          ? 'list'
          : 'single';
  const hops = anchors.reduce<Hop[]>((longest, a) => (a.chain.length > longest.length ? a.chain : longest), []);
  const understanding: QuestionReading = {
    question: text,
    stem,
    answerKind,
    answerKindFrom,
    operator,
    outputFormat,
    answerType: ANSWER_TYPES[outputFormat],
    anchors,
    hops,
    propositions,
    excluded,
    options: options.map(({ letter, text, links }) => ({ letter, text, links })),
    stemEntities: [...new Map(named.flat().map((e) => [`${e.nodeId}@${e.start}`, e])).values()],
    cues: { relations, question: questionCues },
    subquestions: [],
    notes,
  };
  understanding.subquestions = writeSubquestions(understanding);
  return understanding;
}

/** A relation phrase spans its gloss, and a "by" after it, so the words it relates are as near as without the gloss. */
function withGloss(cue: RelationCue, glossed: Span[], text: string): RelationCue {
  const gloss = glossed.find((g) => g.start >= cue.end && /^\s*$/.test(text.slice(cue.end, g.start)));
  if (!gloss) return cue;
  const by = /^\s+by(?![\p{L}])/u.exec(text.slice(gloss.end));
  return { ...cue, end: gloss.end + (by?.[0].length ?? 0), ...(by ? { voice: 'passive' as const } : {}) };
}

/** Brackets right after a relation phrase, with no entity inside: glosses of that phrase ("palliate (relieve, not treat)"). */
function glosses(text: string, cues: RelationCue[], named: Span[]): Span[] {
  return [...text.matchAll(/\(([^()]*)\)/g)]
    .map((m) => ({ start: m.index, end: m.index + m[0].length }))
    .filter((b) => !named.some((n) => overlaps(n, b)) && cues.some((c) => c.end <= b.start && /^\s*$/.test(text.slice(c.end, b.start))));
}

/** No noun names the answer ("What is targeted by X?", "X binders?"): nothing says one, so every answer is asked for. */
function numberless(from: QuestionReading['answerKindFrom'], single: boolean): boolean {
  return (from === 'relation' || from === 'adverb') && !single;
}

const ANSWER_TYPES: Record<OutputFormat, AnswerType> = {
  single: 'entity',
  list: 'entity_list',
  count: 'integer',
  option: 'option_letter',
  yesno: 'yes_no',
};

/**
 * A yes/no on whether an entity belongs to the set a chain reaches (an arrow
 * note's last set, or a kind word the entity stands as a member of): the set
 * read as a list question's answer, then as the meeting of its chain and the
 * member (./membership.ts). Null where no such reading holds.
 */
function readMembership(
  arrows: ArrowChain | null,
  mentions: Mention[],
  free: KindWord[],
  relations: RelationCue[],
  questionCues: QuestionCue[],
  text: string,
  from: number,
): { anchors: Anchor[]; answerKind: NodeKind; note: string } | null {
  let set: { anchors: Anchor[]; member: LocatedEntity; kind: NodeKind } | null = null;
  if (arrows?.member) set = { anchors: [arrows.anchor], member: arrows.member, kind: arrows.answerKind };
  else if (!arrows) {
    const member = memberOf(mentions, free, relations, text, false, from);
    if (!member) return null;
    const rest = mentions.filter((_, i) => i !== member.index);
    set = { anchors: readAnchors(member.word.kind, member.word, free, rest, relations, questionCues, text, []), member: member.entity, kind: member.word.kind };
  }
  const meeting = set && membershipAsMeeting(set.anchors, set.member);
  if (!set || !meeting) return null;
  return {
    ...meeting,
    note: `whether ${set.member.name} is among the ${kindPlural(set.kind)} the chain reaches: read as whether a ${meeting.answerKind.toLowerCase()} joins both the chain and ${set.member.name}`,
  };
}

/** Hashtags closing a post ("… or asthma? #pharmacology #help"). */
const TRAILING_TAGS = /(?:(?<=^|\s)#[\p{L}][\p{L}\p{N}_-]*\s*)+$/u;

/**
 * Hashtags that close the text label its topic; they ask nothing and lay out nothing (a '#' would read as a count, its word as a
 * last option or a kind). Blanked with the same offsets; a tag whose word is a linked mention keeps the word, losing only its '#'.
 */
function withoutTrailingTags(text: string, links: LinkedEntity[]): string {
  const tags = TRAILING_TAGS.exec(text);
  if (!tags) return text;
  const located = locate(links, text);
  const tail = text.slice(tags.index).replace(/#([\p{L}][\p{L}\p{N}_-]*)/gu, (tag, word: string, at: number) => {
    const start = tags.index + at + 1;
    const linked = located.some((l) => l.start < start + word.length && l.end > start);
    return linked ? ` ${word}` : ' '.repeat(tag.length);
  });
  return text.slice(0, tags.index) + tail;
}

/** Links with their offsets; one without (EntityLink offsets are optional) is placed at its mention's first whole-word occurrence. */
function locate(links: LinkedEntity[], text: string): LocatedEntity[] {
  return everyReading(links).flatMap((l) => {
    const span = spanOf(l, text);
    return span ? [{ ...l, ...span }] : [];
  });
}

function spanOf(l: LinkedEntity, text: string): { start: number; end: number } | null {
  if (l.start !== undefined && l.end !== undefined) return { start: l.start, end: l.end };
  const escaped = l.mention.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const found = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'iu').exec(text);
  return found ? { start: found.index, end: found.index + found[0].length } : null;
}

/**
 * The options, however they arrive (given apart, written inline, or both), as
 * ONE set of candidates; with them the stem to show and the question with any
 * inline options blanked out (same offsets) to read, so an option written in
 * the text is never read as an anchor. With both, the options given apart are
 * the set; an inline option lends its links to the one with its letter or text.
 */
function readOptions(text: string, links: LocatedEntity[], input: ReadInput): { stem: string; blanked: string; options: QuestionOption[]; written: Span[] } {
  const split = withinNames(splitInlineOptions(text), links, text);
  const inline = split.options.length ? split : linkedOptions(text, links);
  const written = inline.options.map((o) => ({ start: o.start!, end: o.end! }));
  const placed = inline.options.map((o) => ({
    letter: o.letter,
    text: o.text,
    links: input.optionLinks?.[o.letter] ?? links.filter((l) => insideOptions(l, [o])),
  }));
  if (!input.options) {
    // "Is it Purines... no wait, let me list them: Purines, …": an option named again outside the list is that option, not an anchor.
    const placedNodes = new Set(placed.flatMap((o) => o.links.map((l) => l.nodeId)));
    const again = writtenTogether(
      links.filter((l) => !written.some((w) => overlaps(l, w)) && placedNodes.has(l.nodeId)),
      text,
    );
    const blanked = blankOut(inline.blanked, again);
    return { stem: inline.stem, blanked, options: placed, written: [...written, ...again.map((l) => ({ start: l.start, end: l.end }))] };
  }
  const given = parseOptions(input.options);
  const options = given.map((o) => {
    const same =
      placed.find((p) => normalise(p.text) === normalise(o.text)) ?? (given.length === placed.length ? placed.find((p) => p.letter === o.letter) : undefined);
    const links = input.optionLinks?.[o.letter]?.length ? input.optionLinks[o.letter] : (same?.links ?? []);
    return { letter: o.letter, text: o.text, links };
  });
  // Given apart and written in the text in a form no layout rule knows ("… class obesity ocular cancer or atopic dermatitis"):
  // a mention of a given option, by its node or its words, is that option, not an anchor.
  const optionNodes = new Set(options.flatMap((o) => o.links.map((l) => l.nodeId)));
  const optionTexts = new Set(given.map((o) => normalise(o.text)));
  const mentioned = writtenTogether(
    links.filter((l) => !written.some((w) => overlaps(l, w)) && (optionNodes.has(l.nodeId) || optionTexts.has(normalise(text.slice(l.start, l.end))))),
    text,
  );
  const blanked = blankOut(inline.blanked, mentioned);
  return { stem: inline.stem, blanked, options, written: [...written, ...mentioned.map((l) => ({ start: l.start, end: l.end }))] };
}

/**
 * Options written again in the text are those written together, two or more side by side with nothing but separators
 * between them ("… obesity ocular cancer or atopic dermatitis", "Is it A or B... no, here they are: …"); one option
 * named alone is the stem's entity ("interact with NPY2R" where NPY2R is also an option).
 */
function writtenTogether(mentions: LocatedEntity[], text: string): LocatedEntity[] {
  const spans = [...new Map(mentions.map((l) => [`${l.start}:${l.end}`, l])).values()].sort((a, b) => a.start - b.start);
  const joined = (a: LocatedEntity, b: LocatedEntity) => /^[\s,;/|?.!]*(?:(?:or|and|nor)\b[\s,;]*)?$/i.test(text.slice(a.end, b.start));
  const together = new Set(
    spans.filter((l, i) => (i > 0 && joined(spans[i - 1], l)) || (i + 1 < spans.length && joined(l, spans[i + 1]))).map((l) => `${l.start}:${l.end}`),
  );
  return mentions.filter((l) => together.has(`${l.start}:${l.end}`));
}

/**
 * A comma inside a linked name ("Vomiting, Anticipatory", "Purpura, Hyperglobulinemic") separates no options: options
 * a single link spans are one.
 */
function withinNames(split: InlineOptions, links: LocatedEntity[], text: string): InlineOptions {
  const merged: ParsedOption[] = [];
  for (const [i, o] of split.options.entries()) {
    const last = merged.at(-1);
    if (last && links.some((l) => l.start <= last.start! && l.end >= o.end!))
      merged[merged.length - 1] = { ...last, text: text.slice(last.start, o.end), end: o.end };
    else merged.push(...namesOf(wholeName(o, split.options[i - 1], split.options[i + 1], links, text), links, text));
  }
  const same = merged.length === split.options.length && merged.every((o, i) => o.start === split.options[i].start && o.end === split.options[i].end);
  if (same) return split;
  if (merged.length < 2) return { stem: text, blanked: text, options: [] };
  const grown = merged[0].start! < split.options[0].start! || merged.at(-1)!.end! > split.options.at(-1)!.end!;
  const from = Math.min(merged[0].start!, split.options[0].start!);
  const to = Math.max(merged.at(-1)!.end!, split.options.at(-1)!.end!);
  const blanked = blankOut(
    split.blanked,
    merged.map((o) => ({ start: o.start!, end: o.end! })),
  );
  const stem = grown ? `${text.slice(0, from).trimEnd()} ${text.slice(to).trimStart()}`.trim() : split.stem;
  return { stem, blanked, options: merged.map((o, i) => ({ ...o, letter: String.fromCharCode(65 + i) })) };
}

/**
 * An item the list's layout cut inside a name ("is it purines or xanthines or nucleoside reverse transcriptase inhibitors
 * that treat …", the last item as long as the others; "which of these hepatitis b …", "hepatitis" read as the items'
 * kind) runs to that name's ends, short of the items beside it.
 */
function wholeName(o: ParsedOption, prev: ParsedOption | undefined, next: ParsedOption | undefined, links: LocatedEntity[], text: string): ParsedOption {
  const end = Math.max(
    o.end!,
    ...links.filter((l) => l.start >= o.start! && l.start < o.end! && l.end > o.end! && (!next || l.end <= next.start!)).map((l) => l.end),
  );
  const start = Math.min(
    o.start!,
    ...links.filter((l) => l.start < o.start! && l.end > o.start! && l.end <= end && (!prev || l.start >= prev.end!)).map((l) => l.start),
  );
  return end === o.end && start === o.start ? o : { ...o, text: text.slice(start, end), start, end };
}

/**
 * Dictated without commas ("… diseases hepatitis b asthma glaucoma or migraine"), one item of a list may hold several:
 * an item wholly made of two or more linked names of one kind, with nothing but spaces between them, is one option each.
 */
function namesOf(o: ParsedOption, links: LocatedEntity[], text: string): ParsedOption[] {
  const inside = links.filter((l) => l.end > l.start && l.start >= o.start! && l.end <= o.end!);
  const outer = [...new Map(outermost(inside).map((l) => [`${l.start}:${l.end}`, l])).values()].sort((a, b) => a.start - b.start);
  if (outer.length < 2 || outer[0].start !== o.start || outer.at(-1)!.end !== o.end) return [o];
  if (!outer.every((l, i) => i === 0 || /^\s+$/.test(text.slice(outer[i - 1].end, l.start)))) return [o];
  const kindsAt = (l: LocatedEntity) => inside.filter((x) => x.start === l.start && x.end === l.end).map((x) => x.kind);
  const shared = outer.slice(1).reduce((ks, l) => ks.filter((k) => kindsAt(l).some((x) => sameKind(x, k))), kindsAt(outer[0]));
  if (!shared.length) return [o];
  return outer.map((l) => ({ letter: o.letter, text: text.slice(l.start, l.end), start: l.start, end: l.end }));
}

/**
 * Options written as a bare run of names closing the question ("which of
 * these interacts with upf3a arpc4 exosc2 or ssr4", "which is a CYP2C9
 * inducer propofol chloramphenicol phenytoin boceprevir", "side effect of
 * gout drugs nausea alopecia hiccups or tinnitus", "… nausea? alopecia?
 * tinnitus?"): linked names of one kind (any of their readings), separated by
 * nothing but spaces, commas, slashes, question marks or "or" (names joined
 * by "and" are a conjunction), up to the end or a last "which one". Three or
 * more, or two joined by "or". They are choices where a singular selection
 * governs them, or where the question names one thing of their kind and no
 * relation phrase takes them as its object ("which gene interacts with BRCA1
 * or TP53" names anchors).
 */
function linkedOptions(text: string, links: LocatedEntity[]): InlineOptions {
  const none = { stem: text, blanked: text, options: [] };
  const named = new Map<string, { start: number; end: number; kinds: NodeKind[] }>();
  for (const l of links) {
    const key = `${l.start}:${l.end}`;
    const span = named.get(key) ?? { start: l.start, end: l.end, kinds: [] };
    span.kinds.push(l.kind);
    named.set(key, span);
  }
  const run: { start: number; end: number; kinds: NodeKind[] }[] = [];
  let kinds: NodeKind[] = [];
  let joined = false;
  for (const span of [...named.values()].sort((a, b) => b.start - a.start)) {
    const next = run[0];
    const gapText = text.slice(span.end, next ? next.start : text.length);
    if (!(next ? RUN_GAP : RUN_END).test(gapText)) break;
    const shared = next ? kinds.filter((k) => span.kinds.some((x) => sameKind(x, k))) : span.kinds;
    if (!shared.length) break;
    kinds = shared;
    joined ||= !!next && /\bor\b|\//i.test(gapText);
    run.unshift(span);
  }
  if (!run.length) return openedOptions(text, [...named.values()]) ?? none;
  const selection = SINGULAR_SELECTION.exec(text);
  // A cue inside a linked name ("… reverse transcriptase inhibitors") is part of that name, not a relation taking the run.
  const objectCues = findRelationCues(text).filter(
    (c) =>
      c.end <= run[0].start &&
      !links.some((l) => overlaps(c, l)) &&
      /^[\s,:;-]*(?:(?:with|to|of|by|in|on|for|from|as|at)\s+)?(?:(?:the|a|an)\s+)?$/i.test(text.slice(c.end, run[0].start)),
  );
  const object = objectCues.length > 0;
  if (selection && selection.index + selection[0].length <= run[0].start) {
    // "which of these interacts with upf3a arpc4 exosc2 or ssr4": with nothing named before the run, its first name is what the
    // options relate to. "which one is a side effect of drugs that treat psoriasis lipidosis bronchitis or …": a first name
    // the relation phrase before it takes as its object, by a reading of a kind the other names lack, is that relation's end.
    const rest = run.slice(1).reduce<NodeKind[]>((shared, r) => shared.filter((k) => r.kinds.some((x) => sameKind(x, k))), run[1]?.kinds ?? []);
    const objectOf = run[0].kinds.some(
      (k) =>
        !rest.some((r) => sameKind(r, k)) &&
        objectCues.some((c) => c.metaedges.some((m) => [metaedgeInfo(m)?.source, metaedgeInfo(m)?.target].some((e) => !!e && sameKind(e, k)))),
    );
    if (run.length >= 4 && (objectOf || !links.some((l) => l.end <= run[0].start))) run.shift();
  } else {
    const askedWords = findKindWords(text).filter((w) => w.end <= run[0].start && !w.plural && kinds.some((k) => sameKind(k, w.kind)));
    // "what class do the drugs for gout belong to A or B or C": the question word (and its noun), fronted before "do", is
    // already the object of the clause's relation, so the run after that relation is no object of it but the choices.
    const fronted = FRONTED_OBJECT.test(text.slice(0, run[0].start));
    const closing = SINGULAR_SELECTION.test(text.slice(run.at(-1)!.end));
    // "… treat what hepatitis b or asthma or glaucoma": a bare question word right before the closing run asks over it.
    const bare = /\b(?:what|which)\s+$/i.test(text.slice(0, run[0].start));
    if (!((askedWords.length > 0 && !object) || fronted || closing || bare || askedNounBefore(text, run[0].start)))
      return openedOptions(text, [...named.values()]) ?? none;
  }
  if (run.length < 3 && !(run.length === 2 && joined)) return openedOptions(text, [...named.values()]) ?? none;
  const from = run[0].start;
  const to = run.at(-1)!.end;
  return {
    stem: `${text.slice(0, from).trimEnd()}${text.slice(to)}`.trim(),
    blanked: blankOut(text, [{ start: from, end: to }]),
    options: lettered(run, text),
  };
}

// A singular selection right before a run of names, the run then its object wherever it ends ("which one of A B C or D has …").
const OPENS_RUN = /(?:\bwhich\s+(?:one\s+|single\s+)?of|\b(?:from\s+)?among|\bout\s+of|\bbetween|\b(?:is|was|would|could)\s+it(?:\s+be)?)\s+$/i;
// "among A B and C, which …": after such an opener, "and" joins the choices too.
const OPENS_SET = /(?:\bamong|\bout\s+of|\bbetween)\s+$/i;
const SET_GAP = /^[\s,;/?]*(?:\b(?:or|and)\b)?[\s,;/?]*$/i;

/** "… in which class A B or C", "which disease hepatitis b asthma …": the question word's own noun right before the run asks to choose one. */
function askedNounBefore(text: string, at: number): boolean {
  const asked = /\b(?:which|what)\s+([\p{L}-]+)\s+$/iu.exec(text.slice(0, at));
  if (!asked) return false;
  const start = asked.index + asked[0].lastIndexOf(asked[1]);
  const word = analyse(text).find((w) => w.start === start);
  return word?.pos === 'NOUN' && word.lemma === word.text.toLowerCase();
}

/** "among asthma psoriasis and eczema which genes are shared": a plural question after the names asks about them, not among them. */
function pluralAsked(text: string, at: number): boolean {
  const asked = /^[\s,]*(?:which|what)\s+([\p{L}-]+)/iu.exec(text.slice(at));
  if (!asked) return false;
  const word = analyse(text).find((w) => w.start === at + asked[0].length - asked[1].length);
  return /^(?:are|were|have|do)$/i.test(asked[1]) || (!!word && word.pos === 'NOUN' && word.lemma !== word.text.toLowerCase());
}

/**
 * A run of linked names of one kind right after a singular selection, in the middle of the question ("hey which one of
 * nucleoside reverse transcriptase inhibitors purines xanthines or allergens has a drug for …"): the choices, the clause
 * after them the question. Three or more, or two joined by "or".
 */
function openedOptions(text: string, named: { start: number; end: number; kinds: NodeKind[] }[]): InlineOptions | null {
  const outer = outermost(named).sort((a, b) => a.start - b.start);
  const first = outer.findIndex((l) => OPENS_RUN.test(text.slice(0, l.start)) || askedNounBefore(text, l.start));
  if (first < 0) return null;
  const gap = OPENS_SET.test(text.slice(0, outer[first].start)) ? SET_GAP : RUN_GAP;
  const run = [outer[first]];
  let kinds = outer[first].kinds;
  let joined = false;
  for (const span of outer.slice(first + 1)) {
    const gapText = text.slice(run.at(-1)!.end, span.start);
    const shared = kinds.filter((k) => span.kinds.some((x) => sameKind(x, k)));
    if (!gap.test(gapText) || !shared.length) break;
    kinds = shared;
    joined ||= /\bor\b|\/|\band\b/i.test(gapText);
    run.push(span);
  }
  if (run.length < 3 && !(run.length === 2 && joined)) return null;
  if (gap === SET_GAP && pluralAsked(text, run.at(-1)!.end)) return null;
  const from = run[0].start;
  const to = run.at(-1)!.end;
  return {
    stem: `${text.slice(0, from).trimEnd()} ${text.slice(to).trimStart()}`.trim(),
    blanked: blankOut(text, [{ start: from, end: to }]),
    options: lettered(run, text),
  };
}

/**
 * Links outside the inline options, grouped by span, in text order. A link nested in a longer one is
 * dropped ("disease" inside "Crohn's disease"), as is a link whose mention is
 * only a kind word ("gene").
 */
function mentionsIn(links: LocatedEntity[], written: Span[]): Mention[] {
  const inStem = links.filter((l) => l.end > l.start && !written.some((o) => overlaps(l, o)));
  const outer = inStem.filter((l) => !inStem.some((o) => o.start <= l.start && o.end >= l.end && o.end - o.start > l.end - l.start));
  const meaningful = outer.filter((l) => {
    const words = findKindWords(l.mention);
    return !(words.length === 1 && normalise(words[0].phrase) === normalise(l.mention));
  });
  const groups = new Map<string, Mention>();
  for (const l of meaningful) {
    const key = `${l.start}:${l.end}`;
    const group = groups.get(key) ?? [];
    if (!group.some((g) => g.nodeId === l.nodeId)) group.push(l);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => a[0].start - b[0].start);
}

/**
 * The same node mentioned twice constrains once, where the question names it
 * last ("My dad takes miglitol. Is miglitol one of …", "… regadenoson. Apart
 * from regadenoson, which …"), unless a negation governs that mention and not
 * the earlier one ("has autism … even if they don't treat the autism itself").
 * A mention inside a set an exclusion names by a clause ("tissues expressing
 * KIT, except those where KIT is downregulated") constrains apart: the node
 * is kept through one relation and set aside through another, both at once.
 */
function onceEach(mentions: Mention[], cues: QuestionCue[], text: string): Mention[] {
  const negated = new Set(cues.filter((c) => c.cue === 'negation').flatMap((c) => governedAfter(c, mentions, text)));
  const inExcludedSet = new Set(
    cues
      .filter((c) => c.cue === 'exclusion')
      .flatMap((c) => governedAfter(c, mentions, text, true).filter((m) => !governedAfter(c, mentions, text).includes(m))),
  );
  const once = (group: Mention[]) => {
    const seen = new Set<string>();
    return group.filter((m) => {
      const fresh = m.some((l) => !seen.has(l.nodeId));
      for (const l of m) seen.add(l.nodeId);
      return fresh;
    });
  };
  const last = [...mentions].reverse().filter((m) => !inExcludedSet.has(m));
  const kept = new Set([...once([...last.filter((m) => !negated.has(m)), ...last.filter((m) => negated.has(m))]), ...once([...inExcludedSet].reverse())]);
  return mentions.filter((m) => kept.has(m));
}

/**
 * A question wrapped in context ("A 30-year-old with gout is seen in clinic.
 * Which drugs treat gout?", "Checking a hERG paper: does X bind Y?", "Found
 * X in my screen — which pathways …?"): the clauses that ask (a question
 * mark, a question word or cue) are read for the constraints. Entities named
 * only in the other clauses are context and left out, when the asking
 * clauses name entities of their own and take up none by a pronoun.
 */
function askedMentions(mentions: Mention[], text: string, notes: string[], context: Span[]): Mention[] {
  const clauses: Span[] = [];
  let from = 0;
  for (const end of text.matchAll(CLAUSE_END)) {
    clauses.push({ start: from, end: end.index + end[0].length });
    from = end.index + end[0].length;
  }
  if (from < text.length) clauses.push({ start: from, end: text.length });
  // A clause naming entities and nothing else ("AKT1 — downregulated in lung?", "Metformin: …") is the topic of the next, not context.
  const topic = (c: Span) =>
    !/[\p{L}\p{N}]/u.test(
      mentions
        .filter((m) => m[0].start >= c.start && m[0].end <= c.end)
        .reduce((t, m) => t.replace(text.slice(m[0].start, m[0].end), ' '), text.slice(c.start, c.end)),
    );
  // Where a clause ends in a question mark, a clause without one asks only when it opens with its asking word ("List …",
  // "I'd like to know which …"): further in, "who" and "which" are relative pronouns of a narrative ("a patient who uses …").
  const questioned = clauses.some((c) => /\?\s*$/.test(text.slice(c.start, c.end)));
  const asking = clauses.filter((c) => asks(text.slice(c.start, c.end), questioned) || topic(c));
  if (!asking.length || asking.length === clauses.length) return mentions;
  const inAsking = (m: Mention) => asking.some((c) => m[0].start >= c.start && m[0].end <= c.end);
  if (!mentions.some(inAsking)) return pronounPlaced(mentions, asking, text, notes);
  const asked = mentions.filter(inAsking);
  // A word taking up what was named before keeps the context; "it"/"its"/"hers" takes up one entity, the first named ("I study ABT1
  // and its role in cell cycle control. Which of its interacting genes …").
  for (const c of asking) {
    const clause = text.slice(c.start, c.end);
    const pronoun = new RegExp(SINGULAR_PRONOUN.source, 'i').exec(clause);
    const taken = mentions.find((x) => !inAsking(x));
    if (!pronoun || !taken || takesUp(clause.replace(SINGULAR_PRONOUN, ' '))) continue;
    notes.push(`'${pronoun[0]}' takes up ${taken[0].name}`);
    // The entity stands where its pronoun does, so it relates through the words around the pronoun ("diseases similar to hers").
    const at = { start: c.start + pronoun.index, end: c.start + pronoun.index + pronoun[0].length };
    const placed = standsIn(at, text) ? taken.map((l) => ({ ...l, ...at })) : taken;
    return mentions
      .filter((m) => inAsking(m) || m === taken)
      .map((m) => (m === taken ? placed : m))
      .sort((a, b) => a[0].start - b[0].start);
  }
  if (asking.some((c) => takesUp(text.slice(c.start, c.end)))) return mentions;
  const kept = new Set(asked.flat().map((l) => l.nodeId));
  // The clauses whose entities are left out are context as a whole (the caller blanks their words).
  context.push(...clauses.filter((c) => !asking.includes(c) && mentions.some((m) => m[0].start >= c.start && m[0].end <= c.end)));
  for (const m of mentions)
    if (!m.some((l) => kept.has(l.nodeId)) && !inAsking(m)) notes.push(`${m[0].name} is named outside the clause that asks: read as context, not a constraint`);
  return asked;
}

/**
 * "Take PRPS1. Which diseases show downregulation of the genes it regulates?": the asking clauses name no entity, and the
 * one entity named before is taken up by a pronoun standing in place (standsIn): it stands where the pronoun does.
 */
function pronounPlaced(mentions: Mention[], asking: Span[], text: string, notes: string[]): Mention[] {
  if (mentions.length !== 1) return mentions;
  for (const c of asking) {
    const pronoun = new RegExp(SINGULAR_PRONOUN.source, 'i').exec(text.slice(c.start, c.end));
    if (!pronoun) continue;
    const at = { start: c.start + pronoun.index, end: c.start + pronoun.index + pronoun[0].length };
    if (!standsIn(at, text)) return mentions;
    notes.push(`'${pronoun[0]}' takes up ${mentions[0][0].name}`);
    return [mentions[0].map((l) => ({ ...l, ...at }))];
  }
  return mentions;
}

/**
 * Whether a pronoun stands for its entity in place: an object or a possessive pronoun standing alone ("genes it regulates",
 * "similar to hers"); not "its" before a noun (the noun's own reading holds it) nor a subject after an auxiliary ("is it X or
 * Y that …", a cleft).
 */
function standsIn(pronoun: Span, text: string): boolean {
  if (/^its$/i.test(text.slice(pronoun.start, pronoun.end))) return false;
  return !/(?<![\p{L}])(?:is|was|are|were|would|could|does|do|did|can|will|should|might|may|has|had)\s+$/iu.test(text.slice(0, pronoun.start));
}

function asks(clause: string, opening = false): boolean {
  if (/\?\s*$/.test(clause)) return true;
  const focus = [...clause.matchAll(FOCUS)].some((m) => !opening || wordsBefore(clause, m.index) < FOCUS_WINDOW_WORDS);
  // "… Exclude any upregulated in asthma.", "; skip those with FLT3": a clause opening on an exclusion restricts the answer asked for.
  const restricts = (c: QuestionCue) => c.cue === 'exclusion' && wordsBefore(clause, c.start) <= 2;
  return focus || findQuestionCues(clause).some((c) => c.cue === 'yesno' || c.cue === 'count' || c.cue === 'list' || restricts(c));
}

function wordsBefore(text: string, at: number): number {
  return (text.slice(0, at).match(/[\p{L}\p{N}'’]+/gu) ?? []).length;
}

/**
 * A kind word right next to an entity of that kind describes the entity ("the
 * drug metformin") instead of introducing another one; it also settles which
 * reading of an ambiguous mention is meant. Returns true when it was such a word.
 */
function settleApposition(word: KindWord, mentions: Mention[], text: string, relations: RelationCue[]): boolean {
  for (const [i, mention] of mentions.entries()) {
    const span = mention[0];
    const between = word.end <= span.start ? text.slice(word.end, span.start) : span.end <= word.start ? text.slice(span.end, word.start) : null;
    if (between === null || !APPOSITION_GAP.test(between)) continue;
    // "the genes PRPS1 regulates", "the genes it regulates": a plural kind word, one entity (or a pronoun standing for it) and a
    // verb right after is a clause describing the kind word, not a name for it.
    const clause = relations.some((r) => r.start >= span.end && /^\s+$/.test(text.slice(span.end, r.start)));
    if (word.end <= span.start && clause && (word.plural || /^(?:it|its|hers)$/i.test(text.slice(span.start, span.end)))) continue;
    // "Is pruritus a symptom of …": after a copula the kind word is what the entity is said to be, not a name for it.
    if (span.end <= word.start && /\S/.test(between) && COPULA_BEFORE.test(text.slice(0, span.start))) continue;
    const fitting = mention.filter((l) => sameKind(l.kind, word.kind));
    if (!fitting.length) continue;
    mentions[i] = fitting;
    return true;
  }
  return false;
}

/**
 * The kind word a question asks for: the one closest after "which", "how
 * many", "name", ..., with no relation phrase in between ("What is treated by
 * drugs ..." does not ask for drugs). A question with no such cue at all
 * ("Genes linked to asthma") asks for the first kind word of its last clause naming one (`requested`); a yes/no
 * question only for one it introduces ("Is there a gene ..."). `asked`: a
 * question word asks for it ("Are there genes …? Which ones?"), or "there
 * are" introduces it in the plural: the members are asked for, not a verdict.
 */
function focusWord(text: string, words: KindWord[], relations: RelationCue[], yesno: boolean, opener: number, named: Span[]): Focus | null {
  let best: { word: KindWord; distance: number } | null = null;
  // "Determine whether …", "find out if …", "tell me whether …" embed a yes/no question; they ask for no kind.
  const focusCues = [...text.matchAll(FOCUS)]
    .map((m) => ({ start: m.index, end: m.index + m[0].length }))
    .filter((c) => !/^\s+(?:\w+\s+)?(?:whether|if)\b/i.test(text.slice(c.end)) && !relativePronoun(c, text));
  // A yes/no question asks about a kind only when it introduces one ("Is there a drug that …", "Are there genes …"); "one of the side effects of X" names a relation.
  const introduced = yesno ? words.find((w) => w.start >= opener && introduces(w, text, relations, named)) : undefined;
  const plural = (w: KindWord) => w.plural && THERE_INTRODUCED.test(text.slice(0, w.start));
  if (!focusCues.length) {
    const word = yesno ? introduced : requested(text, words);
    return word ? { word, asked: yesno && plural(word) } : null;
  }
  for (const word of words) {
    for (const cue of focusCues) {
      if (cue.end > word.start) continue;
      const between = text.slice(cue.end, word.start);
      if (/[.?!;]/.test(between) || relations.some((r) => r.start >= cue.end && r.end <= word.start)) continue;
      const distance = between.split(/\s+/).filter(Boolean).length;
      if (distance > FOCUS_WINDOW_WORDS) continue;
      if (!best || distance < best.distance) best = { word, distance };
    }
  }
  if (best) return { word: best.word, asked: true };
  // "some genes get switched down … — which ones are they?": "which ones" takes up the kind named before it.
  const pronoun = focusCues.find((c) => TAKEN_UP.test(text.slice(c.end)));
  const before = pronoun && words.filter((w) => w.end <= pronoun.start).at(-1);
  if (before) return { word: { ...before, plural: before.plural || /^\s+ones\b/i.test(text.slice(pronoun.end)) }, asked: true };
  // "Is there …? Which ones?": the question word takes up the kind the yes/no clause introduced.
  return introduced ? { word: introduced, asked: focusCues.some((c) => c.start > introduced.end) || plural(introduced) } : null;
}

type Focus = { word: KindWord; asked: boolean };

/**
 * With no question word, the request is the last clause that names a kind, and the answer its first kind word: "looking at
 * diseases where X is downregulated / need: the symptoms any of those diseases present" asks for symptoms; "Genes linked to
 * asthma" for genes.
 */
function requested(text: string, words: KindWord[]): KindWord | undefined {
  const opens = [0, ...[...text.matchAll(CLAUSE_END)].map((m) => m.index + m[0].length)];
  const last = opens.filter((o) => words.some((w) => w.start >= o)).at(-1) ?? 0;
  return words.find((w) => w.start >= last);
}

/**
 * "Which drug categories (pharmacologic classes) contain …": a kind word modifying a noun that names no kind, the noun
 * glossed in brackets by a kind word, asks for the bracket's kind.
 */
function restated(focus: Focus | null, words: KindWord[], text: string): Focus | null {
  if (!focus) return focus;
  const gloss = words.find(
    (w) => w.start > focus.word.end && /^\s+[\p{L}-]+\s*\(\s*$/u.test(text.slice(focus.word.end, w.start)) && /^\s*\)/.test(text.slice(w.end)),
  );
  return gloss && !sameKind(gloss.kind, focus.word.kind) ? { ...focus, word: gloss } : focus;
}

/**
 * "the pathways in which genes … participate", "the diseases for which drugs … are indicated": "which" or "whom" after a
 * preposition that follows a noun opens a relative clause describing that noun; it asks for nothing ("In which tissues …" asks).
 */
function relativePronoun(cue: Span, text: string): boolean {
  if (!/^(?:which|whom|whose)$/i.test(text.slice(cue.start, cue.end))) return false;
  const words = analyse(text).filter((w) => w.end <= cue.start);
  // "… any gene whose protein interacts with …": "whose" right after a noun is that noun's.
  const last = words.at(-1);
  if (/^whose$/i.test(text.slice(cue.start, cue.end)) && last && ['NOUN', 'PROPN'].includes(last.pos) && /^\s+$/.test(text.slice(last.end, cue.start)))
    return true;
  const [noun, preposition] = words.slice(-2);
  return (
    !!preposition &&
    preposition.pos === 'ADP' &&
    !!noun &&
    ['NOUN', 'PROPN'].includes(noun.pos) &&
    /^\s+$/.test(text.slice(noun.end, preposition.start)) &&
    /^\s+$/.test(text.slice(preposition.end, cue.start))
  );
}

function statesClaim(mentions: Mention[], relations: RelationCue[]): boolean {
  if (mentions.length !== 2) return false;
  const [a, b] = mentions;
  // A loose linking word between the two ("the relation between X and Y", "X linked to Y") claims any relation the kinds have.
  return relations.some((r) =>
    a.some((x) => b.some((y) => r.metaedges.some((m) => joins(m, x.kind, y.kind)) || (r.generic && metaedgesBetween(x.kind, y.kind).length > 0))),
  );
}

/** Where the question word stands, for a question whose answer no noun names ("What does X bind that Y doesn't?"). */
function questionWord(text: string): Span | null {
  const found = [...text.matchAll(FOCUS)][0];
  return found ? { start: found.index, end: found.index + found[0].length } : null;
}

function earlier(a: Focus | null, b: Focus | null): Focus | null {
  return a && (!b || a.word.start < b.word.start) ? a : b;
}

/**
 * A collection asked for where a kind word would stand ("Which dihydropyridines
 * are used …", "List the serotonin 5-HT3 receptor antagonists …"): the answer
 * is its members, and the collection an anchor they belong to.
 */
function collectionFocus(text: string, mentions: Mention[], words: KindWord[]): Focus | null {
  for (const [i, mention] of mentions.entries()) {
    if (!COLLECTION_ASKED.test(text.slice(0, mention[0].start))) continue;
    for (const entity of mention) {
      const member = memberHops(entity.kind)[0];
      if (!member) continue;
      mentions[i] = [entity];
      // "Which prostaglandin-class drugs …": the members' kind word after the name gives the number.
      const head = words.find((w) => w.start >= entity.end && sameKind(w.kind, member.to) && sameNounPhrase(entity, w, [], text));
      const plural = head?.plural ?? /[^s]s$/i.test(text.slice(entity.start, entity.end));
      return {
        word: { phrase: text.slice(entity.start, entity.end), kind: member.to, start: entity.start, end: entity.end, plural, weak: false },
        asked: true,
      };
    }
  }
  return null;
}

/**
 * "any drug", "any of the drugs", "a drug that …": the yes/no clause introduces the kind. An entity modifying the kind word stands
 * between ("any gout drug", "any of the asthma medicines"), and a relation phrase may follow the indefinite word in place of a
 * clause ("a gene involved in apoptosis", "a disease presenting with fever", "a compound similar to X"); "a treatment for X"
 * names a relation.
 */
function introduces(word: KindWord, text: string, relations: RelationCue[], named: Span[]): boolean {
  const modifier = named.find((m) => m.end <= word.start && /^(?:\s+|\s*-\s*)$/.test(text.slice(m.end, word.start)));
  const before = text.slice(0, modifier?.start ?? word.start);
  const after = text.slice(word.end);
  // A participle or an adjective of a relation right after the word ("a gene involved in", "a compound similar to").
  const adjective = (at: number) => analyse(text).find((w) => w.start === at)?.pos === 'ADJ';
  const related = relations.some(
    (r) => r.start >= word.end && /^\s+$/.test(text.slice(word.end, r.start)) && (PARTICIPLE.test(r.phrase) || adjective(r.start)),
  );
  return (
    EXISTENTIAL.test(before) ||
    (INDEFINITE_INTRODUCED.before.test(before) && (INDEFINITE_INTRODUCED.after.test(after) || related)) ||
    (word.plural && related && headsOpeningPhrase(word, text, named))
  );
}

/**
 * "kawasaki disease treatment compounds binding CYP2C19, yes or no": a plural
 * kind word heading the noun phrase that opens its clause (nouns, adjectives
 * and names before it), a participle after it, is a telegraphic "are there …".
 */
function headsOpeningPhrase(word: Span, text: string, named: Span[]): boolean {
  const from = clauseStart(word.start, text);
  return analyse(text)
    .filter((w) => w.start >= from && w.end <= word.start)
    .every((w) => ['NOUN', 'PROPN', 'ADJ', 'NUM'].includes(w.pos) || named.some((n) => w.start >= n.start && w.end <= n.end));
}

/** Where the sentence holding `at` opens: after the last sentence end before it. */
const sentenceStart = (at: number, text: string) => openingAfter(/[.?!](?=\s)\s*/g, at, text);

/** Where the clause holding `at` opens: after the last sentence end, colon or semicolon before it. */
const clauseStart = (at: number, text: string) => openingAfter(/[.?!:;](?=\s)\s*/g, at, text);

/** Just after the last match of `ends` before `at`, or the text's start. */
function openingAfter(ends: RegExp, at: number, text: string): number {
  const last = [...text.slice(0, at).matchAll(ends)].at(-1);
  return last ? last.index + last[0].length : 0;
}

/** A cue closing its sentence ("…, yes or no?", "… y/n"). */
function trailing(cue: Span, text: string): boolean {
  return /^[\s?.!)\]]*(?:$|[.?!]\s)/.test(text.slice(cue.end));
}

// A bare question word and an auxiliary before a kind word: "What do asthma drugs bind?", "What do the genes associated with X take part in?".
const SUBJECT_BEFORE = /(?<![\p{L}])(?:what|which|who)\s+(?:do|does|did|can|could|will|would|should|might|may)\s+(?:[^\s.?!;:]+\s+){0,3}$/iu;

/**
 * "What do asthma drugs bind?": after a bare question word and an auxiliary,
 * the kind word is the subject of the clause, not what is asked; the answer is
 * what the clause's verb (its last relation phrase) reaches from the
 * subject's kind, and the subject a set on the way. null when that is not so.
 */
function subjectAsked(focused: Focus | null, text: string, relations: RelationCue[]): NodeKind | null {
  if (!focused || !SUBJECT_BEFORE.test(text.slice(0, focused.word.start))) return null;
  const clause = /[.?!;](?=\s|$)|$/.exec(text.slice(focused.word.end))!;
  const end = focused.word.end + clause.index;
  const verb = relations.filter((r) => r.start >= focused.word.end && r.end <= end).at(-1);
  // The verb closes the clause, a particle at most after it ("… bind?", "… interact with?"): else the clause's verb is no phrase found.
  if (!verb || !/^\s*(?:[\p{L}]+\s*)?$/u.test(text.slice(verb.end, end))) return null;
  return verb.metaedges.map((m) => otherEnd(m, focused.word.kind)).find((k): k is NodeKind => !!k) ?? null;
}

// A question word followed by a noun ("what class", "which group"), not by an auxiliary, a pronoun or a selection.
const ASKED_NOUN =
  /(?<![\p{L}])(?:what|which)\s+(?!(?:of|one|ones|is|are|was|were|do|does|did|can|could|would|will|should|has|have|had|the|these|those|a|an|it|they|you|we|i)(?![\p{L}]))\p{L}+/giu;

/** The kinds every linked option can be (any of its readings), in the linker's order for the first. */
function optionKinds(options: QuestionOption[]): NodeKind[] {
  const linked = options.filter((o) => o.links.length);
  if (!linked.length) return [];
  const kindsOf = (o: QuestionOption) => everyReading(o.links).map((l) => l.kind);
  return [...new Set(kindsOf(linked[0]))].filter((k) => linked.every((o) => kindsOf(o).some((x) => sameKind(x, k))));
}

/** The kind every linked option shares, if they share one. */
function optionKind(options: QuestionOption[]): NodeKind | null {
  return optionKinds(options)[0] ?? null;
}

/**
 * The options are the candidates, so they name the answer's kind: a kind word
 * the question word reaches that no option can be (by any reading) ("Is it
 * nausea, hiccups or tinnitus that drugs for gout cause?") is an
 * intermediate, and the answer is the word of the options' kind, or no word
 * at all (the options' kind).
 */
function optionsFocus(focused: Focus | null, options: QuestionOption[], free: KindWord[], text: string): Focus | null {
  const linked = options.filter((o) => o.links.length);
  if (!focused || linked.length < 2) return focused;
  const canBe = (o: QuestionOption) => everyReading(o.links).some((l) => sameKind(l.kind, focused.word.kind));
  // "What class do the medicines for asthma fall into?": the question word asks for a noun naming no kind, so the kind word
  // after it is the clause's subject, and it names the answer only if every option can be of its kind.
  const asksOther = [...text.matchAll(ASKED_NOUN)].some(
    (m) => m.index + m[0].length <= focused.word.start && !free.some((w) => w.start < m.index + m[0].length && w.end > m.index),
  );
  // Linked kinds are loose (a condition is often a side effect or a symptom too): one option that can be of the word's kind keeps it.
  if (asksOther ? linked.every(canBe) : linked.some(canBe)) return focused;
  const shared = optionKinds(options);
  if (!shared.length) return focused;
  const word = free.find((w) => shared.some((k) => sameKind(k, w.kind)));
  return word ? { word, asked: focused.asked } : null;
}

/** No word names the answer: take the far end of the relation nearest to each entity, by vote. */
function relationKind(mentions: Mention[], relations: RelationCue[]): NodeKind | null {
  const votes = new Map<NodeKind, number>();
  for (const mention of mentions) {
    const link = mention[0];
    const reading = relations
      .map((cue) => ({ cue, abbr: cue.metaedges.find((abbr) => otherEnd(abbr, link.kind) !== null) }))
      .filter((r) => r.abbr)
      .sort((a, b) => gap(a.cue, link) - gap(b.cue, link))[0];
    const kind = reading && otherEnd(reading.abbr!, link.kind);
    if (kind) votes.set(kind, (votes.get(kind) ?? 0) + 1);
  }
  return [...votes.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/** The answer and the hidden intermediates, with every place the text names them. */
function variablesOf(answerKind: NodeKind, focus: KindWord | null, free: KindWord[], relations: RelationCue[], text: string, named: Span[]): Variable[] {
  // An answer no noun names stands where the question word does ("Which of these is downregulated in the tissues where X is …").
  const unnamed = focus ? null : questionWord(text);
  const answer: Variable = { id: 'answer', kind: answerKind, spans: focus ? [focus] : unnamed ? [unnamed] : [] };
  const variables = [answer];
  const add = (id: string, kind: NodeKind, span: Span) => {
    const existing = variables.find((v) => v.id === id);
    if (existing) existing.spans.push(span);
    else variables.push({ id, kind, spans: [span] });
  };
  // A relation joining a kind to itself between two places ("compounds similar to drugs", "diseases resembling those …").
  const selfRelated = (kind: NodeKind, from: number, to: number) =>
    relations.some((r) => r.start >= from && r.end <= to && r.metaedges.some((m) => joins(m, kind, kind)));
  // A demonstrative governed by such a relation right before it ("similar to those drugs"): it takes up another set of the kind.
  const takenUp = (word: KindWord) => {
    if (TAKEN_UP_SET.test(word.phrase)) return true;
    const demonstrative = DEMONSTRATIVE.exec(text.slice(0, word.start));
    return !!demonstrative && governedBySelfRelation(word.kind, demonstrative.index, relations, text);
  };
  // Words of the answer's kind in a sentence before the one that asks: the answer, unless a demonstrative later takes them up as another set.
  // "Given the drugs for X, which compounds resemble them?": a word of the answer's kind a pronoun of its sentence takes up is context too.
  const referred = (w: Span) => free.some((p) => p.refers?.start === w.start);
  // "Some compounds downregulate genes upregulated in X. What targets do those compounds bind?": a word of the answer's kind
  // in an earlier sentence, related there to a set the asking sentence takes up, is a set on the chain, not the answer.
  const takenUpLater = (x: KindWord) =>
    free.some((y) => focus && y.start > focus.start && sameKind(y.kind, x.kind) && (TAKEN_UP_SET.test(y.phrase) || DEMONSTRATIVE.test(text.slice(0, y.start))));
  // Unless the asking sentence takes the word up itself ("… those treat various diseases. Which diseases resemble the ones …").
  const standingFor = [...text.matchAll(SET_PRONOUN)].filter(
    (m) =>
      focus &&
      m.index > focus.end &&
      !free.some((f) => f.start >= m.index + m[0].length && /^\s+(?:[\p{L}-]+\s+)?$/u.test(text.slice(m.index + m[0].length, f.start))),
  );
  const onTheWay = (w: KindWord) =>
    !!focus &&
    w.end <= focus.start &&
    !standingFor.length &&
    !takenUpLater(w) &&
    free.some((x) => {
      const [a, b] = x.start < w.start ? [x, w] : [w, x];
      return (
        !sameKind(x.kind, answerKind) &&
        !/[.?!;:](?=\s)|\s[—–-]\s|\n/.test(text.slice(a.end, b.start)) &&
        relations.some((r) => r.start >= a.end && r.end <= b.start && r.metaedges.some((m) => joins(m, x.kind, w.kind))) &&
        takenUpLater(x)
      );
    });
  const context = focus
    ? free.filter(
        (w) =>
          w !== focus &&
          w.end <= focus.start &&
          sameKind(w.kind, answerKind) &&
          !onTheWay(w) &&
          (/[.?!;:](?=\s)|\s[—–-]\s/.test(text.slice(w.end, focus.start)) || referred(w)),
      )
    : [];
  const pronouns = setPronouns(answerKind, focus, free, relations, text, context.length > 0);
  // Another set of the answer's kind; a relation of the kind to itself after the last one makes a further set ("genes regulated
  // by any gene that covaries with any of the genes upregulated in X": three sets of genes).
  const otherSet = (word: Span): string => {
    const others = variables.filter((v) => v.id.startsWith(`${answerKind} (other`));
    const last = others.at(-1);
    if (!last) return `${answerKind} (other)`;
    return selfRelated(answerKind, last.spans.at(-1)!.end, word.start) ? `${answerKind} (other ${others.length + 1})` : last.id;
  };
  const leftOut = setAside(focus, free, text);
  for (const word of [...free, ...pronouns].sort((a, b) => a.start - b.start)) {
    if (word === focus || context.includes(word)) continue;
    if (leftOut.includes(word)) continue;
    // "compounds similar to drugs for gout": a relation joining the kind to itself between two of its words in one sentence makes
    // them two sets; a demonstrative takes up the set named before ("… other genes. What diseases are linked to those interacting genes?").
    if (!sameKind(word.kind, answerKind)) {
      // "For the genes expressed in X, which pathways include the genes they regulate?": the pronoun joins the set it takes up,
      // and the first word of its kind between the two names another set.
      const taken = word.refers && variables.find((v) => v.spans.some((s) => s.start === word.refers!.start));
      if (taken) {
        taken.spans.push(word);
        continue;
      }
      const same = variables.filter((v) => v !== answer && sameKind(v.kind, word.kind)).at(-1);
      const splits = (v: Variable) =>
        free.some((p) => p.refers && v.spans.some((s) => s.start === p.refers!.start) && word.start > p.refers.end && word.end <= p.start);
      const apart =
        same &&
        (splits(same) ||
          (!DEMONSTRATIVE.test(text.slice(0, word.start)) &&
            !/[.?!;:]/.test(text.slice(same.spans.at(-1)!.end, word.start)) &&
            selfRelated(word.kind, same.spans.at(-1)!.end, word.start)));
      add(apart ? `${word.kind} (${variables.length})` : (same?.id ?? word.kind), word.kind, word);
    }
    // "Which genes interact with a gene associated with asthma?": a second, different gene; "which drug is a treatment for …", "which genes are common targets of …" say what the answer is.
    // "Which compounds are similar to the drugs that treat …", "… similar to those drugs?": a relation between them and a clause
    // describing the second, or a demonstrative taking up a set named before, make it another set.
    // "the protein targets (genes)", "genes that encode proteins …" name the answer again.
    else if ((!focus && selfGoverned(word, relations, text)) || onTheWay(word)) add(otherSet(word), answerKind, word);
    else if (
      focus &&
      word.start > focus.start &&
      !sameNounPhrase(focus, word, relations, text) &&
      !restatesRelation(focus, word, relations) &&
      (isIndefinite(word, text) ||
        described(word, focus, relations, text, named) ||
        selfGoverned(word, relations, text) ||
        (takenUp(word) && selfRelated(answerKind, focus.end, word.start))) &&
      !SAME_SET.test(text.slice(focus.end, word.start))
    ) {
      const id = otherSet(word);
      add(id, answerKind, word);
      // "… those treat various diseases. Which diseases resemble the ones treated by …": the set taken up is the one named before.
      if (takenUp(word) || pronouns.includes(word)) variables.find((v) => v.id === id)!.spans.push(...context.splice(0));
    } else answer.spans.push(word);
  }
  answer.spans.push(...context, ...leftOut);
  // No word names the answer but another set of its kind is named ("which of these is similar to a compound that …"): the
  // answer stands where the question word does, so the other set is not taken for it.
  const asking = !answer.spans.length && variables.some((v) => v !== answer && sameKind(v.kind, answerKind)) ? questionWord(text) : null;
  if (asking) answer.spans.push(asking);
  return variables;
}

/**
 * "Which diseases resemble those treated by …", "… the ones treated by …": a
 * pronoun standing for a set of the answer's kind, with a relation of the kind
 * to itself between the question word and it and a clause or participle after
 * it, or closing its sentence where a sentence before named a set of the kind.
 */
function setPronouns(answerKind: NodeKind, focus: KindWord | null, free: KindWord[], relations: RelationCue[], text: string, namedBefore = false): KindWord[] {
  if (!focus) return [];
  return [...text.matchAll(SET_PRONOUN)]
    .map((m) => ({ phrase: m[0], kind: answerKind, start: m.index, end: m.index + m[0].length, plural: true, weak: false }))
    .filter(
      (w) =>
        w.start > focus.end &&
        !free.some((f) => overlaps(f, w)) &&
        !free.some((f) => f.start >= w.end && /^\s+(?:[\p{L}-]+\s+)?$/u.test(text.slice(w.end, f.start))) &&
        (RELATIVE_CLAUSE.test(text.slice(w.end)) ||
          relations.some((r) => r.start >= w.end && /^\s*$/.test(text.slice(w.end, r.start))) ||
          // "… treats certain diseases. Which diseases are similar to any of those?": closing its sentence, it takes up the set named before.
          (namedBefore && /^\s*(?:[.?!]|$)/.test(text.slice(w.end)))) &&
        governedBySelfRelation(answerKind, w.start, relations, text),
    );
}

/**
 * "other than those containing ABL1", "but not the ones that treat Y", "besides the diseases imatinib treats": a set pronoun,
 * or a word of the answer's kind, right after an exclusion or a negation names the answers to leave out, so it stands where
 * the answer does; the entity its clause names is the negated anchor.
 */
function setAside(focus: KindWord | null, free: KindWord[], text: string): Span[] {
  if (!focus) return [];
  const cues = findQuestionCues(text).filter((c) => c.cue === 'exclusion' || c.cue === 'negation');
  const after = (w: Span, from = 0) => cues.some((c) => c.start >= from && c.end <= w.start && SET_ASIDE_GAP.test(text.slice(c.end, w.start)));
  const pronouns = [...text.matchAll(SET_PRONOUN)].map((m) => ({ start: m.index, end: m.index + m[0].length })).filter((w) => after(w, focus.end));
  return [...pronouns, ...free.filter((w) => w !== focus && sameKind(w.kind, focus.kind) && !w.weak && after(w))];
}
// Between the cue and the set's word: a determiner at most ("other than the drugs …", "except any genes …").
const SET_ASIDE_GAP = /^\s*(?:(?:the|any|all|those|these)\s+)?$/i;

/** A relation joining the kind to itself stands right before `at`, a preposition at most between ("similar to those", "resembling the ones"). */
function governedBySelfRelation(kind: NodeKind, at: number, relations: RelationCue[], text: string): boolean {
  return relations.some((r) => r.end <= at && SELF_GAP.test(text.slice(r.end, at)) && r.metaedges.some((m) => joins(m, kind, kind)));
}

// Between a relation and the set it governs: a preposition, then a determiner or a quantifier ("similar to any of those",
// "resembles one of the", "similar to a").
const SELF_GAP = /^\s*(?:(?:to|with|of|by|as)\s+)?(?:(?:a|an|the|any|some|one|each|all|either)\s+(?:of\s+)?)*$/i;

/**
 * "which of these is similar to a compound that binds X", "which disease resembles one of the diseases where …": a word of
 * the answer's kind that a relation of the kind to itself governs is another set, wherever the answer is named (or not).
 */
function selfGoverned(word: KindWord, relations: RelationCue[], text: string): boolean {
  // A word at least between them ("similar to a compound"): a relation word modifying the kind word ("partner genes",
  // "similar compounds") names the same set.
  const governs = (at: number) =>
    relations.some(
      (r) =>
        r.end <= at && /\p{L}/u.test(text.slice(r.end, at)) && SELF_GAP.test(text.slice(r.end, at)) && r.metaedges.some((m) => joins(m, word.kind, word.kind)),
    );
  const modifier = /(?:[\p{L}-]+\s+)?$/u.exec(text.slice(0, word.start))!;
  return governs(word.start) || (modifier[0].length > 0 && governs(word.start - modifier[0].length));
}

/**
 * "drugs used for the tx of gout", "medicines given as therapy for X": a kind
 * word that is itself a relation's nominal, after a cue of that relation joining
 * it to the question word, restates the relation: it names the answer again.
 */
function restatesRelation(focus: Span, word: Span, relations: RelationCue[]): boolean {
  return relations.some(
    (n) =>
      overlaps(n, word) && relations.some((r) => r !== n && r.start >= focus.end && r.end <= word.start && r.metaedges.some((m) => n.metaedges.includes(m))),
  );
}

/** "Which prostaglandin-class drugs": a word at most between two kind words, and no relation, makes them one noun phrase. */
function sameNounPhrase(focus: Span, word: Span, relations: RelationCue[], text: string): boolean {
  return /^[\s-]*(?:\p{L}+[\s-]*)?$/u.test(text.slice(focus.end, word.start)) && !relations.some((r) => r.start >= focus.end && r.end <= word.start);
}

function described(word: KindWord, focus: KindWord, relations: RelationCue[], text: string, named: Span[]): boolean {
  // Described by a clause ("the drugs that treat X", "the diseases it relieves", "the genes PRPS1 regulates") or a participle
  // naming a relation ("the drugs used to treat X").
  const subject = named.find((n) => n.start >= word.end && /^\s+$/.test(text.slice(word.end, n.start)));
  const clause =
    RELATIVE_CLAUSE.test(text.slice(word.end)) ||
    relations.some((r) => r.start > word.end && /^[\s,]*$/.test(text.slice(word.end, r.start))) ||
    (!!subject && relations.some((r) => r.start >= subject.end && /^\s+$/.test(text.slice(subject.end, r.start))));
  return clause && relations.some((r) => r.start >= focus.end && r.end <= word.start);
}

function isIndefinite(word: KindWord, text: string): boolean {
  const previous = /([\p{L}]+)[^\p{L}]*$/u.exec(text.slice(0, word.start))?.[1].toLowerCase() ?? '';
  if (INDEFINITE.has(previous)) return true;
  return word.plural && !DEFINITE.has(previous);
}

interface Attachment {
  entity: LocatedEntity;
  variable: Variable | null;
  choice: HopChoice | null;
  /** The hop from a collection to its members, when the members are what relates ("do xanthine oxidase inhibitors treat"). */
  via?: Hop;
  /** The hop from members to the collection asked for ("which classes of drugs bind PDE3B"). */
  into?: Hop;
}

/** The cheapest reading of a mention against the given variables. */
function attach(mention: Mention, variables: Variable[], relations: RelationCue[], alone = false, sentenceOf?: SentenceOf): Attachment {
  let best: Attachment = { entity: mention[0], variable: null, choice: null };
  for (const entity of mention) {
    for (const variable of variables) {
      const choice = hopChoices({ kind: entity.kind, spans: [entity] }, variable, relations, sentenceOf)[0];
      if (choice && (!best.choice || choice.cost < best.choice.cost)) best = { entity, variable, choice };
    }
  }
  if (best.choice) return best;
  // A collection named where its members are meant: a class relates through the compounds it includes; a class asked for, through its members.
  for (const entity of mention) {
    for (const variable of variables) {
      for (const via of memberHops(entity.kind)) {
        const choice = hopChoices({ kind: via.to, spans: [entity] }, variable, relations)[0];
        if (choice && (!best.choice || choice.cost < best.choice.cost)) best = { entity, variable, choice, via };
      }
      for (const members of memberHops(variable.kind)) {
        const choice = hopChoices({ kind: entity.kind, spans: [entity] }, { kind: members.to, spans: variable.spans }, relations)[0];
        if (choice && (!best.choice || choice.cost < best.choice.cost)) best = { entity, variable, choice, into: reverseHop(members) };
      }
    }
  }
  return best.choice || !alone ? best : impliedMiddle(mention, variables, relations);
}

/**
 * "etofibrate-like compounds", "asthma-associated genes", "BRCA1-interacting
 * proteins": an entity joined by a hyphen to a relation word before a kind
 * word modifies that word inside its noun phrase; it relates to that set by
 * that word, whatever relation stands before the phrase ("treated by
 * etofibrate-like compounds" is no treatment by etofibrate).
 */
function hyphenated(mention: Mention, variables: Variable[], relations: RelationCue[], text: string): Attachment | null {
  const cue = relations.find((r) => /^[-‐‑]$/.test(text.slice(mention[0].end, r.start)));
  // A word at most between the relation word and the kind word ("eczema-like skin conditions").
  const variable = cue && variables.find((v) => v.spans.some((s) => s.start > cue.end && /^\s+(?:[\p{L}-]+\s+)?$/u.test(text.slice(cue.end, s.start))));
  if (!cue || !variable) return null;
  for (const entity of mention) {
    const choice = hopChoices({ kind: entity.kind, spans: [entity] }, variable, [cue]).find((c) => c.cue === cue);
    if (choice) return { entity, variable, choice };
  }
  return null;
}

/**
 * No metaedge joins the entity to anything the question names ("Which pathways
 * does imatinib act on?"): the chain runs through a kind the question leaves
 * unsaid, the one whose two hops read cheapest, a phrase naming the entity's
 * own relation or the answer's word naming the last ("which pathways"):
 * imatinib binds genes, which take part in pathways. Two hops the kinds, a
 * loose word or a relation of another pair chose are no reading: "genes
 * associated with glossitis", "genes downregulated in autism" (each linked
 * as a side effect) stay unrelated.
 * Only for the question's one entity: beside others, an entity nothing joins
 * is context or read as the wrong kind ("treats hypertension and causes
 * bradycardia", bradycardia a symptom), not a chain through them.
 */
function impliedMiddle(mention: Mention, variables: Variable[], relations: RelationCue[]): Attachment {
  const kinds = [...new Set(metaedges().flatMap((m) => [m.source, m.target]))];
  let best: { attachment: Attachment; cost: number } | null = null;
  for (const entity of mention) {
    for (const variable of variables) {
      for (const middle of kinds) {
        if (sameKind(middle, entity.kind) || sameKind(middle, variable.kind)) continue;
        const first = hopChoices({ kind: entity.kind, spans: [entity] }, { kind: middle, spans: [] }, relations)[0];
        const second =
          first &&
          hopChoices(
            { kind: middle, spans: [] },
            variable,
            relations.filter((r) => r !== first.cue),
          )[0];
        // The entity's own relation is named, or the answer's word names the relation of the last hop ("which pathways …").
        if (!second || !(first.hop.explicit || (second.hop.explicit && !!second.cue && variable.spans.some((s) => overlaps(s, second.cue!))))) continue;
        const cost = first.cost + second.cost;
        if (!best || cost < best.cost) best = { attachment: { entity, variable, choice: second, via: first.hop }, cost };
      }
    }
  }
  return best?.attachment ?? { entity: mention[0], variable: null, choice: null };
}

// An intermediate should relate to the answer through a phrase of its own, not
// the one an entity already used to reach it.
const REUSED_CUE_PENALTY = 30;

function readAnchors(
  answerKind: NodeKind,
  focus: KindWord | null,
  free: KindWord[],
  mentions: Mention[],
  relations: RelationCue[],
  questionCues: QuestionCue[],
  text: string,
  notes: string[],
): Anchor[] {
  const variables = variablesOf(
    answerKind,
    focus,
    free,
    relations,
    text,
    mentions.map((m) => m[0]),
  );
  const answer = variables[0];
  const sentenceOf = sentencesOf(text);
  // "the pathways of imatinib's targets": a relation noun tied to an entity names an intermediate set, which the entity joins through that noun.
  const nouns = relationNouns(text, mentions, relations, free, answer);
  const nounSets = nouns.map((n, i) => ({ noun: n, variable: { id: `${n.kind} (${i})`, kind: n.kind, spans: [n.cue] } }));
  variables.push(...nounSets.map((n) => n.variable));
  const hyphenBound = new Set<RelationCue>();
  let attachments = mentions.map((mention) => {
    const set = nounSets.find((n) => mention.includes(n.noun.entity));
    const choice = set && hopChoices({ kind: set.noun.entity.kind, spans: [set.noun.entity] }, set.variable, [set.noun.cue])[0];
    if (set && choice) return { entity: set.noun.entity, variable: set.variable, choice };
    const bound = hyphenated(mention, variables, relations, text);
    if (bound?.choice?.cue) hyphenBound.add(bound.choice.cue);
    return bound ?? attach(mention, variables, relations, mentions.length === 1, sentenceOf);
  });
  const used = new Set(attachments.map((a) => a.choice?.cue).filter(Boolean));
  // "… interact with the T2DM-upregulated genes": a relation word hyphened to an entity is that entity's, no relation between sets.
  const between = relations.filter((r) => !hyphenBound.has(r));

  // Link intermediates towards the answer, nearest first, so the links form a tree rooted at the answer.
  const links = new Map<string, { target: Variable; hops: Hop[] }>();
  const reached = [answer];
  let pending = variables.slice(1);
  while (pending.length) {
    let best: { from: Variable; to: Variable; hops: Hop[]; cost: number } | null = null;
    for (const from of pending) {
      for (const to of reached) {
        // "drug classes used for diseases that …": a collection relates through its members when nothing joins it directly.
        const ways = [
          ...hopChoices(from, to, between, sentenceOf).map((choice) => ({ choice, into: [] as Hop[] })),
          ...memberHops(to.kind).flatMap((members) =>
            hopChoices(from, { kind: members.to, spans: to.spans }, between).map((choice) => ({ choice, into: [reverseHop(members)] })),
          ),
        ];
        for (const { choice, into } of ways) {
          const cost = choice.cost + (choice.cue && used.has(choice.cue) ? REUSED_CUE_PENALTY : 0);
          if (!best || cost < best.cost) best = { from, to, hops: [choice.hop, ...into], cost };
        }
      }
    }
    if (!best) break;
    links.set(best.from.id, { target: best.to, hops: best.hops });
    reached.push(best.from);
    pending = pending.filter((v) => v !== best.from);
  }
  attachments = attachments.map((a, i) => {
    if (!a.variable || reached.includes(a.variable)) return a;
    notes.push(`the ${a.variable.kind.toLowerCase()} that ${a.entity.name} relates to could not be related to the answer`);
    return attach(mentions[i], reached, relations);
  });

  // "… but don't treat it": the entity again, through the negated clause's relation, as a set taken away.
  const retaken = negatedRetakes(questionCues, mentions, relations, text).flatMap(({ mention, at, relations: own }): Anchor[] => {
    for (const entity of mention) {
      const choice = hopChoices({ kind: entity.kind, spans: [at] }, answer, own).find((c) => c.cue);
      if (choice) return [{ entity, metaedges: choice.hop.edges.map((e) => e.metaedge), cue: choice.hop.cue, chain: [choice.hop], negated: true }];
    }
    return [];
  });

  const read = attachments.map((a) => {
    const chain: Hop[] = [];
    if (a.choice && a.variable) {
      if (a.via) chain.push(a.via);
      chain.push(a.choice.hop);
      if (a.into) chain.push(a.into);
      for (let v = a.variable; v !== answer;) {
        const link = links.get(v.id)!;
        chain.push(...link.hops);
        v = link.target;
      }
    }
    return {
      entity: a.entity,
      metaedges: chain[0]?.edges.map((e) => e.metaedge) ?? [],
      cue: chain[0]?.cue ?? null,
      chain,
      negated: isNegated(
        mentions.find((m) => m.includes(a.entity))!,
        questionCues,
        mentions,
        text,
        focus ?? questionWord(text),
      ),
    };
  });
  return [...read, ...retaken.filter((r) => !read.some((a) => a.entity.nodeId === r.entity.nodeId && a.negated && a.metaedges.join() === r.metaedges.join()))];
}

/**
 * Yes/no without an answer variable: each entity is claimed to relate to the
 * pivot, the entity named after the main relation phrase ("Is BRCA1
 * associated with [breast cancer]?"; "Are IL23R and NOD2 both associated with
 * [Crohn's disease]?").
 */
function readPropositions(
  mentions: Mention[],
  relations: RelationCue[],
  questionCues: QuestionCue[],
  notes: string[],
): { anchors: Anchor[]; propositions: Proposition[] } {
  if (mentions.length < 2) {
    notes.push('a yes/no question needs two linked entities to relate');
    return { anchors: [], propositions: [] };
  }
  const main = relations[0];
  const pivot = (main && mentions.find((m) => m[0].start >= main.end)) ?? mentions[mentions.length - 1];
  const subjects = mentions.filter((m) => m !== pivot);
  let best: { object: LocatedEntity; pairs: { subject: LocatedEntity; choice: HopChoice }[]; cost: number } | null = null;
  for (const object of pivot) {
    const pairs = subjects.flatMap((mention) => {
      const options = mention.flatMap((subject) =>
        hopChoices({ kind: subject.kind, spans: [subject] }, { kind: object.kind, spans: [object] }, relations)
          .slice(0, 1)
          .map((choice) => ({ subject, choice })),
      );
      return options.sort((a, b) => a.choice.cost - b.choice.cost).slice(0, 1);
    });
    const cost = pairs.reduce((sum, p) => sum + p.choice.cost, 0) + (subjects.length - pairs.length) * 10_000;
    if (!best || cost < best.cost) best = { object, pairs, cost };
  }
  const { object, pairs } = best!;
  if (pairs.length < subjects.length) notes.push(`no relation joins every entity to ${object.name} (${object.kind})`);
  // A claim is negated by a negation between its two ends ("X does not treat Y"); a predicate of falsity framing it
  // before both ("would it be wrong to say X treats Y") asks whether it fails, so it turns the claim's polarity again.
  const propositions = pairs.map(({ subject, choice }) => {
    const [first, last] = [Math.min(subject.start, object.start), Math.max(subject.start, object.start)];
    const between = questionCues.some((c) => c.cue === 'negation' && c.start >= Math.min(subject.end, object.end) && c.end <= last);
    const framed = questionCues.some((c) => c.cue === 'falsity' && c.end <= first);
    return { subject, object, hop: choice.hop, negated: between !== framed };
  });
  const anchors: Anchor[] = propositions.map((p) => ({
    entity: p.subject,
    metaedges: p.hop.edges.map((e) => e.metaedge),
    cue: p.hop.cue,
    chain: [p.hop],
    negated: false,
  }));
  if (propositions.length) {
    const back = reverseHop(propositions[0].hop);
    anchors.push({ entity: object, metaedges: back.edges.map((e) => e.metaedge), cue: back.cue, chain: [back], negated: false });
  }
  return { anchors, propositions };
}

/**
 * "Is hypertension included among the diseases that amlodipine treats?": a claim that an entity is one of a set of one hop is
 * a claim on the pair, the entity read as of the set's kind, and the relation the set's own: the words between the entity and
 * the set's word ("included among", "listed as one of") frame the membership and name no relation, loose as they are.
 */
function asMember(member: Member | null, mentions: Mention[], relations: RelationCue[]): [Mention[], RelationCue[]] {
  if (!member || member.word.start < mentions[member.index][0].end) return [mentions, relations];
  const frame = { start: mentions[member.index][0].end, end: member.word.start };
  const own = relations.filter((r) => !(r.start >= frame.start && r.end <= frame.end));
  return [mentions.map((m, i) => (i === member.index ? [member.entity] : m)), own.length ? own : relations];
}

/**
 * A yes/no on a collection and an entity no relation joins it to ("Are any
 * biguanides indicated for type 2 diabetes?"): the claim is on the
 * collection's members, read as whether a member joins the entity.
 */
function meetingThroughMembers(mentions: Mention[], relations: RelationCue[]): { anchors: Anchor[]; answerKind: NodeKind } | null {
  if (mentions.length !== 2) return null;
  for (const [collection, other] of [mentions, [...mentions].reverse()]) {
    for (const whole of collection) {
      for (const members of memberHops(whole.kind)) {
        for (const entity of other) {
          const choice = hopChoices({ kind: entity.kind, spans: [entity] }, { kind: members.to, spans: [whole] }, relations)[0];
          if (!choice) continue;
          const anchor = (e: LocatedEntity, hop: Hop): Anchor => ({
            entity: e,
            chain: [hop],
            metaedges: hop.edges.map((x) => x.metaedge),
            cue: hop.cue,
            negated: false,
          });
          return { answerKind: members.to, anchors: [anchor(whole, members), anchor(entity, choice.hop)] };
        }
      }
    }
  }
  return null;
}

function operatorOf(anchors: Anchor[], yesno: boolean, count: boolean): Operator {
  if (yesno) return 'yesno';
  const resolved = anchors.filter((a) => a.chain.length);
  if (!resolved.length) return 'unknown';
  if (count) return 'count';
  if (resolved.some((a) => a.chain.length > 1)) return 'path';
  if (resolved.length === 1) return 'lookup';
  const signature = (a: Anchor) => `${a.negated ? 'not ' : ''}${a.entity.kind}:${a.metaedges.join('|')}`;
  return resolved.every((a) => signature(a) === signature(resolved[0])) ? 'shared_neighbor' : 'intersection';
}
