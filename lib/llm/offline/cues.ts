/**
 * The relation-cue lexicon: English phrases that name a KG relation, mapped to
 * the Hetionet metaedges they can mean. A phrase often fits several metaedges
 * ("binds": compound–gene CbG or gene–gene GiG); the question's entity kinds
 * decide among them later, so the lexicon stays kind-agnostic. Also the
 * question cues that shape the answer rather than the relation: counting,
 * listing, yes/no, negation, comparison, sharing.
 */

import type { QuestionCue, QuestionCueKind, RelationCue } from './types';

export type { QuestionCue, RelationCue };

interface CueEntry {
  pattern: string;
  metaedges: string[];
  generic?: boolean;
}

const UP = ['CuG', 'AuG', 'DuG'];
const DOWN = ['CdG', 'AdG', 'DdG'];
const GENE_SETS = ['GpPW', 'GpBP', 'GpCC', 'GpMF'];

const RELATION_LEXICON: CueEntry[] = [
  // Compound treats / palliates Disease
  { pattern: 'treat(?:s|ed|ing|ments?)?', metaedges: ['CtD'] },
  { pattern: 'therap(?:y|ies|eutics?|eutically)', metaedges: ['CtD'] },
  { pattern: 'used (?:to treat|for|against|in(?: the)? (?:treatment|management|therapy) of)', metaedges: ['CtD'] },
  { pattern: 'indicat(?:ed|ions?)(?: for| in)?', metaedges: ['CtD'] },
  { pattern: 'cur(?:e|es|ed|ing)', metaedges: ['CtD'] },
  { pattern: 'prescribed(?: for)?', metaedges: ['CtD'] },
  { pattern: 'effective (?:against|for|in)', metaedges: ['CtD'] },
  { pattern: 'approved (?:for|to treat)', metaedges: ['CtD'] },
  { pattern: 'first[- ]line', metaedges: ['CtD'] },
  { pattern: 'remed(?:y|ies)', metaedges: ['CtD'] },
  { pattern: 'manag(?:e|es|ed|ing|ement)', metaedges: ['CtD', 'CpD'] },
  { pattern: 'palliat(?:e|es|ed|ing|ion|ive|ively)', metaedges: ['CpD'] },
  { pattern: 'reliev(?:e|es|ed|ing)|relief (?:of|from)|alleviat(?:e|es|ed|ing|ion)|sooth(?:e|es|ed|ing)', metaedges: ['CpD'] },
  { pattern: 'symptomatic (?:relief|treatment)', metaedges: ['CpD'] },
  // Disease associates Gene, and the loose linking words
  { pattern: 'associat(?:e|es|ed|ing|ions?)', metaedges: ['DaG'], generic: true },
  { pattern: 'link(?:s|ed|age)?', metaedges: ['DaG'], generic: true },
  { pattern: 'implicat(?:e|es|ed|ion)', metaedges: ['DaG'], generic: true },
  { pattern: 'related|relat(?:e|es|ion|ionship) (?:to|with|between)', metaedges: ['DaG'], generic: true },
  { pattern: 'connect(?:s|ed|ion)?', metaedges: ['DaG'], generic: true },
  { pattern: 'correlat(?:e|es|ed|ion)', metaedges: ['DaG'], generic: true },
  { pattern: 'involv(?:e|es|ed|ement)', metaedges: ['GpPW', 'DaG'], generic: true },
  { pattern: 'contribut(?:e|es|ed|ing) to', metaedges: ['DaG'], generic: true },
  { pattern: 'underl(?:ie|ies|ying)', metaedges: ['DaG'], generic: true },
  { pattern: 'risk (?:genes?|loci|locus|factors?|alleles?|variants?)', metaedges: ['DaG'] },
  { pattern: 'susceptibility(?: genes?| loci| locus)?', metaedges: ['DaG'] },
  { pattern: 'predispos(?:e|es|ed|ing|ition)', metaedges: ['DaG'] },
  { pattern: 'mutat(?:ed|ions?)', metaedges: ['DaG'] },
  { pattern: 'causal genes?|disease genes?|gwas', metaedges: ['DaG'] },
  {
    pattern: 'genetic(?:ally)? (?:basis|causes?|factors?|risk|associations?|links?|architecture|determinants?)',
    metaedges: ['DaG'],
  },
  // Compound binds Gene
  { pattern: 'bind(?:s|ing)?|bound', metaedges: ['CbG', 'GiG'] },
  { pattern: 'target(?:s|ed|ing)?', metaedges: ['CbG'] },
  { pattern: 'inhibit(?:s|ed|ing|ion|ors?)?', metaedges: ['CbG', 'CdG'] },
  { pattern: 'antagoni(?:sts?|zes?|zed|ses?|sed|sm)|agonists?', metaedges: ['CbG'] },
  { pattern: 'block(?:s|ed|ing|ers?|ade)?', metaedges: ['CbG'] },
  { pattern: 'acts? (?:on|upon)', metaedges: ['CbG'] },
  { pattern: 'ligands?', metaedges: ['CbG'] },
  { pattern: 'modulat(?:e|es|ed|ing|ors?|ion)', metaedges: ['CbG', 'Gr>G'] },
  { pattern: 'activat(?:e|es|ed|ing|ors?|ion)', metaedges: ['CbG', 'CuG', 'Gr>G'] },
  // Compound causes Side Effect
  { pattern: 'side[- ]effects?', metaedges: ['CcSE'] },
  { pattern: 'adverse (?:effects?|events?|reactions?|drug reactions?)', metaedges: ['CcSE'] },
  { pattern: 'caus(?:e|es|ed|ing|ative)', metaedges: ['CcSE', 'DaG'] },
  { pattern: 'induc(?:e|es|ed|ing)', metaedges: ['CcSE', 'CuG'] },
  { pattern: 'leads? to|result(?:s|ed)? in|trigger(?:s|ed)?|provok(?:e|es|ed)', metaedges: ['CcSE'], generic: true },
  { pattern: 'toxicit(?:y|ies)', metaedges: ['CcSE'] },
  // Disease presents Symptom
  { pattern: 'symptoms?|symptomatic', metaedges: ['DpS'] },
  { pattern: 'present(?:s|ed|ing)?(?: with| as)?|presentations?', metaedges: ['DpS'] },
  { pattern: 'manifest(?:s|ed|ing|ations?)?', metaedges: ['DpS'] },
  { pattern: 'characteri[sz]ed by', metaedges: ['DpS'] },
  { pattern: 'signs?(?: and symptoms)?', metaedges: ['DpS'] },
  { pattern: 'clinical (?:features?|findings?|signs?)', metaedges: ['DpS'] },
  { pattern: 'complain(?:s|ed)? of', metaedges: ['DpS'] },
  { pattern: 'exhibit(?:s|ed)?|experienc(?:e|es|ed)', metaedges: ['DpS', 'CcSE'], generic: true },
  // Disease localizes Anatomy
  { pattern: 'locali[sz](?:e|es|ed|ation|ations)', metaedges: ['DlA'] },
  { pattern: 'affect(?:s|ed|ing)?', metaedges: ['DlA'], generic: true },
  { pattern: 'sites?(?: of)?', metaedges: ['DlA'] },
  { pattern: 'located (?:in|at)', metaedges: ['DlA', 'GpCC'] },
  { pattern: 'occur(?:s|red|ring)? in', metaedges: ['DlA'], generic: true },
  { pattern: 'found in', metaedges: ['DlA', 'AeG'], generic: true },
  // Anatomy expresses Gene
  { pattern: 'express(?:es|ed|ing|ion)?', metaedges: ['AeG'] },
  // Up / down regulation (which of C/A/D depends on the subject's kind)
  { pattern: 'up[- ]?regulat(?:e|es|ed|ing|ions?)', metaedges: [...UP, 'Gr>G'] },
  { pattern: 'over[- ]?express(?:ed|es|ing|ion)', metaedges: UP },
  {
    pattern: '(?:(?:increas|elevat|rais|enhanc|induc|boost)(?:e|es|ed|ing)|higher) (?:the )?(?:expression|levels?|transcription)',
    metaedges: UP,
  },
  { pattern: 'down[- ]?regulat(?:e|es|ed|ing|ions?)', metaedges: [...DOWN, 'Gr>G'] },
  { pattern: 'under[- ]?express(?:ed|es|ing|ion)', metaedges: DOWN },
  {
    pattern: '(?:(?:decreas|reduc|suppress|repress|diminish|silenc)(?:e|es|ed|ing)?|lower(?:s|ed|ing)?) (?:the )?(?:expression|levels?|transcription)',
    metaedges: DOWN,
  },
  { pattern: 'suppress(?:es|ed|ion)?|repress(?:es|ed|ion|ors?)?', metaedges: ['CdG', 'Gr>G'] },
  // Gene–gene
  { pattern: 'interact(?:s|ed|ing|ions?|ors?)?', metaedges: ['GiG', 'CbG'] },
  { pattern: '(?:binding|interaction|interacting) partners?|partners?|complex(?:es)? with', metaedges: ['GiG'] },
  { pattern: 'co[- ]?var(?:y|ies|ied|ying|iation|iance)', metaedges: ['GcG'] },
  { pattern: 'co[- ]?express(?:ed|es|ing|ion)|correlated expression', metaedges: ['GcG'] },
  { pattern: 'regulat(?:e|es|ed|ing|ion|ory|ors?)', metaedges: ['Gr>G', ...UP, ...DOWN] },
  { pattern: 'transcriptional (?:targets?|regulators?)', metaedges: ['Gr>G'] },
  { pattern: 'control(?:s|led|ling)? (?:the )?(?:expression|transcription)', metaedges: ['Gr>G'] },
  // Gene participates in Pathway (and the GO sets)
  { pattern: 'participat(?:e|es|ed|ing|ion)', metaedges: GENE_SETS },
  { pattern: 'pathways?', metaedges: ['GpPW'] },
  { pattern: 'members?(?: of)?', metaedges: ['GpPW', 'PCiC'] },
  { pattern: 'part of', metaedges: ['GpPW', 'GpCC'], generic: true },
  { pattern: 'belong(?:s|ing)? to', metaedges: ['PCiC', 'GpPW'] },
  // Resemblance
  { pattern: 'resembl(?:e|es|ed|ing|ance)|similar(?:ity)?|alike|comparable to', metaedges: ['DrD', 'CrC'] },
  { pattern: 'analog(?:ue)?s?|structurally (?:similar|related)', metaedges: ['CrC'] },
  // Pharmacologic class includes Compound
  { pattern: '(?:pharmacologic(?:al)?|drug|therapeutic|chemical) class(?:es)?|class(?:es)? of', metaedges: ['PCiC'] },
  { pattern: 'includ(?:e|es|ed|ing)', metaedges: ['PCiC'], generic: true },
  { pattern: 'categor(?:y|ies|ized|ised)|classified as', metaedges: ['PCiC'] },
];

