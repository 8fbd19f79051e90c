import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, getPrisma } from '@/lib/db/client';
import { executeRun } from '@/lib/runs/executor';
import { createRun, rerun } from '@/lib/runs/service';
import {
  reply,
  schemaNameOf as schemaName,
  startScriptedOpenAIServer,
  setScriptedModelEnv,
  type RecordedRequest,
  type ScriptedServer,
} from '../support/scripted-openai-server';

/**
 * A rerun with one switch flipped asks the endpoint only for the calls whose
 * prompt changed: here kg off changes the answer prompt (no KG facts) but not
 * the parametric recall, which comes from the response cache.
 */
const promptOf = (r: RecordedRequest) => JSON.stringify(r.body.messages);

let server: ScriptedServer;
let restoreEnv = () => undefined as void;

beforeAll(async () => {
  server = await startScriptedOpenAIServer((request) => {
    if (schemaName(request).includes('recall'))
      return reply.ok(JSON.stringify({ claims: [{ statement: 'Metformin lowers hepatic glucose output', confidence: 0.9 }] }));
    return reply.ok(
      JSON.stringify({ answer: 'type 2 diabetes mellitus', optionKey: null, items: [], count: null, abstain: false, rationale: 'scripted', claims: [] }),
    );
  });
  // A model name of this test's own, so no other test's cached outputs match.
  restoreEnv = setScriptedModelEnv(server, { model: `cache-test-${Date.now()}` });
});

afterAll(async () => {
  restoreEnv();
  await server?.close();
  await closeDb();
});

describe('switch-toggled rerun', () => {
  it('reuses cached model outputs for the calls the flipped switch does not change', async () => {
    const prisma = await getPrisma();
    const parent = await createRun({ method: 'kg-rag', question: 'Which diseases does metformin treat?', backend: 'openai' }, { enqueue: false });
    await executeRun(parent.id);
    const parentCalls = await prisma.modelCall.findMany({ where: { runId: parent.id }, orderBy: { ordinal: 'asc' } });
    expect(parentCalls.map((c) => c.cached)).toEqual([false, false]);
    const requestsBefore = server.requests.length;
    expect(requestsBefore).toBe(2);
    const parentAnswerPrompt = promptOf(server.requests.find((r) => schemaName(r).includes('answer'))!);
    expect(parentAnswerPrompt).toMatch(/treats/i);

    const child = await rerun(parent.id, { switches: { doc: true, entity: true, kg: false, param: true, web: true } }, { enqueue: false });
    await executeRun(child.id);
    const run = await prisma.run.findUniqueOrThrow({ where: { id: child.id } });
    expect(run.status).toBe('succeeded');
    expect(run.parentRunId).toBe(parent.id);
    expect(run.configDiff).toEqual([expect.objectContaining({ path: 'switches.kg' })]);

    // One new request (the answer, whose prompt lost the KG facts); the recall was a cache hit.
    const fresh = server.requests.slice(requestsBefore);
    expect(fresh.map(schemaName)).toEqual([expect.stringContaining('answer')]);
    expect(promptOf(fresh[0])).not.toMatch(/treats/i);
    const calls = await prisma.modelCall.findMany({ where: { runId: child.id }, orderBy: { ordinal: 'asc' } });
    expect(calls.map((c) => [c.role, c.cached])).toEqual([
      ['recall', true],
      ['answer', false],
    ]);
  });
});
