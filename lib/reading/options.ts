/**
 * Multiple-choice options: read them from a record, a list or the question text
 * itself ("... ? A. IL23R B. NOD2 ..."), and match an answer back to a letter.
 */

import { normalise } from '@/lib/llm/offline/text';
import { blankOut } from './attach';

export interface ParsedOption {
  letter: string;
  text: string;
  /** Offsets of the option text in the question, when it was written inline. */
  start?: number;
  end?: number;
}

/** Options written inline at these spans, lettered A, B, … in order. */
export function lettered(spans: readonly { start: number; end: number }[], text: string): ParsedOption[] {
  return spans.map((span, i) => ({ letter: String.fromCharCode(65 + i), text: text.slice(span.start, span.end), start: span.start, end: span.end }));
}

/** Options from {"A": "foo", ...} (letters sorted) or ["foo", ...] (lettered A, B, ...). */
export function parseOptions(options: Record<string, string> | string[]): ParsedOption[] {
  if (Array.isArray(options)) return options.map((text, i) => ({ letter: String.fromCharCode(65 + i), text: text.trim() }));
  return Object.keys(options)
    .sort()
    .map((letter) => ({ letter: letter.trim().toUpperCase(), text: String(options[letter]).trim() }));
}

// "A. x", "A) x", "(A) x", "A: x", "a) x", "(a) x", "1) x": a marker opens the text or follows a space.
const MARKER = /(?:^|(?<=\s))(\()?([A-Ja-j]|[1-9]|i{1,3}|iv|vi{0,3}|ix|x)([.):])\s+/g;
const ROMAN = ['i', 'ii', 'iii', 'iv', 'v', 'vi', 'vii', 'viii', 'ix', 'x'];
/** A marker's place in its run, read as a roman numeral or as a letter or digit ("i" is either). */
const romanPlace = (label: string) => ROMAN.indexOf(label);
const letterPlace = (label: string) => label.charCodeAt(0);

interface Marker {
  label: string;
  /** Bracket style, so one run never mixes "(a)" with "a." */
  style: string;
  start: number;
  end: number;
}

/** A question with the options written into it taken out. */
export interface InlineOptions {
  /** The question without the options, for reading aloud. */
  stem: string;
  /** The question with the options' text blanked out: same length, so offsets into the question hold. */
  blanked: string;
  options: ParsedOption[];
}

/**
 * Splits a question from the options written into it, in any of the usual
 * forms: lettered or numbered markers ("A) IL23R B) NOD2", "(a) … (b) …",
 * "1. … 2. …", "A: … B: …"), or a list set off by a colon or dashes, at the
 * end or in the middle ("…: IL13, NOD2, BRCA1 or APOE?", "Given list is:
 * IL23R, NOD2, CAT. Which one …", "which of these genes — ASTN2, MSLN or
 * APOA1 — is …", "Pick one: DPEP3 / PISD"). Markers must run A, B, C, ...
 * (or 1, 2, 3, ...) in order, in one style, at least two of them, so a stray
 * "vitamin A." is not an option; the longest run wins. A list needs at least
 * three short items, or two joined by "or", or a word saying there is a list
 * to choose from; "yes or no" is a verdict, not a list. A list written into
 * the sentence with no colon counts only when a singular selection governs it
 * ("which of metformin, warfarin or aspirin treats …", "is it IL6, TNF or INS
 * that …", "among A, B and C, which one …"); a list without one ("genes
 * shared by asthma, psoriasis and Crohn's disease") names the anchors.
 */
export function splitInlineOptions(text: string): InlineOptions {
  // Spoken fillers ("is it uh Purines, or, like, Xanthines") are no part of a list: read with them blanked (same offsets).
  const plain = text.replace(FILLER, (f) => ' '.repeat(f.length));
  const found = markedOptions(plain) ?? listedOptions(plain) ?? selectedOptions(plain);
  if (!found) return { stem: text, blanked: text, options: [] };
  const { options, from, to } = found;
  const blanked = blankOut(text, [{ start: from, end: to }]);
  const before = text.slice(0, from).replace(/[\s—–-]+$/, '');
  // "…? Nausea or tinnitus." and "… drug. Choices are …." keep one full stop; "Choose between A and B: which …" drops the colon.
  const rest = text
    .slice(to)
    .replace(/^[\s—–-]+/, '')
    .replace(/^[.?!:]+\s*/, (p) => (/[.?!]$/.test(before) || !before ? '' : p));
  const stem = `${before}${/^[.?!]/.test(rest) ? '' : ' '}${rest}`.trim();
  return { stem, blanked, options };
}

