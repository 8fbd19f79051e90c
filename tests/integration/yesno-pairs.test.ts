import { afterAll, describe, expect, it } from 'vitest';
import { closeDb } from '@/lib/db/client';
import type { MethodAnswer } from '@/lib/methods/types';
import { edgeExists, runToSuccess } from '../support/runs';

/**
 * A yes/no on a given pair, with the aids off (the papers' methods): each
 * method's own retrieval reads the pair's own edges whole (KG-RAG: the
 * neighbourhood's edges between the question's entities; X-R2: the short
 * paths between the step entities; ReGraM: T_cand's edges between a hop's
 * seeds, the hop naming both ends), so "yes" cites the edge and "no" cites
 * the `check` record of the pair read whole, never a cut list's silence.
 */

afterAll(closeDb);

const LEVETIRACETAM = 'Compound::DB01202';
const MIGRAINE = 'Disease::DOID:6364';
const METFORMIN = 'Compound::DB00331';
const T2D = 'Disease::DOID:9352';

const cases = [
  { question: 'Can migraine be treated with levetiracetam?', verdict: 'no', pair: [LEVETIRACETAM, MIGRAINE] },
  { question: 'Would it be a mistake to claim that levetiracetam is given for migraine?', verdict: 'yes', pair: [LEVETIRACETAM, MIGRAINE] },
  { question: 'Is metformin something doctors prescribe for type 2 diabetes mellitus?', verdict: 'yes', pair: [METFORMIN, T2D] },
] as const;

describe.each(['kg-rag', 'xr2', 'regram'] as const)('%s, aids off', (method) => {
  it('the KG holds the metformin edge and not the levetiracetam one', async () => {
    expect(await edgeExists(METFORMIN, 'CtD', T2D)).toBe(true);
    expect(await edgeExists(LEVETIRACETAM, 'CtD', MIGRAINE)).toBe(false);
  });

  it.each(cases)('$question → $verdict, citing what the pair read whole found', async ({ question, verdict, pair }) => {
    const run = await runToSuccess({ method, question });
    const answer = run.answer as unknown as MethodAnswer;
    expect(answer.abstained).toBe(false);
    expect(answer.text.toLowerCase()).toBe(verdict);
    expect(run.steps.some((s) => s.kind === 'channel.aids')).toBe(false);
    const cited = run.evidence.filter((e) => answer.evidenceIds.includes(e.id));
    const about = (d: Record<string, unknown>) => {
      const ids = 'from' in d ? [(d.from as { id: string }).id, (d.to as { id: string }).id] : [d.sourceId as string, d.targetId as string];
      return [...pair].sort().join(' ') === ids.sort().join(' ');
    };
    // The levetiracetam–migraine pair has no treats edge: its verdict rests on the check; the metformin one on the edge.
    if (pair[0] === LEVETIRACETAM) {
      const check = cited.find((e) => e.kind === 'check');
      expect(check).toBeDefined();
      expect(about(check!.data as Record<string, unknown>)).toBe(true);
      expect(check!.text).toMatch(/No edge of .*treats.* \(CtD\)|No edge of any relation/);
    } else {
      expect(cited.some((e) => e.kind !== 'check' && about(e.data as Record<string, unknown>))).toBe(true);
    }
  });
});
