import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, getPool } from '@/lib/db/client';
import type { RankedTriple } from '@/lib/methods/baselines/stages/neighbourhood';
import { KgRagParamsSchema } from '@/lib/methods/baselines/params';
import type { MethodAnswer } from '@/lib/methods/types';
import type { RunRecord } from '@/lib/runs/read';
import type { TripleData } from '@/lib/trace/types';
import { edgeExists, resumeAfterCrashIn, runToSuccess, stepKinds } from '../support/runs';
import { recallTemplate } from '@/lib/llm/templates/generic';
import { executeRun } from '@/lib/runs/executor';
import { getRunRecord } from '@/lib/runs/read';
import { createRun } from '@/lib/runs/service';
import { reply, scriptedServerForSuite } from '../support/scripted-openai-server';

const SHARED = "Which genes are associated with both multiple sclerosis and Crohn's disease?";
const MS = 'Disease::DOID:2377';
const CD = 'Disease::DOID:8778';
const TRIPLE_TEXT = /\) – [a-z ]+ – /;
const COHORT = 'Metformin reduced mortality in patients with heart failure and type 2 diabetes in a cohort of 6185 patients.';

afterAll(closeDb);

const ofKind = (run: RunRecord, kind: string) => run.steps.filter((s) => s.kind === kind);
const answerOf = (run: RunRecord) => run.answer as unknown as MethodAnswer;
const prompts = (run: RunRecord) => run.modelCalls.flatMap((c) => (c.messages as { content: string }[]).map((m) => m.content));

const ABSTAINS = { answer: '', optionKey: null, items: [], count: null, abstain: true, rationale: 'scripted', claims: [] };

/** A scripted model for a suite: recall states no claims; the answering call's user prompt is kept and answered with `answer`. */
function answeringModel(answer: Record<string, unknown>) {
  const seen = { prompt: '' };
  scriptedServerForSuite((request) => {
    const [system, user] = request.body.messages as { content: string }[];
    if (system.content === recallTemplate.system) return reply.ok(JSON.stringify({ claims: [] }));
    seen.prompt = user.content;
    return reply.ok(JSON.stringify(answer));
  });
  return seen;
}
const answerPrompt = (run: RunRecord) => (run.modelCalls.find((c) => c.role === 'answer')!.messages as { content: string }[])[1].content;

const runMethod = runToSuccess;

async function metforminDiseases(): Promise<string[]> {
  const { rows } = await getPool().query<{ target_id: string }>(
    "select distinct e.target_id from edges e join nodes n on n.id = e.source_id where n.kind = 'Compound' and n.name = 'Metformin' and e.metaedge = 'CtD'",
  );
  return rows.map((r) => r.target_id);
}

