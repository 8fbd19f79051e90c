/**
 * Relation cues: the registry's phrases found in a text, each with the loaded
 * graph's metaedges it can mean. A phrase often fits several metaedges
 * ("binds": a compound binding a gene or two genes interacting); the
 * question's entity kinds decide among them later, so a cue stays
 * kind-agnostic. Metaedges are listed by the phrase's rank in each sense
 * claiming it, then by the registry's order.
 */

import { metaedgesOfSenses } from '@/lib/llm/offline/metaedges';
import type { RelationCue } from '@/lib/llm/offline/types';
import { analyseText, matchAt, nominalForms, type AnalysedText } from './phrases';
import { registryVersion, senses } from './senses';

interface IndexedPhrase {
  text: string;
  words: string[];
  first: Set<string>;
  /** "sense" or "sense:concept" specs, preferred first. */
  specs: string[];
  generic: boolean;
}

let index: { version: number; byForm: Map<string, IndexedPhrase[]> } | null = null;

/** Phrases of every sense, merged by text, indexed by the forms their first word can take. */
function phraseIndex(): Map<string, IndexedPhrase[]> {
  if (index?.version === registryVersion()) return index.byForm;
  const byText = new Map<string, { phrase: IndexedPhrase; ranked: { spec: string; rank: number; order: number }[] }>();
  senses().forEach((sense, order) => {
    for (const p of sense.phrases) {
      const words = p.text.split(' ');
      let entry = byText.get(p.text);
      if (!entry) {
        entry = { phrase: { text: p.text, words, first: new Set([words[0]]), specs: [], generic: true }, ranked: [] };
        byText.set(p.text, entry);
      }
      if (p.pos === 'verb') for (const f of nominalForms(words[0])) entry.phrase.first.add(f);
      // Loose only when every sense claiming it takes it loosely.
      entry.phrase.generic &&= p.generic;
      entry.ranked.push({ spec: p.only ? `${sense.id}:${p.only}` : sense.id, rank: p.rank, order });
    }
  });
  const byForm = new Map<string, IndexedPhrase[]>();
  for (const { phrase, ranked } of byText.values()) {
    phrase.specs = [...new Set(ranked.sort((a, b) => a.rank - b.rank || a.order - b.order).map((r) => r.spec))];
    for (const form of phrase.first) byForm.set(form, [...(byForm.get(form) ?? []), phrase]);
  }
  index = { version: registryVersion(), byForm };
  return byForm;
}

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
export function findRelationCues(text: string | AnalysedText): RelationCue[] {
  const t = typeof text === 'string' ? analyseText(text) : text;
  const byForm = phraseIndex();
  const found: RelationCue[] = [];
  for (let i = 0; i < t.words.length; i++) {
    const candidates = new Set<IndexedPhrase>();
    for (const forms of [t.forms[i], t.joined[i]]) for (const f of forms ?? []) for (const p of byForm.get(f) ?? []) candidates.add(p);
    for (const phrase of candidates) {
      const m = matchAt(t, i, phrase.words, phrase.first);
      if (!m) continue;
      const metaedges = metaedgesOfSenses(phrase.specs);
      if (!metaedges.length) continue;
      found.push(withVoice(t, { phrase: t.text.slice(m.start, m.end), metaedges, start: m.start, end: m.end, generic: phrase.generic, voice: 'active' }));
    }
  }
  return nonOverlapping(found);
}

/**
 * A participle followed by "by" ("regulated by", "bound by") is passive, and so is a nominal ("under regulation by X":
 * X regulates); the cue then spans the "by".
 */
function withVoice(t: AnalysedText, cue: RelationCue): RelationCue {
  if (!/(?:ed|bound|ion|ment)$/i.test(cue.phrase)) return cue;
  const by = /^\s+by(?![\p{L}\p{N}])/u.exec(t.text.slice(cue.end));
  if (!by) return cue;
  const end = cue.end + by[0].length;
  return { ...cue, phrase: t.text.slice(cue.start, end), end, voice: 'passive' };
}