// Hesitations of speech, and a hedge right after a list's separator ("or maybe X", ", like, X"): no item's words.
const FILLER =
  /(?<![\p{L}'-])(?:u+h+m*|u+m+|e+r+m*|h+m+|a+h+)(?![\p{L}'-])|(?<=(?:,|\bor|\band)\s+)(?:like|maybe|perhaps|possibly|probably|i think|i guess|you know|i mean)(?![\p{L}])/giu;

/** Whether a span of the question lies inside one of its inline options. */
export function insideOptions(span: { start?: number; end?: number }, options: ParsedOption[]): boolean {
  return (
    span.start !== undefined &&
    options.some((o) => o.start !== undefined && o.end !== undefined && span.start! >= o.start && (span.end ?? span.start!) <= o.end)
  );
}

interface Found {
  options: ParsedOption[];
  /** The region the options (and their markers) take up. */
  from: number;
  to: number;
}

/**
 * The names of the letters a marker may be said or dictated as ("option bee", "letter see"), A to J in order: the
 * alphabet's spelling, as a speech-to-text transcript writes each letter ("be" is left out: "would the answer be …").
 */
const LETTER_NAMES = [['ay', 'aye', 'eh'], ['bee'], ['see', 'cee', 'sea'], ['dee'], ['ee'], ['ef', 'eff'], ['gee'], ['aitch', 'haitch'], ['eye'], ['jay']];
const SPOKEN_PLACE = ['one', 'two', 'three', 'four', 'five', 'six'];
const ORDINAL_PLACE = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth'];
// Markers said aloud: "option A … option B …", "letter C", "option bee", "choice one …", "first one …, second …".
const SPOKEN_MARKER = new RegExp(
  `(?<![\\p{L}])(?:(?:option|choice|answer|letter)\\s+([a-j]|[1-9]|${[...LETTER_NAMES.flat(), ...SPOKEN_PLACE].join('|')})|(${ORDINAL_PLACE.join('|')})(?:\\s+(?:one|option|choice))?)(?![\\p{L}])[\\s,:.)-]*`,
  'giu',
);

/** A spoken marker's place as a letter ("option B", "option bee", "choice two", "second one" → "B"). */
function spokenLabel(m: RegExpMatchArray): string {
  const said = (m[1] ?? m[2]).toLowerCase();
  const place = /^[a-j]$/.test(said)
    ? said.charCodeAt(0) - 97
    : /^\d$/.test(said)
      ? Number(said) - 1
      : Math.max(
          SPOKEN_PLACE.indexOf(said),
          ORDINAL_PLACE.indexOf(said),
          LETTER_NAMES.findIndex((names) => names.includes(said)),
        );
  return String.fromCharCode(65 + place);
}