describe.each(['direct', 'cot'] as const)('%s offline', (method) => {
  let run: RunRecord;
  beforeAll(async () => {
    run = await runMethod({ method, question: SHARED });
  });

  it('makes one answer call on the question and the context blocks of the enabled channels', () => {
    expect(run.steps.filter((s) => s.parentStepId === null).map((s) => s.kind)).toEqual([`${method}.context`, `${method}.answer`]);
    const [context] = ofKind(run, `${method}.context`);
    const channels = run.steps.filter((s) => s.parentStepId === context.id).map((s) => `${s.kind}:${s.label}`);
    expect(channels).toEqual([
      'channel.entity:Link question entities',
      'channel.doc:Document search',
      'channel.entity:Entity profiles',
      'channel.param:Parametric recall',
      'channel.web:Web search',
    ]);
    expect(run.modelCalls.filter((c) => c.role === 'answer').map((c) => c.template)).toEqual([`${method}.answer`]);
    // Everything gathered is shown, so all of it is selected; it names the linked diseases.
    expect(run.evidence.every((e) => e.selected)).toBe(true);
    expect(answerPrompt(run)).toContain("multiple sclerosis (Disease); Crohn's disease (Disease)");
    for (const e of run.evidence) expect(answerPrompt(run)).toContain(`[${e.cite}] ${e.text}`);
  });

  it('reads no KG triple, and with no evidence that settles it abstains instead of guessing', () => {
    expect(run.evidence.some((e) => e.channel === 'kg')).toBe(false);
    expect(ofKind(run, 'channel.kg')).toHaveLength(0);
    for (const text of prompts(run)) expect(text).not.toMatch(TRIPLE_TEXT);
    expect(answerOf(run)).toMatchObject({ abstained: true, text: '', claims: [], evidenceIds: [] });
    expect(answerOf(run).rationale).toMatch(/Abstained: no KG fact was given to this call, .*answers only from the facts it is given/);
  });

  it('answers a yes/no question from an attached document, citing its passage', async () => {
    const doc = await runMethod({
      method,
      question: 'Does metformin reduce mortality in patients with heart failure?',
      documents: [{ title: 'Cohort study', text: COHORT }],
    });
    const passage = doc.evidence.find((e) => e.kind === 'passage' && e.text.includes('reduced mortality'))!;
    expect(ofKind(doc, 'channel.doc').map((s) => s.label)).toEqual(['Attached documents']);
    expect(answerOf(doc)).toMatchObject({ text: 'yes', abstained: false, evidenceIds: [passage.id] });

    const off = await runMethod({
      method,
      question: 'Does metformin reduce mortality in patients with heart failure?',
      documents: [{ title: 'Cohort study', text: COHORT }],
      switches: { doc: false },
    });
    expect(off.evidence.some((e) => e.kind === 'passage')).toBe(false);
    expect(answerPrompt(off)).not.toContain('reduced mortality');
    expect(answerOf(off).abstained).toBe(true);
  });

  it('tells the model whether background knowledge may be used, as the param switch says', async () => {
    expect(answerPrompt(run)).toContain('You may use background knowledge');
    const off = await runMethod({ method, question: SHARED, switches: { param: false } });
    expect(answerPrompt(off)).toContain('Do not use background knowledge');
    expect(ofKind(off, 'channel.param').every((s) => s.status === 'skipped')).toBe(true);
  });
});

describe('cot offline reasoning', () => {
  it('writes numbered steps before the answer and derives the answer in them', async () => {
    const run = await runMethod({ method: 'cot', question: 'Does metformin reduce mortality in patients with heart failure?', documents: [{ text: COHORT }] });
    const { reasoning } = answerOf(run).extra as { reasoning: string };
    const steps = reasoning.split('\n');
    expect(steps[0]).toBe('Step 1: The question asks for a yes or no on whether a stated relation holds.');
    expect(steps.every((s, i) => s.startsWith(`Step ${i + 1}: `))).toBe(true);
    expect(steps.at(-1)).toMatch(/So the answer is yes\.$/);
  });
});

