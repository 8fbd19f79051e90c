/**
 * The relation-cue lexicon: English phrases that name a KG relation, mapped to
 * the relation senses they can mean and through them to the loaded graph's
 * metaedges. A phrase often fits several metaedges ("binds": a compound
 * binding a gene or two genes interacting); the question's entity kinds
 * decide among them later, so the lexicon stays kind-agnostic. Also the
 * question cues that shape the answer rather than the relation: counting,
 * listing, yes/no, negation, comparison, sharing.
 */

import { metaedgesOfSenses } from './metaedges';
import type { QuestionCue, QuestionCueKind, RelationCue } from './types';

export type { QuestionCue, RelationCue };

interface CueEntry {
  pattern: string;
  /** Relation senses (lib/kg/relations.ts) the phrase can mean, preferred first; "sense:concept" only where one end is of that concept. */
  senses: string[];
  generic?: boolean;
}

const UP = ['upregulate:compound', 'upregulate:anatomy', 'upregulate:disease'];
const DOWN = ['downregulate:compound', 'downregulate:anatomy', 'downregulate:disease'];

const RELATION_LEXICON: CueEntry[] = [
  // Compound treats / palliates Disease
  { pattern: 'treat(?:s|ed|ing|ments?)?', senses: ['treat'] },
  { pattern: 'therap(?:y|ies|eutics?|eutically)|tx', senses: ['treat'] },
  { pattern: 'used (?:to treat|for|against|in(?: the)? (?:treatment|management|therapy) of)', senses: ['treat'] },
  { pattern: 'indicat(?:ed|ions?)(?: for| in)?', senses: ['treat'] },
  { pattern: 'cur(?:e|es|ed|ing)', senses: ['treat'] },
  { pattern: 'prescribed(?: for)?', senses: ['treat'] },
  { pattern: 'effective (?:against|for|in)', senses: ['treat'] },
  { pattern: 'approved (?:for|to treat)', senses: ['treat'] },
  { pattern: 'first[- ]line', senses: ['treat'] },
  { pattern: 'remed(?:y|ies)', senses: ['treat'] },
  { pattern: 'help(?:s|ed|ing)? (?:with|against|in)', senses: ['treat'], generic: true },
  { pattern: 'manag(?:e|es|ed|ing|ement)', senses: ['treat', 'palliate'] },
  { pattern: 'palliat(?:e|es|ed|ing|ion|ive|ively)', senses: ['palliate'] },
  { pattern: 'reliev(?:e|es|ed|ing)|relief (?:of|from)|alleviat(?:e|es|ed|ing|ion)|sooth(?:e|es|ed|ing)', senses: ['palliate'] },
  { pattern: 'symptomatic (?:relief|treatment)', senses: ['palliate'] },
  { pattern: 'off[- ]label', senses: ['off-label'] },
  { pattern: 'contra[- ]?indicat(?:e|es|ed|ions?)', senses: ['contraindicate'] },
  // Disease associates Gene, and the loose linking words
  { pattern: 'associat(?:e|es|ed|ing|ions?)|assocd?', senses: ['associate'], generic: true },
  { pattern: 'link(?:s|ed|age)?', senses: ['associate'], generic: true },
  { pattern: 'implicat(?:e|es|ed|ion)', senses: ['associate'], generic: true },
  { pattern: 'related|relat(?:e|es|ion|ionship) (?:to|with|between)', senses: ['associate'], generic: true },
  { pattern: 'connect(?:s|ed|ion)?', senses: ['associate'], generic: true },
  { pattern: 'correlat(?:e|es|ed|ion)', senses: ['associate'], generic: true },
  { pattern: 'involv(?:e|es|ed|ement)', senses: ['participate:pathway', 'associate'], generic: true },
  { pattern: 'contribut(?:e|es|ed|ing) to', senses: ['associate'], generic: true },
  { pattern: 'underl(?:ie|ies|ying)', senses: ['associate'], generic: true },
  { pattern: 'risk (?:genes?|loci|locus|factors?|alleles?|variants?)', senses: ['associate'] },
  { pattern: 'susceptibility(?: genes?| loci| locus)?', senses: ['associate'] },
  { pattern: 'predispos(?:e|es|ed|ing|ition)', senses: ['associate'] },
  { pattern: 'mutat(?:ed|ions?)', senses: ['associate'] },
  { pattern: 'causal genes?|disease genes?|gwas', senses: ['associate'] },
  {
    pattern: 'genetic(?:ally)? (?:basis|causes?|factors?|risk|associations?|links?|architecture|determinants?)',
    senses: ['associate'],
  },
  // Compound binds Gene
  { pattern: 'bind(?:s|ing)?|bound', senses: ['bind', 'interact'] },
  { pattern: 'target(?:s|ed|ing)?', senses: ['bind'] },
  { pattern: 'inhibit(?:s|ed|ing|ion|ors?)?', senses: ['bind', 'downregulate:compound'] },
  { pattern: 'antagoni(?:sts?|zes?|zed|ses?|sed|sm)|agonists?', senses: ['bind'] },
  { pattern: 'block(?:s|ed|ing|ers?|ade)?', senses: ['bind'] },
  { pattern: 'acts? (?:on|upon)', senses: ['bind'] },
  { pattern: 'ligands?', senses: ['bind'] },
  { pattern: 'modulat(?:e|es|ed|ing|ors?|ion)', senses: ['bind', 'regulate'] },
  { pattern: 'activat(?:e|es|ed|ing|ors?|ion)', senses: ['bind', 'upregulate:compound', 'regulate'] },
  // Compound causes Side Effect
  { pattern: 'side[- ]effects?', senses: ['cause'] },
  { pattern: 'adverse (?:effects?|events?|reactions?|drug reactions?)|aes?|adrs?', senses: ['cause'] },
  { pattern: 'caus(?:e|es|ed|ing|ative)', senses: ['cause', 'associate'] },
  { pattern: 'induc(?:e|es|ed|ing)', senses: ['cause', 'upregulate:compound'] },
  { pattern: 'leads? to|result(?:s|ed)? in|trigger(?:s|ed)?|provok(?:e|es|ed)', senses: ['cause'], generic: true },
  { pattern: 'toxicit(?:y|ies)', senses: ['cause'] },
  // Disease presents Symptom
  { pattern: 'symptoms?|symptomatic|sx', senses: ['present'] },
  { pattern: 'present(?:s|ed|ing)?(?: with| as)?|presentations?', senses: ['present'] },
  { pattern: 'manifest(?:s|ed|ing|ations?)?', senses: ['present'] },
  { pattern: 'characteri[sz]ed by', senses: ['present'] },
  { pattern: 'signs?(?: and symptoms)?', senses: ['present'] },
  { pattern: 'clinical (?:features?|findings?|signs?)', senses: ['present'] },
  { pattern: 'complain(?:s|ed)? of', senses: ['present'] },
  { pattern: 'exhibit(?:s|ed)?|experienc(?:e|es|ed)', senses: ['present', 'cause'], generic: true },
  // Disease localizes Anatomy
  { pattern: 'locali[sz](?:e|es|ed|ation|ations)', senses: ['localize'] },
  { pattern: 'affect(?:s|ed|ing)?', senses: ['localize'], generic: true },
  { pattern: 'sites?(?: of)?', senses: ['localize'] },
  { pattern: 'located (?:in|at)', senses: ['localize', 'participate:cellularComponent'] },
  { pattern: 'occur(?:s|red|ring)? in', senses: ['localize'], generic: true },
  { pattern: 'found in', senses: ['localize', 'express'], generic: true },
  // Anatomy expresses Gene
  { pattern: 'express(?:es|ed|ing|ion)?', senses: ['express'] },
  // Up / down regulation (which of C/A/D depends on the subject's kind)
  { pattern: 'up[- ]?regulat(?:e|es|ed|ing|ions?)', senses: [...UP, 'regulate'] },
  { pattern: 'over[- ]?express(?:ed|es|ing|ion)', senses: UP },
  {
    pattern: '(?:(?:increas|elevat|rais|enhanc|induc|boost)(?:e|es|ed|ing)|higher) (?:the )?(?:expression|levels?|transcription)',
    senses: UP,
  },
  { pattern: 'down[- ]?regulat(?:e|es|ed|ing|ions?)', senses: [...DOWN, 'regulate'] },
  { pattern: 'under[- ]?express(?:ed|es|ing|ion)', senses: DOWN },
  {
    pattern: '(?:(?:decreas|reduc|suppress|repress|diminish|silenc)(?:e|es|ed|ing)?|lower(?:s|ed|ing)?) (?:the )?(?:expression|levels?|transcription)',
    senses: DOWN,
  },
  { pattern: 'suppress(?:es|ed|ion)?|repress(?:es|ed|ion|ors?)?', senses: ['downregulate:compound', 'regulate'] },
  // Gene–gene
  { pattern: 'interact(?:s|ed|ing|ions?|ors?)?', senses: ['interact', 'bind'] },
  { pattern: '(?:binding|interaction|interacting) partners?|partners?|complex(?:es)? with', senses: ['interact'] },
  { pattern: 'co[- ]?var(?:y|ies|ied|ying|iation|iance)', senses: ['covary'] },
  { pattern: 'co[- ]?express(?:ed|es|ing|ion)|correlated expression', senses: ['covary'] },
  { pattern: 'regulat(?:e|es|ed|ing|ion|ory|ors?)', senses: ['regulate', ...UP, ...DOWN] },
  { pattern: 'transcriptional (?:targets?|regulators?)', senses: ['regulate'] },
  { pattern: 'control(?:s|led|ling)? (?:the )?(?:expression|transcription)', senses: ['regulate'] },
  // Gene participates in Pathway (and the GO sets)
  { pattern: 'participat(?:e|es|ed|ing|ion)', senses: ['participate'] },
  { pattern: 'pathways?', senses: ['participate:pathway'] },
  { pattern: 'members?(?: of)?', senses: ['participate:pathway', 'include'] },
  { pattern: 'part of', senses: ['participate:pathway', 'participate:cellularComponent'], generic: true },
  { pattern: 'belong(?:s|ing)? to', senses: ['include', 'participate:pathway'] },
  // Resemblance
  { pattern: 'resembl(?:e|es|ed|ing|ance)|similar(?:ity)?|alike|comparable to', senses: ['resemble:disease', 'resemble:compound'] },
  { pattern: 'analog(?:ue)?s?|structurally (?:similar|related)', senses: ['resemble:compound'] },
  // Pharmacologic class includes Compound
  { pattern: '(?:pharmacologic(?:al)?|drug|therapeutic|chemical) class(?:es)?|class(?:es)? of', senses: ['include'] },
  { pattern: 'includ(?:e|es|ed|ing)', senses: ['include'], generic: true },
  { pattern: 'categor(?:y|ies|ized|ised)|classified as', senses: ['include'] },
];