function markedOptions(text: string): Found | null {
  const spoken: Marker[] = [...text.matchAll(SPOKEN_MARKER)].map((m) => ({
    label: spokenLabel(m),
    style: m[2] ? 'ordinals' : 'said',
    start: m.index,
    end: m.index + m[0].length,
  }));
  const markers: Marker[] = [
    ...[...text.matchAll(MARKER)]
      .map((m) => ({
        label: m[2],
        style: `${m[1] ?? ''}${m[3]}${/\d/.test(m[2]) ? 'n' : m[2] === m[2].toUpperCase() ? 'U' : 'l'}`,
        start: m.index,
        end: m.index + m[0].length,
      }))
      // "Letter A: …": the written marker inside a spoken one is that marker, not one of its own.
      .filter((w) => !spoken.some((s) => s.start < w.start && w.end <= s.end)),
    ...spoken,
  ].sort((a, b) => a.start - b.start);
  let best: Marker[] = [];
  for (const [i, first] of markers.entries()) {
    if (!['A', 'a', '1', 'i'].includes(first.label)) continue;
    // A lower-case "a." or "a:" is too often the article; lower-case letters need a bracket, or every marker opens a line.
    const bare = first.style.endsWith('l') && !first.style.includes(')');
    if (bare && !opensLine(text, first.start)) continue;
    for (const place of first.label === 'i' ? [romanPlace, letterPlace] : [letterPlace]) {
      const run = [first];
      for (const next of markers.slice(i + 1)) {
        if (bare && !opensLine(text, next.start)) continue;
        if (next.style === first.style && place(next.label) === place(run.at(-1)!.label) + 1) run.push(next);
      }
      if (run.length >= 2 && run.length >= best.length) best = run;
    }
  }
  if (!best.length) return null;
  const options = best.map((marker, i) => {
    const span = trimmed(text, marker.end, i + 1 < best.length ? best[i + 1].start : text.length);
    // "… third vinca alkaloids, and fourth …": the conjunction before the next marker is no part of the item.
    const joined = /[\s,;]+(?:and|or)$/i.exec(text.slice(span.start, span.end));
    if (joined) span.end = span.start + joined.index;
    return { letter: String.fromCharCode(65 + i), text: text.slice(span.start, span.end), ...span };
  });
  return { options, from: best[0].start, to: text.length };
}

function opensLine(text: string, at: number): boolean {
  return /(?:^|\n)[ \t]*$/.test(text.slice(0, at));
}

// A list opens after a colon, a dash, a word saying the choices follow ("the choices are", "choose between"), or a question
// mark (the options after the question: "…? Nausea, alopecia or tinnitus.", one per line); it runs to the next dash, the end
// of its sentence, or the end.
const LIST_OPENER =
  /\s(?:->|=>|→)\s|:|\s[—–-]\s|[—–]|\?(?=\s)|\b(?:choices|options|candidates|alternatives|answers)\s+(?:are|being|include)\b|\b(?:choose|pick|select|decide)\s+(?:one\s+)?(?:between|from|among)\b/gi;
// A list's items name things: a pronoun or a finite verb makes an item a clause (after a question mark, a further sentence).
const SENTENCE_WORD =
  /(?<![\p{L}'])(?:i|i'm|i've|me|my|we|our|you|your|he|his|she|her|they|their|it|its|this|that|is|are|was|were|has|have|had|does|do|did|can|could|would|will|should|please|thanks|also)(?![\p{L}'])/iu;
