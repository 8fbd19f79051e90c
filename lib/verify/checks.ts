/**
 * The offline judge: each criterion becomes a programmatic check against the
 * run's recorded answer, rationale and cited evidence. General criteria name
 * their check in the criteria file; question-specific criteria are recognised
 * by the phrasing the offline checklist writes. Anything else is judged "no"
 * with the reason, never guessed.
 */

import { normalise } from '@/lib/llm/offline/text';
import type { RunReasoning } from './reasoning';

export interface Verdict {
  verdict: 'yes' | 'no';
  reason: string;
}

const yes = (reason: string): Verdict => ({ verdict: 'yes', reason });
const no = (reason: string): Verdict => ({ verdict: 'no', reason });

/** Whole-word containment after the KG's name normalisation. */
export function mentions(haystack: string, name: string): boolean {
  const needle = normalise(name);
  return !!needle && ` ${normalise(haystack)} `.includes(` ${needle} `);
}

/** The names the answer gives: its items, else the chosen option's text, else its text. */
export function answerNames(r: RunReasoning): string[] {
  const a = r.answer;
  if (a.abstained) return [];
  if (a.items.length) return a.items;
  const option = a.optionKey ? r.options?.[a.optionKey] : undefined;
  return [option ?? a.text].filter((t) => t.trim());
}

function evidenceText(r: RunReasoning): string {
  return r.evidence.map((e) => e.text).join('\n');
}

function isInteger(r: RunReasoning): boolean {
  return r.answer.count !== null ? Number.isInteger(r.answer.count) : /^-?\d+$/.test(r.answer.text.trim());
}

function chosenOption(r: RunReasoning): string | null {
  const { optionKey, text } = r.answer;
  if (!r.options) return null;
  if (optionKey && r.options[optionKey.toUpperCase()]) return optionKey.toUpperCase();
  const hits = Object.entries(r.options).filter(([key, value]) => normalise(value) === normalise(text) || key === text.trim().toUpperCase());
  return hits.length === 1 ? hits[0][0] : null;
}

/** R_format's test too: the answer has the form the question type asks for. */
export function wellFormed(r: RunReasoning): Verdict {
  const a = r.answer;
  if (a.abstained || !a.text.trim()) return no('no answer was given');
  switch (r.answerType) {
    case 'mcq':
      return chosenOption(r) ? yes(`chooses option ${chosenOption(r)}`) : no('names none of the options');
    case 'count':
      return isInteger(r) ? yes('states an integer') : no(`'${a.text}' is not an integer`);
    case 'yesno':
      return /^(yes|no|maybe)$/i.test(a.text.trim()) ? yes(`answers ${a.text.trim()}`) : no(`'${a.text}' is not yes, no or maybe`);
    default:
      return yes('names an answer');
  }
}

const GENERAL: Record<string, (r: RunReasoning) => Verdict> = {
  'answer-given': (r) => (r.answer.abstained || !r.answer.text.trim() ? no('the run abstained') : yes(`answers '${r.answer.text}'`)),
  'claims-grounded': (r) => {
    if (!r.claims.length) return no('the answer makes no claim');
    const cited = new Set(r.evidence.map((e) => e.id));
    const bare = r.claims.filter((c) => !c.evidenceIds.some((id) => cited.has(id)));
    return bare.length ? no(`${bare.length} of ${r.claims.length} claim(s) cite no recorded evidence`) : yes(`all ${r.claims.length} claim(s) cite evidence`);
  },
  'rationale-links-evidence': (r) => {
    if (!r.rationale.trim()) return no('no rationale');
    if (!r.evidence.length) return no('the rationale cites no evidence');
    const named = [...answerNames(r), r.answer.text].filter((n) => n.trim() && mentions(r.rationale, n));
    return named.length ? yes(`the rationale derives '${named[0]}' from ${r.evidence.length} cited record(s)`) : no('the rationale never names the answer');
  },
  'question-entities-used': (r) => {
    const text = `${r.rationale}\n${evidenceText(r)}\n${r.answer.text}`;
    const missed = r.entities.filter((e) => !mentions(text, e.name) && !mentions(text, e.mention));
    if (!r.entities.length) return yes('the question names no linked entity');
    return missed.length ? no(`never refers to ${missed.map((e) => e.name).join(', ')}`) : yes(`refers to ${r.entities.map((e) => e.name).join(', ')}`);
  },
  'answer-in-evidence': (r) => {
    if (r.answer.abstained) return no('no answer to support');
    if (!r.evidence.length) return no('the answer cites no evidence');
    // A verdict or a bare number is no name: it is supported when it cites evidence at all.
    const names = r.answerType === 'yesno' || (r.answerType === 'count' && !r.answer.items.length) ? [] : answerNames(r);
    const absent = names.filter((n) => !mentions(evidenceText(r), n));
    return absent.length ? no(`the cited evidence never names ${absent.join(', ')}`) : yes('everything the answer names appears in its cited evidence');
  },
  'self-consistent': (r) => {
    const a = r.answer;
    if (a.abstained !== !a.text.trim()) return no(a.abstained ? 'abstains yet states an answer' : 'states an empty answer without abstaining');
    if (a.count !== null && a.items.length && a.count !== a.items.length) return no(`count ${a.count} but ${a.items.length} item(s) listed`);
    const option = a.optionKey ? r.options?.[a.optionKey] : undefined;
    if (option && normalise(option) !== normalise(a.text) && a.text.trim().toUpperCase() !== a.optionKey)
      return no(`option ${a.optionKey} is '${option}' but the answer says '${a.text}'`);
    return yes('answer, items and count agree');
  },
  'answer-format': wellFormed,
};