describe('kg-rag offline', () => {
  let run: RunRecord;
  beforeAll(async () => {
    run = await runMethod({ method: 'kg-rag', question: SHARED });
  });

  it('reads the 1-hop neighbourhood of the linked entities and shows the top 20 of its ranking', () => {
    expect(run.steps.filter((s) => s.parentStepId === null).map((s) => s.kind)).toEqual(['kg-rag.context', 'kg-rag.neighbourhood', 'kg-rag.answer']);
    const [step] = ofKind(run, 'kg-rag.neighbourhood');
    expect(step.input).toMatchObject({ anchors: [MS, CD], topK: 20 });
    const { ranking } = step.output as unknown as { ranking: RankedTriple[] };
    const kg = run.evidence.filter((e) => e.kind === 'triple');
    expect(ranking).toHaveLength(kg.length);
    const selected = kg.filter((e) => e.selected);
    expect(selected).toHaveLength(KgRagParamsSchema.parse({}).topK);
    expect(new Set(ranking.filter((r) => r.selected).map((r) => r.id))).toEqual(new Set(selected.map((e) => e.id)));
    for (const r of ranking) expect(r.score).toBeCloseTo(r.lexical + r.shared + (r.asked ?? 0), 2);
    const prompt = answerPrompt(run);
    for (const e of kg) expect(prompt.includes(`[${e.cite}]`)).toBe(e.selected);
  });

  it('answers with genes the KG associates with both diseases, citing the triples (or the answer set, for those no shown triple states)', async () => {
    const answer = answerOf(run);
    expect(answer.abstained).toBe(false);
    expect(answer.nodeIds!.length).toBeGreaterThan(1);
    for (const gene of answer.nodeIds!) expect((await edgeExists(MS, 'DaG', gene)) && (await edgeExists(CD, 'DaG', gene))).toBe(true);
    for (const claim of answer.claims) {
      const records = claim.evidenceIds.map((id) => run.evidence.find((e) => e.id === id)!);
      const triples = records.flatMap((r) =>
        r.kind === 'set' ? (r.data as { triples: TripleData[] }).triples.filter((t) => t.targetName === claim.text) : [r.data as TripleData],
      );
      expect([...new Set(triples.map((t) => t.sourceId))].sort()).toEqual([MS, CD].sort());
      expect(triples.every((t) => t.targetName === claim.text)).toBe(true);
    }
  });

  it('with the aids on: answers a lookup, a count and a multiple-choice phrasing from the graph', async () => {
    const aids = { aids: true };
    const diseases = await metforminDiseases();
    const lookup = answerOf(await runMethod({ method: 'kg-rag', question: 'What diseases does metformin treat?', switches: aids }));
    expect([...lookup.nodeIds!].sort()).toEqual([...diseases].sort());

    const count = answerOf(await runMethod({ method: 'kg-rag', question: 'How many diseases does metformin treat?', switches: aids }));
    expect(count.count).toBe(diseases.length);

    const mcqRun = await runMethod({
      method: 'kg-rag',
      question: 'Which of these diseases is treated by metformin?',
      options: { A: 'asthma', B: 'type 2 diabetes mellitus', C: 'glaucoma' },
      switches: aids,
    });
    const mcq = answerOf(mcqRun);
    expect(mcq).toMatchObject({ optionKey: 'B', text: 'type 2 diabetes mellitus', abstained: false });
    // The options are candidates: in one read, each is tested for direct edges to every entity the stem names, never expanded as an anchor.
    const tests = ofKind(mcqRun, 'channel.kg').filter((s) => s.label === 'Options tested against the stem (aid)');
    expect(tests).toHaveLength(1);
    const { rows } = await getPool().query<{ id: string }>(`select id from nodes where kind = 'Compound' and name = 'Metformin'`);
    expect((tests[0].input as { to: string[] }).to).toEqual([rows[0].id]);
    // Each option's nodes, its other readings included (asthma is a disease and a side effect).
    expect((tests[0].input as { from: string[] }).from.length).toBeGreaterThanOrEqual(3);
    const cited = mcq.evidenceIds.map((id) => {
      const e = mcqRun.evidence.find((r) => r.id === id)!;
      return e.kind === 'path' ? (e.data as { hops: TripleData[] }).hops[0] : (e.data as TripleData);
    });
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.every((t) => t.sourceName === 'Metformin' && t.metaedge === 'CtD' && t.targetName === 'type 2 diabetes mellitus')).toBe(true);
  });

  it("resumed after its answer step was cut short, replays its context and neighbourhood from their stored steps and answers as before; the context's output does not hold the neighbourhood again", async () => {
    const first = await runMethod({ method: 'kg-rag', question: 'What diseases does metformin treat?', switches: { aids: true } });
    const [context] = ofKind(first, 'kg-rag.context');
    expect(Object.keys(context.output as object).sort()).toEqual(['blocks', 'frame', 'notes']);
    // A crash while answering: the answer step left running, the run queued again by recovery.
    const [answering] = ofKind(first, 'kg-rag.answer');
    const resumed = await resumeAfterCrashIn(first.id, answering.id);
    expect(resumed.answer).toEqual(first.answer);
    expect(stepKinds(resumed)).toEqual(stepKinds(first));
    expect(resumed.evidence.map((e) => [e.id, e.selected])).toEqual(first.evidence.map((e) => [e.id, e.selected]));
    expect(answerPrompt(resumed)).toBe(answerPrompt(first));
  });

  it('takes K from its parameter', async () => {
    const small = await runMethod({ method: 'kg-rag', question: SHARED, params: { topK: 5 } });
    expect(small.evidence.filter((e) => e.kind === 'triple' && e.selected)).toHaveLength(5);
  });

  it('kg off: the channel is skipped, no triple reaches a prompt, and it abstains', async () => {
    const off = await runMethod({ method: 'kg-rag', question: SHARED, switches: { kg: false } });
    expect(off.evidence.some((e) => e.channel === 'kg')).toBe(false);
    const kgSteps = ofKind(off, 'channel.kg');
    // Every KG read (the pairs' own edges, the neighbourhood) is recorded as skipped.
    expect(kgSteps.length).toBeGreaterThan(0);
    expect(new Set(kgSteps.map((s) => s.status))).toEqual(new Set(['skipped']));
    for (const text of prompts(off)) expect(text).not.toMatch(TRIPLE_TEXT);
    expect(answerOf(off).abstained).toBe(true);
  });
});

