/**
 * The question cues that shape the answer rather than the relation: counting,
 * listing, yes/no, negation, exclusion, comparison, sharing. (The phrases
 * naming a relation live in the sense registry, lib/reading/senses.ts.)
 */

import type { QuestionCue, QuestionCueKind } from '@/lib/llm/offline/types';
import { analyse } from '@/lib/nlp/english';
import { nonOverlapping } from './relation-cues';

export type { QuestionCue };

/** Each word cut after its third letter or later and closed with a period ("exc.", "excl.", …), as one alternation. */
function clipped(words: string[]): string {
  const cuts = words.flatMap((w) => Array.from({ length: w.length - 3 }, (_, i) => w.slice(0, i + 3)));
  return [...new Set(cuts)].map((c) => `${c}\\.`).join('|');
}

const QUESTION_LEXICON: { pattern: string; cue: QuestionCueKind }[] = [
  // "a number of" is a quantity ("PELI1 interacts with a number of genes"), not a count asked for.
  // "# distinct compounds", "# of genes", "no. of tissues": the number sign or an abbreviated "number" asks for a count.
  {
    pattern:
      'how many|how much|(?<!\\b(?:a|an)\\s+(?:\\w+\\s+)?)number of|count(?:s|ing)?|total (?:number|count)|tally|#(?=\\s*(?:of|distinct|different|unique)\\b)|(?:no\\.?|nr\\.?|num\\.?) of',
    cue: 'count',
  },
  { pattern: 'list(?:s|ing)?|name all|enumerate|all(?: the)?|every|what are|which are|identify all', cue: 'list' },
  { pattern: 'name (?:a|an|one|the)|which one|what is the|the only|a single|which single', cue: 'single' },
  {
    pattern:
      "not|no|never|neither|nor|none|without|lack(?:s|ed|ing)?(?: of)?|absen(?:ce|t) (?:of|in|from)|missing (?:in|from)|free of|spared by|fail(?:s|ed)? to|cannot|unlikely|\\w+n't|(?:do|does|did|is|are|was|were|ca|wo|have|has)nt",
    cue: 'negation',
  },
  {
    pattern:
      'other than|besides|beside|apart (?:from|of)|aside (?:from|of)|except(?:ing)?(?: for)?|exclud(?:e|es|ing)|exclusive of|not including|not counting|(?:leav(?:e|es|ing)|left|set(?:ting)?|put(?:ting)?|lay(?:ing)?|laid|keep(?:ing)?|kept|rul(?:e|es|ing)|ruled|filter(?:s|ing|ed)?|weed(?:s|ing|ed)?|strik(?:e|es|ing)|struck|cross(?:es|ing|ed)?) (?:out|aside)|omit(?:s|ting)?|minus|sans|save for|with the exception of|barring|disregarding|discounting|subtracting|removing|ignor(?:e|es|ing)|skip(?:s|ping)?|in addition to|rather than|instead of',
    cue: 'exclusion',
  },
  // A cue word clipped and closed with a period ("excl. those …", "exc. X", "w/o"): the abbreviation stands for the word.
  { pattern: clipped(['excluding', 'except', 'omitting']), cue: 'exclusion' },
  { pattern: 'w/o|w/out', cue: 'negation' },
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
  // A predicate of falsity framing a claim ("is it false that …", "would it be wrong to say …", "am I mistaken that …"):
  // the question asks whether the claim fails.
  { pattern: 'false|wrong|incorrect|untrue|inaccurate|mistak(?:e|en)|erroneous|(?:a )?(?:myth|misconception|fallacy)', cue: 'falsity' },
  // A statement with a tag asking to confirm it: "X binds Y, right?", "… — correct?", "…, isn't it?", "…, is that so?"
  {
    pattern:
      "(?<=[,;—–-]\\s*)(?:(?:is that|am i) )?(?:right|correct|true|so|wrong)\\s*\\?|(?:isn't|doesn't|don't|aren't|can't|won't|didn't) (?:it|they|he|she|that)\\s*\\?",
    cue: 'yesno',
  },
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

const QUESTION_PATTERNS = QUESTION_LEXICON.map((entry) => ({ ...entry, regex: compile(entry.pattern) }));

/** Counting, listing, negation, comparison and sharing cues, plus a yes/no opener of any sentence. */
export function findQuestionCues(text: string): QuestionCue[] {
  // An auxiliary opening an interrogative clause is the question's form, negated or not: "Isn't X used for Y?" asks
  // whether X is, so the opener comes first and wins over the negation cue on the same word.
  const found: QuestionCue[] = [...yesNoOpeners(text), ...alternatives(text)];
  for (const entry of QUESTION_PATTERNS) {
    for (const m of text.matchAll(entry.regex)) {
      found.push({ phrase: m[0], cue: entry.cue, start: m.index, end: m.index + m[0].length });
    }
  }
  return nonOverlapping(found);
}

/** Words between a verb and the "or" that offers its negation ("does X or doesn't it"). */
const ALTERNATIVE_REACH = 3;

/**
 * A verb offered with its own negation ("X might or might not bind Y", "does X or doesn't it bind Y", "does it or does it
 * not bind", "binds or does not bind"): the alternative asks which holds, a yes/no, and negates nothing. Read by lemmas: the negated half's auxiliary or
 * verb is the same word as the verb before "or". The cue spans both halves, so the negation inside it is no cue of its own.
 */
function alternatives(text: string): QuestionCue[] {
  const words = analyse(text);
  const out: QuestionCue[] = [];
  words.forEach((or, i) => {
    if (or.lemma !== 'or') return;
    // "or not", "or doesn't", "or does it not": the negation comes within an auxiliary and a pronoun of the "or".
    const not = words.slice(i + 1, i + 4).findIndex((w) => w.lemma === 'not');
    if (not < 0) return;
    const negatedAt = i + 1 + not;
    const negated = [words[i + 1], words[negatedAt + 1]].filter((w) => w && (w.pos === 'AUX' || w.pos === 'VERB'));
    const first = words
      .slice(Math.max(0, i - ALTERNATIVE_REACH - 1), i)
      .find((w) => (w.pos === 'AUX' || w.pos === 'VERB') && negated.some((n) => n.lemma === w.lemma));
    if (!first) return;
    out.push({ phrase: text.slice(first.start, words[negatedAt].end), cue: 'yesno', start: first.start, end: words[negatedAt].end });
  });
  return out;
}

/**
 * Where a clause may open: the text's start, after a sentence's end, a colon
 * or semicolon, a dash set off by spaces, a line break, and a comma before
 * an auxiliary, a conjunction at most between ("Metformin, does it …?", "hey,
 * does X …?", "I might be mixing things up, but is X …?").
 */
const CLAUSE_START = /^|[.?!:;](?=\s)|\s[—–-](?=\s)|[—–]|\n|,(?:\s+(?:but|so|and|or|yet|then))?(?=\s+(?:is|are|does|do|did|can|could|was|were|has|have)\s)/g;

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