const LIST_END = /\s*(?:\s[—–-]\s|[—–]|[.?!:](?=\s|$)|$)/g;
// A slash after a one-letter word is shorthand ("w/", "w/o", "b/c"), no separator.
const SEPARATOR = /\s*(?:,[\s,]*(?:(?:and|or)\b[\s,]*)?|;\s*|\s+(?:and\/or|or|and)\s+|\s*(?:(?<!(?:^|[\s(])[a-z])\/|[|•·▪◦])\s*|\n\s*[-*•·▪◦–]?\s*)/gi;
const CHOICE_WORDS = /\b(?:list|following|options?|choices?|candidates?|choose|select|pick|which one|which of|one of these|among)\b/i;
const MAX_ITEM_WORDS = 6;
// A question over every member of a list ("… what drug treats all three?"): the list names the anchors.
const ALL_OF = /\b(?:both|all|each|every|shared?|common|together)\b/i;
// A question pointing back at a list written before it ("which of these", "which one", "pick one").
const POINTS_BACK =
  /\b(?:these|those|them|the above|the following|which one|either|pick|choose|select)\b|\b(?:which|what)\s+(?:\w*(?:[^s\W]|ss)\b|(?:\w+\s+)?(?:is|was|does|did|has|can)\b)/i;
const QUESTION_WORD = /\b(?:which|what|whose|who|how|where|when|why)\b|#|\bnumber of\b/i;

/** The list with the most items (the later of equals) among the colon-, dash- or bracket-opened segments. */
function listedOptions(text: string): Found | null {
  let best: Found | null = null;
  // "… a drug for asthma (Purines, Xanthines or Thiazides)?", "[A | B | C]": a bracketed list of choices, joined by "or" or a bar.
  for (const bracket of text.matchAll(/[([]([^()[\]]+)[)\]]/g)) {
    const from = bracket.index + 1;
    // A bracket closing the text holds a list joined by commas alone too ("… IN (A, B, C, D)").
    const closing = !/[\p{L}\p{N}]/u.test(text.slice(bracket.index + bracket[0].length)) && !ALL_OF.test(text);
    const found =
      /\s(?:or|and\/or)\s|[/|;]/i.test(bracket[1]) || (closing && (bracket[1].match(/,/g)?.length ?? 0) >= 2)
        ? listAt(text, bracket.index, from, from + bracket[1].length, from + bracket[1].length + 1)
        : null;
    if (found && found.options.length >= 3 && (!best || found.options.length >= best.options.length)) best = found;
  }
  // "Metformin, aspirin, warfarin - which of these treats gout?": a list opening the text, closed by a dash or colon, before a
  // question that points back at it.
  const opening = /^([^.?!:—–]+?)(?:\s[—–-]\s|[—–]|:\s)/.exec(text);
  if (opening && POINTS_BACK.test(text.slice(opening[0].length)) && !ALL_OF.test(text.slice(opening[0].length))) {
    const found = listAt(text, 0, 0, opening[1].length, opening[0].length);
    if (found && found.options.length >= 2) best = { ...found, to: opening[0].length };
  }
  // "Which class, purines or xanthines or thiazides, includes …": a list joined by "or" set off by commas after the asked noun.
  const apposed = /\b(?:which|what)(?:\s+[\p{L}-]+){1,2}\s*,\s*([^,?.!]+?\s(?:or|and\/or)\s[^,?.!]+?)\s*,/iu.exec(text);
  if (apposed) {
    const from = apposed.index + apposed[0].indexOf(apposed[1]);
    const found = listAt(text, from, from, from + apposed[1].length, from + apposed[1].length);
    if (found && (!best || found.options.length >= best.options.length)) best = found;
  }
  for (const lines of lineRuns(text)) {
    const found = listAt(text, lines.from, lines.from, lines.to, lines.to);
    if (found && (!best || found.options.length >= best.options.length)) best = found;
  }
  for (const opener of text.matchAll(LIST_OPENER)) {
    const from = opener.index + opener[0].length;
    LIST_END.lastIndex = from;
    const close = LIST_END.exec(text)!;
    const asked = opener[0] === '?';
    // A line break after the question mark: the options run one per line to the end; so do items each asked on its own
    // ("…? Purines? Xanthines? Thiazides?").
    // (Not where the clause before the mark is itself an item: "… medicines... vertigo? somnolence?" is a run of names.)
    const lastClause =
      text
        .slice(0, opener.index)
        .split(/[.?!…]\s*/)
        .at(-1) ?? '';
    const eachAsked = asked && !itemLine(lastClause) && /^(?:\s*[^?.!\n]{1,80}\?){2,}\s*$/.test(text.slice(from));
    const to = asked && (eachAsked || /^[ \t]*\n/.test(text.slice(from))) ? text.replace(/[\s.?!]+$/, '').length : close.index;
    // Items each asked are read with their question marks as commas (same offsets).
    const read = eachAsked ? text.slice(0, from) + text.slice(from).replace(/\?/g, ',') : text;
    const found = listAt(read, opener.index + (asked ? 1 : 0), from, to, asked ? to : close.index + close[0].length);
    if (found && (!best || found.options.length >= best.options.length)) best = found;
    // "Options are A, B, C, D; which of them …": a list joined by commas ends at a semicolon.
    const semicolon = text.indexOf(';', from);
    if (!found && semicolon > from && semicolon < to && text.slice(from, semicolon).includes(',')) {
      const cut = listAt(text, opener.index, from, semicolon, semicolon + 1);
      if (cut && (!best || cut.options.length >= best.options.length)) best = cut;
    }
  }
  return best;
}

// A line that can hold one option: a bullet at most, then a few words naming a thing (no question, no clause, no heading colon).
const BULLET = /^[ \t]*(?:[-*•·▪◦–][ \t]+)?/;
const itemLine = (line: string) => {
  const body = line.replace(BULLET, '').trim();
  return !!body && body.split(/\s+/).length <= MAX_ITEM_WORDS && !/[?:]$/.test(body) && !QUESTION_WORD.test(body) && !SENTENCE_WORD.test(body);
};

/**
 * Options written one per line beside the line that asks, whatever closes that line ("… manifestations.\n- A\n- B",
 * "symptom of … drugs\nA\nB\nC", "Candidates:\nA\nB\nC\nWhich … ?"): a run of two or more lines that each name one thing,
 * in a text with another line that is not such an item. The run opens at the line break before its first line (or the
 * text's start, with three lines or more).
 */
function lineRuns(text: string): { from: number; to: number }[] {
  const lines: { start: number; end: number; item: boolean }[] = [];
  for (const m of text.matchAll(/[^\n]*/g)) {
    if (m.index > 0 && text[m.index - 1] !== '\n') continue;
    lines.push({ start: m.index, end: m.index + m[0].length, item: itemLine(m[0]) });
  }
  if (!lines.some((l) => !l.item && l.end > l.start)) return [];
  const runs: { from: number; to: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].item) continue;
    let j = i;
    while (j + 1 < lines.length && lines[j + 1].item) j++;
    if (j > i && (i > 0 || j - i >= 2)) runs.push({ from: i > 0 ? lines[i].start - 1 : BULLET.exec(text)![0].length, to: lines[j].end });
    i = j;
  }
  return runs;
}