describe('kg-rag over an OpenAI-compatible server', () => {
  const model = answeringModel(ABSTAINS);

  const COUNT = 'How many compounds does the knowledge graph list as treatments for multiple sclerosis?';

  it("with the aids off (the default), the prompt holds the paper's inputs only: the question and the top K of the linked entities' 1-hop neighbourhood", async () => {
    const { id } = await createRun(
      { method: 'kg-rag', backend: 'openai', question: COUNT, switches: { doc: false, web: false, param: false } },
      { enqueue: false },
    );
    await executeRun(id);
    const run = await getRunRecord({ id });
    expect(run.status).toBe('succeeded');
    const shown = [...model.prompt.matchAll(/^\[([A-Z])\d+\] .+\) –[a-z ]+→ /gm)].map((m) => m[1]);
    expect(shown).toEqual(Array(20).fill('K'));
    expect(model.prompt).not.toMatch(/^\[A\d+\]/m);
    expect(/^Knowledge graph facts \((.*)\):$/m.exec(model.prompt)![1]).toMatch(/^showing 20 of \d+ retrieved$/);
    expect(model.prompt).not.toMatch(/Hopscope aid|answer set|shown\/in the KG|the KG holds/i);
    expect(run.steps.some((s) => s.kind === 'channel.aids')).toBe(false);
    expect(run.evidence.some((e) => e.channel === 'aids' || e.kind === 'set')).toBe(false);
    expect((run.answer as { extra?: { deviations?: string[] } }).extra?.deviations ?? []).not.toContainEqual(expect.stringMatching(/aid/i));
  });

  it("with the aids on: the answer set appears under its aid heading, cited as the aids' (A…), and the run declares the aids that acted", async () => {
    const { id } = await createRun(
      {
        method: 'kg-rag',
        backend: 'openai',
        question: 'How many diseases does metformin treat?',
        switches: { doc: false, web: false, param: false, aids: true },
      },
      { enqueue: false },
    );
    await executeRun(id);
    const run = await getRunRecord({ id });
    expect(run.status).toBe('succeeded');
    const [set] = run.evidence.filter((e) => e.kind === 'set');
    expect(set.channel).toBe('aids');
    expect(model.prompt).toContain(`Hopscope aid, not part of the method: complete answer set from the knowledge graph`);
    expect(model.prompt).toMatch(new RegExp(`^\\[${set.cite}\\] Complete answer set in the KG: `, 'm'));
    expect(set.cite).toMatch(/^A\d+$/);
    const aids = ofKind(run, 'channel.aids').map((s) => (s.output as { aid: string }).aid);
    expect(aids).toEqual(expect.arrayContaining(['question-reader', 'answer-set', 'completeness-notice']));
    const extra = (run.answer as { extra: { aids: { aid: string; evidenceIds: string[] }[]; deviations: string[] } }).extra;
    expect(extra.aids.find((a) => a.aid === 'answer-set')!.evidenceIds).toEqual([set.id]);
    expect(extra.deviations).toContainEqual(expect.stringMatching(/^Hopscope aid on \(not in the paper\): answer-set: /));
  });

  it('with the aids on, a count phrased with a noun ("treatments for"): the facts heading says, per relation at the anchor, how many edges it shows of those the KG holds', async () => {
    const { rows } = await getPool().query<{ id: string; n: number }>(
      "select n.id, (select count(*)::int from edges e where e.target_id = n.id and e.metaedge = 'CtD') n from nodes n where n.kind = 'Disease' and n.name = 'multiple sclerosis'",
    );
    const [{ n: treats }] = rows;
    const { id } = await createRun({ method: 'kg-rag', backend: 'openai', question: COUNT, switches: { aids: true } }, { enqueue: false });
    await executeRun(id);
    const run = await getRunRecord({ id });
    expect(run.status).toBe('succeeded');
    const heading = /^Knowledge graph facts \((.*)\):$/m.exec(model.prompt)![1];
    const shownTreats = [...model.prompt.matchAll(/^\[K\d+\] .+ \(Compound\) –treats→ multiple sclerosis \(Disease\)$/gm)].length;
    expect(heading).toContain(`Compound –treats→ multiple sclerosis ${shownTreats}/${treats}`);
    expect(heading).toMatch(/multiple sclerosis –associates→ Gene \d+\/\d+/);
    // The question asks for treatments (compounds): the facts that reach compounds come first in a cut list.
    const facts = model.prompt
      .split(/^Knowledge graph facts \(.*\):$/m)[1]
      .split('\n\n')[0]
      .trim()
      .split('\n');
    const reachesCompound = facts.map((l) => /\(Compound\)/.test(l));
    const firstOther = reachesCompound.includes(false) ? reachesCompound.indexOf(false) : facts.length;
    expect(firstOther).toBeGreaterThanOrEqual(shownTreats);
    expect(reachesCompound.slice(firstOther)).not.toContain(true);
  });
});

