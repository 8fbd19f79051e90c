/**
 * Offline monitor, querier and injector. The monitor flags a window that
 * states a needed fact without any finding; the querier turns the first need
 * not yet searched into the query; the injector cites the retrieved records by
 * id in the paper's aside template (the prompts that quote the reasoning list
 * the records beside it, so their text is shown once) and adds nothing of its own.
 */

import { normalise } from '@/lib/llm/offline/text';
import type { EvidenceItem, QuestionFrame } from '../templates';
import { NEED_SENTENCE } from './reasoning';

const FINDING = /\bI found that\b/;

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

export function writeAside(input: { text: string; query: string; retrieved: EvidenceItem[] }): { aside: string; usedIds: string[] } {
  // The window may end mid-sentence; the aside marks the break rather than completing words it cannot know.
  const cut = /[.!?]\s*$/.test(input.text) ? '' : '… ';
  // The records are cited by id, never restated: the prompts that quote this reasoning list them beside it once.
  const found = input.retrieved.length
    ? `I found that ${input.retrieved.map((r) => `[${r.id}]`).join(', ')} bear${input.retrieved.length === 1 ? 's' : ''} on it.`
    : 'I found nothing that bears on it.';
  return {
    aside: `${cut}Wait a minute, by searching information about ${input.query}, ${found} Now that I have more relevant information, I can continue my reasoning.`,
    usedIds: input.retrieved.map((r) => r.id),
  };
}