/** Relations named as "(CtD/CpD)" in a criterion. */
function relationSupport(r: RunReasoning, metaedges: string[], anchor: string): Verdict {
  const names = answerNames(r);
  const hit = r.evidence.find((e) =>
    e.triples.some((t) => {
      if (!metaedges.includes(t.metaedge)) return false;
      const ends = [t.sourceName, t.targetName];
      const at = ends.findIndex((n) => normalise(n) === normalise(anchor));
      return at >= 0 && names.some((n) => normalise(n) === normalise(ends[1 - at]));
    }),
  );
  return hit ? yes(`cites ${hit.text}`) : no(`no cited ${metaedges.join('/')} triple joins ${anchor} to the answer`);
}

const QUESTION: { pattern: RegExp; check: (m: RegExpExecArray, r: RunReasoning) => Verdict }[] = [
  {
    pattern: /^The answer names an? (.+)\.$/,
    check: (m, r) => {
      const kind = normalise(m[1]);
      const names = answerNames(r).map(normalise);
      const byNode = r.answer.nodeIds.some((id) => normalise(id.split('::')[0]) === kind);
      const byEvidence = r.evidence.some((e) =>
        e.triples.some(
          (t) =>
            (names.includes(normalise(t.sourceName)) && normalise(t.sourceKind) === kind) ||
            (names.includes(normalise(t.targetName)) && normalise(t.targetKind) === kind),
        ),
      );
      return byNode || byEvidence ? yes(`the answer is a ${m[1]} in the KG`) : no(`nothing shows the answer is a ${m[1]}`);
    },
  },
  { pattern: /^The answer is supported by an? .*\(([^)]+)\) relation to (.+)\.$/, check: (m, r) => relationSupport(r, m[1].split('/'), m[2]) },
  {
    pattern: /^The answer rests on evidence about (.+) and (.+)\.$/,
    check: (m, r) => {
      const missing = [m[1], m[2]].filter((n) => !mentions(evidenceText(r), n));
      return missing.length ? no(`no cited evidence about ${missing.join(' or ')}`) : yes(`cited evidence names ${m[1]} and ${m[2]}`);
    },
  },
  {
    pattern: /^The count is stated as an integer\.$/,
    check: (_m, r) => (!r.answer.abstained && isInteger(r) ? yes(`states ${r.answer.count ?? r.answer.text}`) : no('no integer stated')),
  },
  {
    pattern: /^The answer is stated as yes or no\.$/,
    check: (_m, r) => (/^(yes|no)$/i.test(r.answer.text.trim()) ? yes(`answers ${r.answer.text.trim()}`) : no(`'${r.answer.text}' is neither yes nor no`)),
  },
  {
    pattern: /^The answer chooses exactly one of the options\.$/,
    check: (_m, r) => (chosenOption(r) ? yes(`chooses ${chosenOption(r)}`) : no('chooses no single option')),
  },
  {
    pattern: /^The answer chooses option ([A-J]) \((.*)\)\.$/,
    check: (m, r) => (chosenOption(r) === m[1] ? yes(`chooses ${m[1]}`) : no(`chooses ${chosenOption(r) ?? 'no option'}, not ${m[1]}`)),
  },
  {
    pattern: /^The count stated is (-?\d+)\.$/,
    check: (m, r) => {
      const stated = r.answer.count ?? (isInteger(r) ? Number(r.answer.text) : null);
      return stated === Number(m[1]) ? yes(`states ${stated}`) : no(`states ${stated ?? 'no count'}, not ${m[1]}`);
    },
  },
  {
    pattern: /^The answer is (yes|no|maybe)\.$/,
    check: (m, r) => (normalise(r.answer.text) === m[1] ? yes(`answers ${m[1]}`) : no(`answers '${r.answer.text || '(nothing)'}', not ${m[1]}`)),
  },
  {
    pattern: /^The answer identifies (.+)\.$/,
    check: (m, r) =>
      answerNames(r).some((n) => normalise(n) === normalise(m[1])) ? yes(`names ${m[1]}`) : no(`names ${answerNames(r).join(', ') || 'nothing'}, not ${m[1]}`),
  },
];

export function checkCriterion(criterion: { text: string; check: string | null }, r: RunReasoning): Verdict {
  if (criterion.check) {
    const general = GENERAL[criterion.check];
    return general ? general(r) : no(`unknown check '${criterion.check}'`);
  }
  for (const { pattern, check } of QUESTION) {
    const m = pattern.exec(criterion.text.trim());
    if (m) return check(m, r);
  }
  return no('the offline engine has no programmatic check for this criterion');
}