describe('an answer that sets an entity aside, over an OpenAI-compatible server', () => {
  const T2D = 'type 2 diabetes mellitus';

  // The model lists the excluded disease among its items as well as in `excluded`: the run's answer holds it once, aside.
  const model = answeringModel({
    answer: `polycystic ovary syndrome; ${T2D}`,
    optionKey: null,
    items: ['polycystic ovary syndrome', T2D],
    excluded: [T2D],
    count: null,
    abstain: false,
    rationale: 'scripted',
    claims: [],
  });

  it('asks for the excluded entities in a field of their own and never lets one take an answer slot', async () => {
    const { id } = await createRun(
      {
        method: 'kg-rag',
        backend: 'openai',
        question: `Which diseases does metformin treat, other than ${T2D}?`,
        switches: { doc: false, web: false, param: false },
      },
      { enqueue: false },
    );
    await executeRun(id);
    const run = await getRunRecord({ id });
    expect(run.status).toBe('succeeded');
    expect(model.prompt).toMatch(/"excluded":\{"description":"Entities the question sets aside/);
    const answer = answerOf(run);
    expect(answer.items).toEqual(['polycystic ovary syndrome']);
    expect(answer.text).toBe('polycystic ovary syndrome');
    const { rows } = await getPool().query<{ id: string }>(`select id from nodes where kind = 'Disease' and name = $1`, [T2D]);
    expect(answer.nodeIds).not.toContain(rows[0].id);
  });
});

describe('multiple-choice options sent as a record and written into the question, over an OpenAI-compatible server', () => {
  const model = answeringModel(ABSTAINS);

  it('shows each option once: the stem as the question, the record as the options block', async () => {
    const options = { A: 'Metformin', B: 'Glatiramer acetate', C: 'Warfarin' };
    const { id } = await createRun(
      {
        method: 'kg-rag',
        backend: 'openai',
        question: 'Which of these treats multiple sclerosis? (a) Metformin (b) Glatiramer acetate (c) Warfarin',
        options,
        switches: { doc: false, web: false, param: false },
      },
      { enqueue: false },
    );
    await executeRun(id);
    expect((await getRunRecord({ id })).status).toBe('succeeded');
    expect(model.prompt).toMatch(/^Question: Which of these treats multiple sclerosis\?\n\nOptions:\nA\. Metformin\nB\. Glatiramer acetate\nC\. Warfarin\n/m);
    const head = model.prompt.slice(0, model.prompt.indexOf('Entities recognised'));
    for (const text of Object.values(options)) expect(head.split(text).length - 1).toBe(1);
  });

  it("letters options written only into the question in the same block, so the answer's optionKey names them", async () => {
    const { id } = await createRun(
      {
        method: 'kg-rag',
        backend: 'openai',
        question: 'Which drug treats multiple sclerosis: Metformin, Glatiramer acetate, or Warfarin?',
        switches: { doc: false, web: false, param: false },
      },
      { enqueue: false },
    );
    await executeRun(id);
    expect((await getRunRecord({ id })).status).toBe('succeeded');
    expect(model.prompt).toMatch(/^Question: Which drug treats multiple sclerosis\?\n\nOptions:\nA\. Metformin\nB\. Glatiramer acetate\nC\. Warfarin\n/m);
  });
});