function listAt(text: string, openerStart: number, from: number, to: number, closeEnd: number): Found | null {
  // "Candidates:\nA\nB\nDrugs for X: which …": a list one per line ends at the last line it holds whole.
  const lineEnd = text.indexOf('\n', to);
  const broken = text.lastIndexOf('\n', to - 1);
  if (broken > from && text.slice(to, lineEnd < 0 ? text.length : lineEnd).replace(/^[\s.?!]*/, '') !== '') to = closeEnd = broken;
  // "…, or FIGF (I'm reviewing expression changes)?": a bracketed remark closing the list is the writer's aside, not part of an item.
  const aside = /\s*\(([^()]*)\)\s*$/.exec(text.slice(from, to));
  if (aside && (SENTENCE_WORD.test(aside[1]) || aside[1].split(/\s+/).length > MAX_ITEM_WORDS)) to = from + aside.index;
  const list = text.slice(from, to);
  const items: { start: number; end: number }[] = [];
  let at = 0;
  for (const sep of list.matchAll(SEPARATOR)) {
    items.push({ start: at, end: sep.index });
    at = sep.index + sep[0].length;
  }
  items.push({ start: at, end: list.length });
  const spans = items.map((i) => trimmed(text, from + i.start, from + i.end)).filter((i) => i.end > i.start);
  // "…: uterus, liver or medulla, which?": a question word closing the list asks over it, no item.
  if (spans.length > 2 && /^(?:which|what)(?:\s+one)?$/i.test(text.slice(spans.at(-1)!.start, spans.at(-1)!.end))) {
    spans.pop();
    to = closeEnd = spans.at(-1)!.end;
  }
  if (spans.length < 2 || spans.some((i) => text.slice(i.start, i.end).split(/\s+/).length > MAX_ITEM_WORDS)) return null;
  // "… — what types or classes of drugs bind to it?": an item holding a question word is the question, not a choice.
  if (spans.some((i) => QUESTION_WORD.test(text.slice(i.start, i.end)))) return null;
  // "…: take the genes in it, the compounds that bind those genes, and …" are steps, not choices: items name things.
  if (spans.some((i) => SENTENCE_WORD.test(text.slice(i.start, i.end)))) return null;
  // "…: true or false?", "… — yes or no?", "… — known side effect or not?" asks for a verdict, not a choice among entities.
  // "… Answer yes or no.": each item ending in a verdict word asks for a verdict too.
  if (spans.every((i) => /(?:^|\s)(?:true|false|yes|no|y|n|t|f)$/i.test(text.slice(i.start, i.end)))) return null;
  // "…: lung cancer included, yes or no?": the verdict words closing a clause ask for a verdict on it, not a choice.
  if (spans.filter((i) => /^(?:true|false|yes|no)$/i.test(text.slice(i.start, i.end))).length >= 2) return null;
  if (/^not$/i.test(text.slice(spans.at(-1)!.start, spans.at(-1)!.end))) return null;
  const joinedByOr = /\s(?:or|and\/or)\s|[/|]/i.test(list);
  if (spans.length < 3 && !joinedByOr && !CHOICE_WORDS.test(text)) return null;
  const options = lettered(spans, text);
  // A closing dash belongs to the list; a sentence's full stop or question mark stays with the stem.
  const to_ = /[—–-]/.test(text.slice(to, closeEnd)) ? closeEnd : to;
  return { options, from: openerStart, to: to_ };
}

