import { afterAll, describe, expect, it } from 'vitest';
import { closeDb } from '@/lib/db/client';
import { METHOD_IDS } from '@/lib/methods/types';
import type { RunRecord } from '@/lib/runs/read';
import { isStepKind, parseStepInput, parseStoredOutput } from '@/lib/trace/step-schemas';
import { runToSuccess } from '../support/runs';

/**
 * Every step an offline run records fits its kind's contract as stored (read
 * back from PostgreSQL, the form renderers get), and no recorded kind lacks a
 * contract. One short question per method, plus the configurations that record
 * the kinds a default run does not (ReGraM's HYBRID hypotheses, skipped steps).
 * A new step kind without a schema in lib/trace/steps fails here.
 */

const QUESTION = "Which genes are associated with both multiple sclerosis and Crohn's disease?";

afterAll(closeDb);

function breaches(run: RunRecord): string[] {
  return run.steps.flatMap((s) => {
    if (!isStepKind(s.kind)) return [`${s.kind}: no step contract`];
    const output = parseStoredOutput(s.kind, s.status, s.output);
    const input = parseStepInput(s.kind, s.input);
    return [...(output.error ? [`${s.kind} (${s.status}) output: ${output.error}`] : []), ...(input.error ? [`${s.kind} input: ${input.error}`] : [])];
  });
}

describe('step contracts over offline runs', () => {
  it.each(METHOD_IDS)('%s: every recorded step fits its kind', async (method) => {
    const run = await runToSuccess({ method, question: QUESTION });
    expect(run.steps.length).toBeGreaterThan(1);
    expect(breaches(run)).toEqual([]);
  });

  it.each([
    ['regram', 'HYBRID hypotheses, reviewed and revised', { params: { strictMinFacts: 20 } }, ['regram.hypotheses', 'regram.hypothesize', 'regram.review']],
    ['regram', 'channels off: skipped steps, no general-knowledge guess', { switches: { kg: false, param: false } }, ['regram.guess']],
    ['eigen1', 'without HSR, querier and injector', { params: { hsr: false, querier: false, injector: false } }, ['eigen1.hsr']],
    ['eigen1', 'monitor off: explicit RAG up front', { params: { monitor: false } }, ['eigen1.explicit-rag']],
    ['direct', 'every channel off', { switches: { doc: false, entity: false, param: false, web: false } }, ['channel.doc', 'channel.param']],
  ] as const)('%s, %s: every recorded step fits its kind', async (method, _what, body, kinds) => {
    const run = await runToSuccess({ method, question: QUESTION, ...body });
    expect(run.steps.map((s) => s.kind)).toEqual(expect.arrayContaining([...kinds]));
    expect(breaches(run)).toEqual([]);
  });
});
