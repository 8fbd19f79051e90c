import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Channels, FULL_SWITCHES } from '@/lib/channels';
import type { DocSearchResult } from '@/lib/channels/doc';
import { attachDocuments } from '@/lib/corpus/attach';
import { createUser } from '@/lib/auth/users';
import { closeDb, getPrisma } from '@/lib/db/client';
import { ModelClient } from '@/lib/llm/client';
import { OfflineBackend } from '@/lib/llm/offline-backend';
import { newShareId } from '@/lib/runs/share-id';
import { TraceRecorder } from '@/lib/trace/recorder';
import type { EvidenceRecord } from '@/lib/trace/types';
import { sharedKnowledgeLookups } from '@/lib/kg';
import { recordStatements } from '@/lib/db/statements';

afterAll(closeDb);

/** A record as the search chose it, without the run's ids. */
const plain = (r: EvidenceRecord) => ({ ref: r.ref, text: r.text, data: r.data, scores: r.scores });

async function channelsFor(question: string, documentOwner: string | null = null) {
  const prisma = await getPrisma();
  const run = await prisma.run.create({
    data: { shareId: newShareId(), questionText: question, input: {}, method: 'direct', config: {}, configHash: 'test', status: 'running' },
  });
  const trace = await TraceRecorder.open(run.id);
  const model = new ModelClient(new OfflineBackend(), { citations: trace.citations });
  return {
    run,
    trace,
    channels: new Channels({ switches: FULL_SWITCHES, kgShuffle: null, trace, model, documentIds: [], documentOwner, question: { id: null, text: question } }),
  };
}