const QUESTION_LEXICON: { pattern: string; cue: QuestionCueKind }[] = [
  { pattern: 'how many|number of|count(?:s|ing)?|total (?:number|count)|tally', cue: 'count' },
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
  { pattern: 'whether|true or false|(?:know|tell me|wonder(?:ing)?|check|confirm|verify|see) if|is it (?:true|the case|possible|known) that|yes or no', cue: 'yesno' },
];

const YESNO_OPENER = /^(?:is|are|does|do|did|can|could|was|were|has|have|had|will|would|should|may|might|must|isn't|aren't|doesn't|don't|can't)\b/i;

// "Do you know which drugs …", "Can you list the genes …": a request for a list or an entity, not a yes/no question.
const EMBEDDED_WH = /^\w+(?:n't)?\s+(?:you|u|anyone|someone|somebody|one)\s+(?:\w+\s+){0,3}?(?:which|what|who|whom|whose|how many|where|list|name|enumerate|identify|give)\b/i;

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

/** Relation cues in the text, non-overlapping, in text order. */
export function findRelationCues(text: string): RelationCue[] {
  const found: RelationCue[] = [];
  for (const entry of RELATION_PATTERNS) {
    for (const m of text.matchAll(entry.regex)) {
      found.push(withVoice(text, { phrase: m[0], metaedges: entry.metaedges, start: m.index, end: m.index + m[0].length, generic: !!entry.generic, voice: 'active' }));
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
 * An auxiliary verb opening an interrogative sentence ("Is BRCA1 ...?", "Does
 * metformin ...?"); the last sentence counts even without its question mark.
 */
function yesNoOpeners(text: string): QuestionCue[] {
  const openers: QuestionCue[] = [];
  for (const m of text.matchAll(/(?:^|[.?!:]\s+|\n\s*)([^.?!\n]*(?:\?|$))/g)) {
    const sentence = m[1];
    const lead = sentence.length - sentence.trimStart().length;
    const opener = YESNO_OPENER.exec(sentence.trimStart());
    if (!opener || EMBEDDED_WH.test(sentence.trimStart())) continue;
    const start = m.index + m[0].length - sentence.length + lead;
    openers.push({ phrase: opener[0], cue: 'yesno', start, end: start + opener[0].length });
  }
  return openers;
}
