import { afterAll, describe, expect, it } from 'vitest';
import { Channels, FULL_SWITCHES } from '@/lib/channels';
import { closeDb, getPrisma } from '@/lib/db/client';
import { ModelClient } from '@/lib/llm/client';
import { OfflineBackend } from '@/lib/llm/offline-backend';
import { newShareId } from '@/lib/runs/share-id';
import { TraceRecorder } from '@/lib/trace/recorder';
import type { EvidenceRecord } from '@/lib/trace/types';

afterAll(closeDb);

// Metformin and type 2 diabetes share edges; TP53 and type 2 diabetes may not, so the pair's `check` record says which relations it lacks.
const METFORMIN = { id: 'Compound::DB00331', kind: 'Compound', name: 'Metformin' };
const DIABETES = { id: 'Disease::DOID:9352', kind: 'Disease', name: 'type 2 diabetes mellitus' };
const TP53 = { id: 'Gene::7157', kind: 'Gene', name: 'TP53' };
const PAIRS = [
  { from: METFORMIN, to: DIABETES, label: 'Edges between Metformin and type 2 diabetes mellitus' },
  { from: TP53, to: DIABETES, label: 'Edges between TP53 and type 2 diabetes mellitus' },
  { from: METFORMIN, to: TP53, label: 'Edges between Metformin and TP53' },
];

async function channelsFor(kgShuffle: { seed: number } | null) {
  const run = await (
    await getPrisma()
  ).run.create({
    data: { shareId: newShareId(), questionText: 'q', input: {}, method: 'regram', config: {}, configHash: 'test', status: 'running' },
  });
  const trace = await TraceRecorder.open(run.id);
  const model = new ModelClient(new OfflineBackend(), { citations: trace.citations });
  return { trace, channels: new Channels({ switches: FULL_SWITCHES, kgShuffle, trace, model, documentIds: [], question: { id: null, text: 'q' } }) };
}

const shown = (records: EvidenceRecord[]) => records.map((r) => ({ kind: r.kind, ref: r.ref, text: r.text, data: r.data, scores: r.scores }));

describe('KgChannel.edgesBetweenPairs', () => {
  it("reads what edgesBetween reads for each pair, in one step, each pair's records apart", async () => {
    const one = await channelsFor(null);
    const each: EvidenceRecord[][] = [];
    for (const p of PAIRS) each.push((await one.channels.kg.edgesBetween(null, p.from, p.to, p.label)).items);
    const together = await channelsFor(null);
    const read = await together.channels.kg.edgesBetweenPairs(null, PAIRS, 'Edges between the linked nodes');
    expect(read.pairs.map(shown)).toEqual(each.map(shown));
    expect(read.items).toEqual(read.pairs.flat());
    expect(read.pairs[0].some((r) => r.kind === 'triple')).toBe(true);
    expect(read.pairs.flat().some((r) => r.kind === 'check')).toBe(true);
    expect(read.pairs.flat().map((r) => r.ordinal)).toEqual(each.flat().map((r) => r.ordinal));
    await together.trace.flush();
    const steps = await (await getPrisma()).step.findMany({ where: { runId: together.trace.runId, kind: 'channel.kg' } });
    expect(steps).toHaveLength(1);
  });

  it('under kgShuffle reads each pair in a step of its own, as edgesBetween does, so the control draws as before', async () => {
    const { trace, channels } = await channelsFor({ seed: 3 });
    const read = await channels.kg.edgesBetweenPairs(null, PAIRS, 'Edges between the linked nodes');
    expect(read.pairs).toHaveLength(PAIRS.length);
    await trace.flush();
    const steps = await (await getPrisma()).step.findMany({ where: { runId: trace.runId, kind: 'channel.kg' }, orderBy: { ordinal: 'asc' } });
    expect(steps.map((s) => s.label)).toEqual(PAIRS.map((p) => p.label));
  });

  it('reads nothing, and records no step, for no pairs', async () => {
    const { trace, channels } = await channelsFor(null);
    const read = await channels.kg.edgesBetweenPairs(null, [], 'Edges between the linked nodes');
    expect(read).toMatchObject({ items: [], pairs: [] });
    await trace.flush();
    expect(await (await getPrisma()).step.count({ where: { runId: trace.runId } })).toBe(0);
  });
});
