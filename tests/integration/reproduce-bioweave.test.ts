import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, getPool } from '@/lib/db/client';
import { generateQuestionSet, runBundles } from '@/lib/eval/generate';
import { driveEvalJob } from '@/lib/eval/jobs/driver';
import type { Staged } from '@/lib/methods/bioweave/usage';
import type { ConversionOutcome } from '@/lib/methods/bioweave/stages/convert';
import type { RefinedGraph } from '@/lib/methods/bioweave/graph';
import { reproductionView, startReproduction, type ReproductionView } from '@/lib/reproduce';
import { getRunRecord, type RunRecord } from '@/lib/runs/read';
import { runToSuccess } from '../support/runs';

/**
 * BioWeave's Tables 7 and 8 run offline: the source condition decides which
 * evidence a run is served (its question's bundles, channel by channel), and
 * the alignment switches change what the trace records.
 */

afterAll(closeDb);

type Step = RunRecord['steps'][number];
const out = <T>(step: Step) => (step.output as unknown as Staged<T>).output;
const channelsOf = (run: RunRecord) => new Set(run.evidence.map((e) => e.channel));

describe('BioWeave Table 7: source-conditioned evidence', () => {
  const set = `table7-${randomUUID().slice(0, 8)}`;
  let view: ReproductionView;
  const bundles = new Map<string, ReturnType<typeof runBundles>>();
  const runs = new Map<string, RunRecord[]>();

  beforeAll(async () => {
    // Coverage required: each question's doc and web bundles state a hop (edge-seeded families draw among stated edges).
    await generateQuestionSet({
      generator: 'biomedhop',
      name: set,
      seed: 'table7',
      count: 4,
      families: ['shared_neighbor', 'intersection'],
      renderings: ['open'],
      coverage: 'require',
    });
    const { rows } = await getPool().query<{ id: string; evidence: unknown }>(
      'select q.id, q.evidence from questions q join question_sets s on s.id = q.set_id where s.name = $1',
      [set],
    );
    for (const q of rows) bundles.set(q.id, runBundles(q.evidence));
    const job = await startReproduction('bioweave-table7', { set, backend: 'offline' }, { lock: true });
    expect(await driveEvalJob(job.id, { mode: 'inline', lock: job.lock })).toBe('finished');
    view = await reproductionView(job.id);
    for (const row of view.rows) runs.set(row.label, await Promise.all(row.runs.map((id) => getRunRecord({ id }))));
  }, 600_000); // 7 rows × 4 BioWeave runs, offline

  it("fills every row of the paper's table, its figures beside ours", () => {
    expect(view.rows.map((r) => r.label)).toEqual([
      'KG only',
      'Document only',
      'Web only',
      'Document with web',
      'KG with document',
      'KG with web',
      'Full hybrid',
      'Full hybrid + Hopscope aids',
    ]);
    for (const row of view.rows) {
      expect(row.n).toBe(4);
      expect(typeof row.ours.accuracy).toBe('number');
      // Offline figures count estimated tokens (chars/4, as the evaluation tables do), flagged as estimates.
      expect(row.ours.avgTokensK).toBeGreaterThan(0);
      expect(row.estimated).toEqual(['avgTokensK']);
    }
    expect(view.rows[0].paper['Overall Avg.']).toBe(31.7);
    expect(view.rows[6].paper['Path Counting CountEx']).toBe(44.2);
  });

  it("serves each run only the sources of its row, and of those only its question's bundle", () => {
    const used = (label: string) => runs.get(label)!.map(channelsOf);
    for (const channels of used('KG only')) expect([...channels].filter((c) => c === 'doc' || c === 'web')).toEqual([]);
    for (const channels of used('KG with document')) expect(channels.has('web')).toBe(false);
    for (const channels of used('KG with web')) expect(channels.has('doc')).toBe(false);
    for (const channels of used('Document only')) expect(channels.has('kg') || channels.has('web')).toBe(false);
    // Switched-off sources leave skipped channel steps; nothing of them reaches the trace.
    for (const run of runs.get('KG only')!) {
      for (const step of run.steps.filter((s) => s.kind === 'channel.doc' || s.kind === 'channel.web')) expect(step.status).toBe('skipped');
    }
    for (const [label, runsOfRow] of runs) {
      for (const run of runsOfRow) {
        const bundle = bundles.get(run.questionId!)!;
        const passages = new Set(bundle.docBundle);
        const records = new Set(bundle.webBundle.map((r) => `web:${r.id}`));
        for (const e of run.evidence.filter((e) => e.channel === 'doc' && e.kind === 'passage'))
          expect(passages.has((e.data as { passageId: string }).passageId), `${label}: ${e.ref}`).toBe(true);
        for (const e of run.evidence.filter((e) => e.channel === 'web' && e.kind === 'web')) expect(records.has(e.ref), `${label}: ${e.ref}`).toBe(true);
      }
    }
    // The rows differ in what the runs used: text reaches the runs whose row turns its source on.
    const anyUses = (label: string, channel: 'kg' | 'doc' | 'web') => used(label).some((c) => c.has(channel));
    expect(anyUses('KG with document', 'doc')).toBe(true);
    expect(anyUses('Document only', 'doc')).toBe(true);
    expect(anyUses('KG with web', 'web')).toBe(true);
    expect(anyUses('Full hybrid', 'doc') && anyUses('Full hybrid', 'web')).toBe(true);
    expect(anyUses('KG only', 'kg')).toBe(true);
  });
});