describe('document retrieval is relevant or silent', () => {
  // Passages that share words ("therapy", "cancer", "treated", "patients") with the questions but not their entities.
  beforeAll(async () => {
    await attachDocuments([
      { title: 'Radiotherapy', text: 'Patients with breast cancer were treated with hypofractionated radiotherapy after surgery; cancer recurrence was low.' },
      { title: 'Therapy dogs', text: 'Therapy dogs visited patients treated in the oncology ward; anxiety scores of patients fell.' },
      { title: 'Staphylococcus', text: 'Staphylococcus aureus carriage was associated with infection in patients treated for cancer.' },
      { title: 'MS relapses', text: 'In multiple sclerosis, relapses were fewer in patients treated with interferon beta than with placebo.' },
    ]);
  });

  it('shows only passages that mention a linked entity of the question, and never selects one that does not', async () => {
    const { run, trace, channels } = await channelsFor('Which drugs treat multiple sclerosis?');
    const found = await channels.doc.search(null, 'Which drugs treat multiple sclerosis? patients treated therapy cancer', 10);
    expect(found.items.length).toBeGreaterThan(0);
    for (const p of found.items) {
      expect(p.text.toLowerCase()).toContain('multiple sclerosis');
      expect((p.data as { sharedEntities: string[] }).sharedEntities).toContain('multiple sclerosis');
    }
    expect(found.items.map((p) => p.text).join(' ')).not.toMatch(/radiotherapy|Therapy dogs|aureus/);

    // A method that tried to select every doc record of the run still selects none without a shared entity.
    const all = await (await getPrisma()).evidence.findMany({ where: { runId: run.id, channel: 'doc' } });
    await trace.markSelected(all.map((e) => e.id));
    const selected = await (await getPrisma()).evidence.findMany({ where: { runId: run.id, channel: 'doc', selected: true } });
    for (const e of selected) expect((e.data as { sharedEntities: string[] }).sharedEntities.length).toBeGreaterThan(0);
  });

  it('records "no relevant document" when no passage names the question entities', async () => {
    const { run, channels } = await channelsFor('Which genes are associated with spinal cancer?');
    const found = await channels.doc.search(null, 'genes associated with spinal cancer patients treated', 5);
    expect(found.items).toEqual([]);
    expect(found.note).toMatch(/^no relevant document/);
    const step = await (await getPrisma()).step.findFirstOrThrow({ where: { runId: run.id, kind: 'channel.doc' } });
    const output = step.output as unknown as DocSearchResult;
    expect(output.result).toBe('no relevant document');
    expect(output.entities).toContain('spinal cancer');
    expect(output.passages).toEqual([]);
  });

  it("with no linked entity, falls back to the question's own words under the calibrated threshold, and records the rule", async () => {
    const question = 'Did therapy dogs visit patients treated in the oncology ward?';
    const { run, trace, channels } = await channelsFor(question);
    const found = await channels.doc.search(null, 'therapy dogs oncology ward patients', 5);
    expect(found.items.map((p) => p.text)).toContain('Therapy dogs visited patients treated in the oncology ward; anxiety scores of patients fell.');
    expect(found.items.map((p) => p.text).join(' ')).not.toMatch(/radiotherapy|aureus|multiple sclerosis/i);
    const step = await (await getPrisma()).step.findFirstOrThrow({ where: { runId: run.id, kind: 'channel.doc' } });
    const output = step.output as unknown as DocSearchResult;
    expect(output.entities).toEqual([]);
    expect(output.rule.kind).toBe('question words');
    expect(output.rule.why).toMatch(
      /^neither the question nor the query links a KG entity: a passage is shown when it covers at least [\d.]+ of the question's content words/,
    );
    for (const p of found.items) {
      expect(p.data).toMatchObject({ relevance: 'words', sharedEntities: [] });
      expect(p.scores!.coverage).toBeGreaterThanOrEqual(output.calibration.threshold!);
    }
    await trace.markSelected(found.items.map((p) => p.id));
    expect(await (await getPrisma()).evidence.count({ where: { runId: run.id, channel: 'doc', selected: true } })).toBe(found.items.length);

    const none = await channelsFor('Did the committee approve the new budget for the town library?');
    const silent = await none.channels.doc.search(null, 'committee budget library', 5);
    expect(silent.items).toEqual([]);
    expect(silent.note).toMatch(/^no relevant document: no passage covers enough of the question's own words \(no entity was linked; threshold [\d.]+\)$/);
  });

  it('serves a text stored in two documents once, so k counts distinct passages', async () => {
    const twice = 'In multiple sclerosis, natalizumab reduced relapses compared with placebo in treated patients.';
    await attachDocuments([
      { title: 'Trial report', text: twice },
      { title: 'Trial report (reprint)', text: twice },
    ]);
    const { channels } = await channelsFor('Which drugs treat multiple sclerosis?');
    const found = await channels.doc.search(null, 'multiple sclerosis natalizumab relapses', 5);
    const texts = found.items.map((p) => p.text.toLowerCase().replace(/\s+/g, ' ').trim());
    expect(texts.filter((t) => t.includes('natalizumab'))).toHaveLength(1);
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('a search read ahead records what it would have recorded, from the reads made ahead', async () => {
    const question = 'Which drugs treat multiple sclerosis?';
    const queries = ['multiple sclerosis relapses interferon', 'therapy dogs oncology ward patients'];
    const searchAll = async (ahead: boolean) => {
      sharedKnowledgeLookups().forgetKeys();
      const { channels } = await channelsFor(question);
      const readAhead = recordStatements();
      if (ahead) await channels.doc.readAhead(queries, 5);
      const readsAhead = readAhead.stop();
      const sent = recordStatements();
      const answers = [];
      for (const query of queries) answers.push(await channels.doc.search(null, query, 5));
      return { readsAhead, sent: sent.stop(), answers: answers.map((a) => ({ note: a.note, items: a.items.map(plain) })) };
    };
    const passageReads = (sent: string[]) => sent.filter((sql) => /from passages p/.test(sql));
    const plainly = await searchAll(false);
    const ahead = await searchAll(true);
    expect(ahead.answers).toEqual(plainly.answers);
    expect(plainly.answers[0].items.length).toBeGreaterThan(0);
    // Searched one by one, each search's candidate reads (by entity and by words) go out together; read ahead, the
    // round's searches are one statement, and the searches themselves read nothing.
    expect(passageReads(plainly.sent)).toHaveLength(queries.length);
    expect(passageReads(ahead.readsAhead)).toHaveLength(1);
    expect(passageReads(ahead.sent)).toEqual([]);
  });

  it('cites passages by short ids (D1…) in prompts, never by record id', async () => {
    const { trace, channels } = await channelsFor('Which drugs treat multiple sclerosis?');
    const found = await channels.doc.search(null, 'multiple sclerosis relapses', 5);
    expect(found.items.map((p) => trace.citations.citeOf(p.id))).toEqual(found.items.map((_, i) => `D${i + 1}`));
  });

  it("never finds another user's attached document, and finds the searcher's own", async () => {
    const tag = newShareId()
      .replace(/[^a-z]/gi, '')
      .toLowerCase()
      .slice(0, 10);
    const alice = await createUser({ email: `alice-doc-${tag}@lab.example`, password: 'correct horse battery' });
    const bob = await createUser({ email: `bob-doc-${tag}@lab.example`, password: 'another long password' });
    const secret = `Alice's unpublished note ${tag}: in multiple sclerosis, ${tag} relapses fell with interferon beta.`;
    const [documentId] = await attachDocuments([{ title: `Note ${tag}`, text: secret }], alice.id);
    const query = `multiple sclerosis ${tag} relapses interferon beta`;
    const passagesOf = async (owner: string | null) => {
      const { channels } = await channelsFor(`Which drugs treat multiple sclerosis (${tag})?`, owner);
      const found = await channels.doc.search(null, query, 10);
      return found.items.map((p) => p.text).join('\n');
    };
    // The same search reaches the note for its owner (so the filter, not the ranking, keeps it from others).
    expect(await passagesOf(alice.id)).toContain(tag);
    expect(await passagesOf(bob.id)).not.toContain(tag);
    expect(await passagesOf(null)).not.toContain(tag);
    expect(documentId).toBeTruthy();
  });
});
