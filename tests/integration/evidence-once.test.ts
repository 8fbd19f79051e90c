import { afterAll, describe, expect, it } from 'vitest';
import { closeDb } from '@/lib/db/client';
import type { RunRecord } from '@/lib/runs/read';
import { runToSuccess } from '../support/runs';

afterAll(closeDb);

/**
 * Evidence is handed to the model once: a passage or unit a run retrieves again
 * (a repair round, a later iteration, a second query), or a KG record it reads
 * again unchanged, is recorded once and referred to later, and no prompt shows
 * the same evidence text twice.
 */
const QUESTION = "Which genes are associated with both multiple sclerosis and Crohn's disease?";
/** The same finding in two documents (a record stored twice): it reaches a prompt once. It names one entity, so it adds no relation or answer. */
const FINDING = "Crohn's disease cohorts were followed for ten years in several countries by genome-wide association.";
const DOCUMENTS = [
  { title: 'Cohort A', text: FINDING },
  { title: 'Cohort B', text: FINDING },
];

/** Passages, web records and units the run recorded more than once (the same reference, kind and selectability). */
function repeatedRecords(run: RunRecord): string[] {
  const seen = new Map<string, number>();
  for (const e of run.evidence) {
    if (e.channel !== 'doc' && e.channel !== 'web') continue;
    const key = `${e.kind} ${e.ref} ${(e.data as { relevance?: string }).relevance === 'score' ? 'withheld' : ''}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen].filter(([, n]) => n > 1).map(([k]) => k);
}

/** KG records the run recorded more than once with every field the same (a neighbourhood read again): each is recorded once. */
function repeatedKgRecords(run: RunRecord): string[] {
  const seen = new Map<string, number>();
  for (const e of run.evidence) {
    if (e.channel !== 'kg') continue;
    const key = JSON.stringify([e.kind, e.ref, e.text, e.data, e.scores]);
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen].filter(([, n]) => n > 1).map(([k]) => k);
}

function promptRepeats(run: RunRecord): string[] {
  // A restatement that drops the closing full stop is still the same text.
  const texts = [...new Set(run.evidence.filter((e) => e.text.length >= 40).map((e) => e.text.replace(/[.\s]+$/, '')))];
  const repeats: string[] = [];
  for (const call of run.modelCalls) {
    for (const m of call.messages as { content: string }[]) {
      for (const t of texts) if (m.content.split(t).length > 2) repeats.push(`${call.id}: ${t.slice(0, 80)}`);
    }
  }
  return repeats;
}

// Monitored EIGEN-1 too: an injected aside is part of the reasoning a later prompt quotes, so it cites the records
// by id and the evidence list beside it holds their text.
describe('evidence handed to the model once', () => {
  for (const [method, body] of [
    ['bioweave', { switches: { kg: false } }],
    ['bioweave', {}],
    ['xr2', {}],
    ['kg-rag', {}],
    ['regram', {}], // reads the KG only: no passage, and no triple twice
    ['eigen1', { params: { k: 2, monitor: false } }],
    ['eigen1', { params: { k: 2 } }],
  ] as const) {
    it(`${method} ${JSON.stringify(body)}: each passage recorded once, no prompt repeats evidence text`, async () => {
      const run = await runToSuccess({ method, question: QUESTION, documents: DOCUMENTS, ...body });
      if (method !== 'regram') expect(run.evidence.filter((e) => e.text.includes(FINDING)).length).toBeGreaterThan(0);
      expect(repeatedRecords(run)).toEqual([]);
      expect(repeatedKgRecords(run)).toEqual([]);
      expect(promptRepeats(run)).toEqual([]);
    }, 120_000);
  }
});
