import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, getPrisma } from '@/lib/db/client';
import { stopQueue } from '@/lib/runs/queue';
import { createRun } from '@/lib/runs/service';
import { recoverInterruptedRuns, startRunWorkers } from '@/lib/runs/worker';
import {
  reply,
  schemaNameOf as schemaName,
  startScriptedOpenAIServer,
  setScriptedModelEnv,
  type RecordedRequest,
  type ScriptedServer,
} from '../support/scripted-openai-server';

/**
 * "Kill the worker during a run": a kg-rag run on the openai backend recalls
 * background facts (one model call), then hangs in its answer call while its
 * worker process is SIGKILLed. The completed steps must still be there, and
 * the resumed run must replay them (no second recall request) and finish.
 */
const isRecall = (r: RecordedRequest) => schemaName(r).includes('recall');
const isAnswer = (r: RecordedRequest) => schemaName(r).includes('answer');

const SOLUTION = {
  answer: 'Interleukin-7 receptor',
  optionKey: null,
  items: [],
  count: null,
  abstain: false,
  rationale: 'from the scripted model',
  claims: [{ text: 'IL7R is associated with multiple sclerosis', evidenceIds: [] }],
};

let server: ScriptedServer;
let answering = false;
let child: ChildProcess | null = null;
let restoreEnv = () => undefined as void;

beforeAll(async () => {
  // A queue of its own: workers of other test files share the database, and one of them taking
  // this run (without this file's model endpoint) would end it its own way.
  process.env.HOPSCOPE_RUN_QUEUE = `hopscope-runs-durability-${process.pid}`;
  server = await startScriptedOpenAIServer((request) => {
    if (isRecall(request)) return reply.ok(JSON.stringify({ claims: [{ statement: 'IL7R variants raise the risk of multiple sclerosis', confidence: 0.8 }] }));
    if (isAnswer(request)) return answering ? reply.ok(JSON.stringify(SOLUTION)) : reply.hang();
    return reply.status(400, { message: `unexpected template ${schemaName(request)}` });
  });
  // A model name of its own, so no earlier run's cached outputs answer for the endpoint.
  restoreEnv = setScriptedModelEnv(server, { model: `durability-${Date.now()}`, apiKey: 'sk-test-durability' });
});

afterAll(async () => {
  delete process.env.HOPSCOPE_RUN_QUEUE;
  child?.kill('SIGKILL');
  restoreEnv();
  await server?.close();
  await stopQueue();
  await closeDb();
});

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('a worker killed in the middle of a run', () => {
  it('keeps the completed steps, and the resumed run replays them and finishes', async () => {
    const prisma = await getPrisma();
    child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/run-worker-process.ts'], {
      env: { ...process.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let childLog = '';
    child.stdout!.on('data', (d) => (childLog += d));
    child.stderr!.on('data', (d) => (childLog += d));
    await until('the worker process', () => childLog.includes('worker ready'));

    const { id } = await createRun({
      method: 'kg-rag',
      question: 'Which genes are associated with multiple sclerosis?',
      backend: 'openai',
    });
    await until('the answer call to hang', () => server.requests.some(isAnswer));
    const before = await prisma.step.findMany({ where: { runId: id, status: 'succeeded' }, orderBy: { ordinal: 'asc' } });
    expect(before.map((s) => s.kind)).toEqual(expect.arrayContaining(['channel.param']));

    child.kill('SIGKILL');
    await until('the worker to die', () => child!.exitCode !== null || child!.signalCode !== null);
    const orphan = await prisma.run.findUniqueOrThrow({ where: { id } });
    expect(orphan.status).toBe('running');

    // The next worker finds the run stale, marks the interrupted step and resumes it.
    // Only this run: other tests' live runs share the database.
    const recovered = await recoverInterruptedRuns([id]);
    expect(recovered.resumed).toContain(id);
    answering = true;
    const workers = await startRunWorkers({ concurrency: 1 });
    try {
      const done = await until('the resumed run to finish', async () => {
        const run = await prisma.run.findUniqueOrThrow({ where: { id } });
        return ['succeeded', 'failed'].includes(run.status) ? run : null;
      });
      expect(done.error).toBeNull();
      expect(done.status).toBe('succeeded');
      expect(done.attempts).toBe(2);
      expect((done.answer as { text: string }).text).toBe(SOLUTION.answer);
    } finally {
      await workers.stop();
    }

    // Every step that had finished before the kill is still there, unchanged; none ran twice.
    const after = await prisma.step.findMany({ where: { runId: id }, orderBy: { ordinal: 'asc' } });
    for (const step of before) expect(after.find((s) => s.id === step.id)?.output).toEqual(step.output);
    expect(after.filter((s) => s.kind === 'channel.param')).toHaveLength(1);
    expect(server.requests.filter(isRecall)).toHaveLength(1);
    // The answer step the kill interrupted is recorded as such; a fresh one succeeded.
    const answers = after.filter((s) => s.kind === 'kg-rag.answer');
    expect(answers.map((s) => s.status)).toEqual(['failed', 'succeeded']);
    expect(JSON.stringify(answers[0].output)).toContain('interrupted');
    // The key never reaches the trace.
    const calls = await prisma.modelCall.findMany({ where: { runId: id } });
    expect(JSON.stringify(calls)).not.toContain('sk-test-durability');
  }, 120_000);
});