describe('BioWeave Table 8: alignment switches', () => {
  // An attached abstract names the gene only by its alias CD127: normalisation is what links it to IL7R.
  const body = {
    method: 'bioweave',
    question: 'Which diseases are associated with IL7R?',
    documents: [
      {
        title: 'IL-7 receptor in autoimmunity',
        text: 'CD127 is associated with multiple sclerosis in genome-wide studies. The receptor chain shapes T cell survival.',
      },
    ],
  };
  const convertSteps = (run: RunRecord) => run.steps.filter((s) => s.kind === 'bioweave.convert');
  const unitEntities = (run: RunRecord) =>
    run.evidence.filter((e) => e.kind === 'unit').flatMap((e) => (e.data as { entities: { name: string; mention?: string }[] }).entities);

  it('entity normalisation off: spans name entities by exact KG name only, aliases merge nowhere, and the trace says so', async () => {
    const [full, off] = [await runToSuccess(body), await runToSuccess({ ...body, params: { entityNormalisation: false } })];
    expect((off.config as { params: { entityNormalisation: boolean } }).params.entityNormalisation).toBe(false);
    expect(unitEntities(full).some((e) => e.name === 'IL7R' && e.mention === 'CD127')).toBe(true);
    expect(unitEntities(off).every((e) => e.mention?.toLowerCase() === e.name.toLowerCase())).toBe(true);
    const matching = (run: RunRecord) => out<{ entityMatching: string }>(run.steps.find((s) => s.kind === 'bioweave.doc')!).entityMatching;
    expect(matching(off)).toMatch(/exact KG names only/);
    expect(matching(full)).toMatch(/aliases/);
    const merging = (run: RunRecord) => run.steps.filter((s) => s.kind === 'bioweave.refine').map((s) => out<RefinedGraph>(s).aliasMerging);
    expect(new Set(merging(off))).toEqual(new Set(['off (entity normalisation off)']));
  }, 120_000);

  it('graph conversion off: spans stay text units, with no extract call and no text edge', async () => {
    const [full, off] = [await runToSuccess(body), await runToSuccess({ ...body, params: { graphConversion: false } })];
    const [converted, kept] = [convertSteps(full), convertSteps(off)];
    expect(converted.length).toBeGreaterThan(0);
    expect(kept.length).toBeGreaterThan(0);
    for (const step of converted) expect(out<ConversionOutcome>(step).converted).toBe(true);
    for (const step of kept) {
      expect(out<ConversionOutcome>(step).converted).toBe(false);
      expect(step.label).toBe('Text units (graph conversion off)');
      expect(off.modelCalls.filter((c) => c.stepId === step.id)).toEqual([]);
    }
    expect(full.modelCalls.some((c) => converted.some((s) => s.id === c.stepId))).toBe(true);
    const textUnits = off.evidence.filter((e) => e.kind === 'unit');
    expect(textUnits.length).toBeGreaterThan(0);
    for (const u of textUnits) expect(u.data).toMatchObject({ entities: [], relations: [], predicate: null, hops: [] });
    const textEdges = (run: RunRecord) =>
      run.steps.filter((s) => s.kind === 'bioweave.refine').flatMap((s) => out<RefinedGraph>(s).edges.filter((e) => e.origin === 'text'));
    expect(textEdges(off)).toEqual([]);
  }, 120_000);
});