// A singular selection that governs a list written into the sentence: "which of …", "is it …", "would it be …", "among …, which",
// "out of …, which".
const SELECTION =
  /\b(?:which\s+(?:one\s+|single\s+)?of|(?:is|was|would|could|might|will)\s+it(?:\s+be)?|(?:from\s+)?among|out\s+of)\s+|(?:^|(?<=[.?!:]\s+))of\s+/gi;
// "the genes", "these drugs": the kind of the items, read with the question, not an item.
const ITEM_KIND = /^(?:the|these|those)\s+(?:following\s+)?(?:[a-z]+s\s+)?/i;
// "among the options A, B …": the word saying the items are choices.
const CHOICE_KIND = /^(?:the\s+|these\s+)?(?:options|choices|candidates|alternatives|following)\s*:?\s+/i;
// A word no entity name in a list holds; it starts the clause after the list.
const CLAUSE_WORD =
  /^(?:with|by|in|on|to|for|from|of|that|which|who|whose|is|are|was|were|has|have|had|does|do|did|can|could|would|will|the|a|an|it|associated|linked|related|shared|used|known)$/i;
// After "among A, B and C,": a plural question over the list asks about the anchors ("…, which genes are shared?").
const PLURAL_AFTER =
  /^,?\s*which\s+(?!one\b)(?:\w+\s+)?(?:genes|drugs|compounds|diseases|medications|medicines|proteins|pathways|symptoms|ones|are|were|have|do)\b/i;

/**
 * A list written into the sentence after a selection word: items split by
 * commas up to the first "or"/"and", the last item as long as the longest
 * before it (after "among", up to the comma before "which") and cut at the
 * clause that follows. Three items, or two joined by "or".
 */
