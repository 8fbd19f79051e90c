/**
 * Offline monitor, querier and injector. The monitor flags a window that
 * states a needed fact without any finding; the querier turns the first need
 * not yet searched into the query; the injector restates the retrieved records
 * in the paper's aside template and adds nothing of its own.
 */

import { lexicalSimilarity } from '@/lib/llm/offline/lexical';
import { normalise, splitSentences } from '@/lib/llm/offline/text';
import type { EvidenceItem, QuestionFrame } from '../templates';
import { NEED_SENTENCE } from './reasoning';

const FINDING = /\bI found that\b/;
const PASSAGE_CHARS = 240;

function needsIn(text: string): string[] {
  return [...text.matchAll(NEED_SENTENCE)].map((m) => m[1].trim());
}

export function monitorWindow(input: { window: string }): { needsRetrieval: boolean; reason: string } {
  const needs = needsIn(input.window);
  if (!needs.length) return { needsRetrieval: false, reason: 'the passage states no needed fact' };
  if (FINDING.test(input.window)) return { needsRetrieval: false, reason: 'the passage already carries retrieved findings' };
  return { needsRetrieval: true, reason: `the passage needs facts it does not have: ${needs.join('; ')}` };
}

export function writeQuery(input: { frame: QuestionFrame; window: string; asked: string[] }): { query: string } {
  const asked = new Set(input.asked.map(normalise));
  const needs = needsIn(input.window);
  const fresh = needs.find((n) => !asked.has(normalise(n))) ?? needs[0];
  if (fresh) return { query: fresh };
  // No stated need (a model-written window): the question's entities that the window mentions.
  const mentioned = input.frame.entities.filter((e) => normalise(input.window).includes(normalise(e.name)));
  return { query: (mentioned.length ? mentioned : input.frame.entities).map((e) => e.name).join(' ') || input.frame.question };
}

/** One retrieved record as a clause: the triple as written, or the passage sentence closest to the query. */
function statement(item: EvidenceItem, query: string): string {
  if (item.triples.length) return item.triples.map((t) => `${t.sourceName} ${t.verb} ${t.targetName}`).join(', then ');
  const sentences = splitSentences(item.text);
  const best = sentences.reduce((a, b) => (lexicalSimilarity(query, b.text) > lexicalSimilarity(query, a.text) ? b : a), sentences[0] ?? { text: item.text });
  const text = best.text.replace(/[.\s]+$/, '');
  return text.length > PASSAGE_CHARS ? `${text.slice(0, PASSAGE_CHARS).replace(/\s+\S*$/, '')} …` : text;
}

export function writeAside(input: { text: string; query: string; retrieved: EvidenceItem[] }): { aside: string; usedIds: string[] } {
  // The window may end mid-sentence; the aside marks the break rather than completing words it cannot know.
  const cut = /[.!?]\s*$/.test(input.text) ? '' : '… ';
  const found = input.retrieved.length
    ? `I found that ${input.retrieved.map((r) => statement(r, input.query)).join('; ')}.`
    : 'I found nothing that bears on it.';
  return {
    aside: `${cut}Wait a minute, by searching information about ${input.query}, ${found} Now that I have more relevant information, I can continue my reasoning.`,
    usedIds: input.retrieved.map((r) => r.id),
  };
}