const QUESTION_LEXICON: { pattern: string; cue: QuestionCueKind }[] = [
  { pattern: 'how many|how much|number of|count(?:s|ing)?|total (?:number|count)|tally', cue: 'count' },
  { pattern: 'list(?:s|ing)?|name all|enumerate|all(?: the)?|every|what are|which are|identify all', cue: 'list' },
  { pattern: 'name (?:a|an|one|the)|which one|what is the|the only|a single|which single', cue: 'single' },
  {
    pattern:
      "not|no|never|neither|nor|none|without|lack(?:s|ing)?(?: of)?|absence of|fail(?:s|ed)? to|cannot|unlikely|\\w+n't",
    cue: 'negation',
  },
  {
    pattern: 'other than|besides|apart from|aside from|except(?: for)?|excluding|not including|not counting|leaving out|in addition to|rather than|instead of',
    cue: 'exclusion',
  },
  {
    pattern:
      'more than|less than|fewer than|greater than|at least|at most|most|least|highest|lowest|largest|smallest|compared (?:with|to)|versus|vs|higher|lower|better|worse|superior|inferior',
    cue: 'comparison',
  },
  { pattern: 'both|in common|common|shared?|shares|as well as|also|simultaneously|at the same time|each of', cue: 'shared' },
  {
    pattern:
      'whether|true or false|(?:know|tell me|wonder(?:ing)?|check|confirm|verify|see) if|is it (?:true|the case|possible|known) that|yes or no|y/n|yes/no|or not',
    cue: 'yesno',
  },
  // A statement with a tag asking to confirm it: "X binds Y, right?", "… — correct?", "…, isn't it?", "…, is that so?"
  { pattern: "(?<=[,;—–-]\\s*)(?:(?:is that|am i) )?(?:right|correct|true|so|wrong)\\s*\\?|(?:isn't|doesn't|don't|aren't|can't|won't|didn't) (?:it|they|he|she|that)\\s*\\?", cue: 'yesno' },
];