function selectedOptions(text: string): Found | null {
  for (const opener of text.matchAll(SELECTION)) {
    let from = opener.index + opener[0].length;
    // "among A, B and C, which …", "out of A, B or C, which …": the list comes before the question word.
    const isAmong = /^(?:from\s+)?among|^out|^of/i.test(opener[0]);
    const kind = (isAmong ? CHOICE_KIND : ITEM_KIND).exec(text.slice(from));
    if (kind) from += kind[0].length;
    const sentence = /[?.!;:](?=\s|$)|$/.exec(text.slice(from))!;
    const region = text.slice(from, from + sentence.index);
    const seps = [...region.matchAll(SEPARATOR)];
    let close = seps.findIndex((sep) => /\b(?:or|and)\b/i.test(sep[0]) || !/,/.test(sep[0]));
    const conjunction = close < 0 ? null : (/\b(or|and)\b/i.exec(seps[close][0])?.[1].toLowerCase() ?? null);
    // "Which class does it belong among A, B, C, D?": a list of commas alone after "among" closing the question.
    if (!conjunction && !(isAmong && seps.length >= 2 && seps.every((sep) => /^\s*,\s*$/.test(sep[0])) && /^[\s?.!]*$/.test(text.slice(from + region.length))))
      continue;
    if (!conjunction) close = seps.length - 1;
    // "A, or B, or C, or D": the conjunction repeated runs the list on.
    while (conjunction === 'or' && close + 1 < seps.length && /\bor\b/i.test(seps[close + 1][0])) close++;
    const spans: { start: number; end: number }[] = [];
    let at = 0;
    for (const sep of seps.slice(0, close + 1)) {
      const span = trimmed(text, from + at, from + sep.index);
      if (span.end > span.start || at === 0) spans.push(span);
      at = sep.index + sep[0].length;
    }
    const words = (s: { start: number; end: number }) => text.slice(s.start, s.end).split(/\s+/);
    const tail = /^[^\s,]+(?:\s+[^\s,]+)*/.exec(region.slice(at))?.[0] ?? '';
    // "Is it Organic Anion Transporting Polypeptide 2B1 Inhibitors, … or Protein Kinase Inhibitors?": a list closing its
    // sentence holds items as long as any list's, the last one up to the sentence's end.
    const tailWords = tail.split(/\s+/);
    const closes =
      /\bit\b/i.test(opener[0]) &&
      /[?.!]/.test(text[from + sentence.index] ?? '') &&
      tailWords.length <= MAX_ITEM_WORDS &&
      !tailWords.some((w) => CLAUSE_WORD.test(w)) &&
      !/\S/.test(region.slice(at + tail.length));
    const most = closes ? MAX_ITEM_WORDS : 4;
    if (spans.some((s) => s.end <= s.start || words(s).length > most || words(s).some((w) => CLAUSE_WORD.test(w)))) continue;
    const longest = closes ? MAX_ITEM_WORDS : Math.max(...spans.map((s) => words(s).length));
    const last: string[] = [];
    for (const w of tailWords) {
      if (last.length === (isAmong ? 4 : longest) || CLAUSE_WORD.test(w)) break;
      last.push(w);
    }
    if (!last.length) continue;
    spans.push(trimmed(text, from + at, from + at + last.join(' ').length));
    if (spans.length < 3 && conjunction !== 'or') continue;
    const to = spans.at(-1)!.end;
    // "Which class does a psoriasis drug belong among: A, B, C or D?": an "among" list may close a question that asks already.
    const closesAsked = /^[\s?.!]*$/.test(text.slice(to)) && /\b(?:which|what)\b/i.test(text.slice(0, opener.index));
    if (isAmong && !closesAsked && (!/^\s*,\s*(?:which|what)\b/i.test(text.slice(to)) || PLURAL_AFTER.test(text.slice(to)))) continue;
    const options = lettered(spans, text);
    return { options, from: spans[0].start, to };
  }
  return null;
}

/** The span between two offsets without surrounding spaces, quotes and trailing punctuation, and brackets only when unbalanced. */
function trimmed(text: string, start: number, end: number): { start: number; end: number } {
  const count = (c: string) => text.slice(start, end).split(c).length - 1;
  for (;;) {
    if (start < end && (/[\s"'“”‘’]/.test(text[start]) || (text[start] === '(' && count('(') > count(')')) || (text[start] === '[' && count('[') > count(']'))))
      start++;
    else if (
      end > start &&
      (/[\s"'“”‘’,;.?!]/.test(text[end - 1]) || (text[end - 1] === ')' && count(')') > count('(')) || (text[end - 1] === ']' && count(']') > count('[')))
    )
      end--;
    else return { start, end };
  }
}

/**
 * The option an answer names: a bare letter ("B", "(B)", "Answer: B") or an
 * option's text after normalisation. null when it names none or several.
 */
export function matchOption(answer: string, options: ParsedOption[]): string | null {
  const letter = /^\s*(?:(?:the\s+)?answer(?:\s+is)?\s*[:-]?\s*)?\(?([A-J])\)?[.)]?\s*$/i.exec(answer);
  if (letter) {
    const found = options.find((o) => o.letter === letter[1].toUpperCase());
    if (found) return found.letter;
  }
  const wanted = normalise(answer);
  const hits = options.filter((o) => normalise(o.text) === wanted);
  return hits.length === 1 ? hits[0].letter : null;
}