const YESNO_OPENER = /^(?:is|are|does|do|did|can|could|was|were|has|have|had|will|would|should|may|might|must|isn't|aren't|doesn't|don't|can't)\b/i;

// "Do you know which drugs …", "Can you list the genes …", "Could you tell me the genes …": a request for a list or an entity,
// not a yes/no question ("Could you tell me whether …" stays one).
const EMBEDDED_WH =
  /^\w+(?:n't)?\s+(?:you|u|anyone|someone|somebody|one)\s+(?:\w+\s+){0,3}?(?:which|what|who|whom|whose|how many|where|list|name|enumerate|identify|give|tell|show|find|provide)\b(?!\s+(?:me\s+|us\s+)?(?:if|whether)\b)/i;

function compile(pattern: string): RegExp {
  // Word boundaries that also hold next to hyphens and apostrophes, so "co-expressed" is one cue.
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${pattern})(?![\\p{L}\\p{N}])`, 'giu');
}

const RELATION_PATTERNS = RELATION_LEXICON.map((entry) => ({ ...entry, regex: compile(entry.pattern) }));
const QUESTION_PATTERNS = QUESTION_LEXICON.map((entry) => ({ ...entry, regex: compile(entry.pattern) }));

interface Span {
  start: number;
  end: number;
}

/** Longest matches win; of equal length, the earlier one. */
export function nonOverlapping<T extends Span>(matches: T[]): T[] {
  const sorted = [...matches].sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: T[] = [];
  for (const m of sorted) {
    if (!kept.some((k) => m.start < k.end && k.start < m.end)) kept.push(m);
  }
  return kept.sort((a, b) => a.start - b.start);
}

/** Relation cues in the text that the loaded graph has a relation for, non-overlapping, in text order. */
export function findRelationCues(text: string): RelationCue[] {
  const found: RelationCue[] = [];
  for (const entry of RELATION_PATTERNS) {
    const metaedges = metaedgesOfSenses(entry.senses);
    if (!metaedges.length) continue;
    for (const m of text.matchAll(entry.regex)) {
      found.push(withVoice(text, { phrase: m[0], metaedges, start: m.index, end: m.index + m[0].length, generic: !!entry.generic, voice: 'active' }));
    }
  }
  return nonOverlapping(found);
}

/** A participle followed by "by" ("regulated by", "bound by") is passive; the cue then spans the "by". */
function withVoice(text: string, cue: RelationCue): RelationCue {
  if (!/(?:ed|bound)$/i.test(cue.phrase)) return cue;
  const by = /^\s+by(?![\p{L}\p{N}])/u.exec(text.slice(cue.end));
  if (!by) return cue;
  const end = cue.end + by[0].length;
  return { ...cue, phrase: text.slice(cue.start, end), end, voice: 'passive' };
}

/** Counting, listing, negation, comparison and sharing cues, plus a yes/no opener of any sentence. */
export function findQuestionCues(text: string): QuestionCue[] {
  const found: QuestionCue[] = [];
  for (const entry of QUESTION_PATTERNS) {
    for (const m of text.matchAll(entry.regex)) {
      found.push({ phrase: m[0], cue: entry.cue, start: m.index, end: m.index + m[0].length });
    }
  }
  for (const opener of yesNoOpeners(text)) found.push(opener);
  return nonOverlapping(found);
}

/**
 * Where a clause may open: the text's start, after a sentence's end, a colon
 * or semicolon, a dash set off by spaces, a line break, and a comma before
 * an auxiliary ("Metformin, does it …?", "hey, does X …?").
 */
const CLAUSE_START = /^|[.?!:;](?=\s)|\s[—–-](?=\s)|[—–]|\n|,(?=\s+(?:is|are|does|do|did|can|could|was|were|has|have)\s)/g;

/**
 * An auxiliary verb opening an interrogative clause ("Is BRCA1 ...?", "Does
 * metformin ...?", "My PI asked me to check: does …?"): the clause's
 * sentence ends with a question mark, or is the last one even without it.
 */
function yesNoOpeners(text: string): QuestionCue[] {
  const openers: QuestionCue[] = [];
  for (const m of text.matchAll(CLAUSE_START)) {
    const from = m.index + m[0].length;
    const rest = text.slice(from);
    const clause = rest.trimStart();
    const end = /[.?!\n]/.exec(rest);
    if (end && end[0] !== '?') continue;
    const opener = YESNO_OPENER.exec(clause);
    if (!opener || EMBEDDED_WH.test(clause)) continue;
    const start = from + rest.length - clause.length;
    openers.push({ phrase: opener[0], cue: 'yesno', start, end: start + opener[0].length });
  }
  return openers;
}
