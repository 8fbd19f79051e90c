import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as listRuns } from '@/app/api/runs/route';
import { GET as getRun } from '@/app/api/runs/[id]/route';
import { GET as getView } from '@/app/api/runs/[id]/view/route';
import { GET as getStep } from '@/app/api/runs/[id]/steps/[stepId]/route';
import { GET as exportRunRoute } from '@/app/api/runs/[id]/export/route';
import { GET as getSharedView } from '@/app/api/runs/share/[shareId]/view/route';
import { GET as getSharedStep } from '@/app/api/runs/share/[shareId]/steps/[stepId]/route';
import { GET as exportSharedRun } from '@/app/api/runs/share/[shareId]/export/route';
import { POST as startJob } from '@/app/api/eval/route';
import { GET as getJob } from '@/app/api/eval/[id]/route';
import { GET as getMatrix } from '@/app/api/eval/[id]/matrix/route';
import { GET as getQuestion } from '@/app/api/eval/[id]/questions/[questionId]/route';
import { GET as exportJob } from '@/app/api/eval/[id]/export/route';
import { GET as getSharedJob } from '@/app/api/eval/share/[shareId]/route';
import { GET as getSharedMatrix } from '@/app/api/eval/share/[shareId]/matrix/route';
import { GET as getSharedQuestion } from '@/app/api/eval/share/[shareId]/questions/[questionId]/route';
import { GET as exportSharedJob } from '@/app/api/eval/share/[shareId]/export/route';
import { closeDb, getPool } from '@/lib/db/client';
import { generateQuestionSet } from '@/lib/eval/generate';
import { tryLockJob } from '@/lib/eval/jobs/store/lock';
import { describeBackend } from '@/lib/runs/backend';
import { redactUrl } from '@/lib/base/redact';
import { runToSuccess } from '../support/runs';

/**
 * Secrets never leave the server, and share links never carry a private id:
 * every route that returns run data (runs, steps, exports, share APIs,
 * evaluations and their exports) is read with secrets planted in every place a
 * run can hold them: the stored endpoint URL (user-info and query), a step's
 * output, a model call's raw output, an evidence text, the run's error and an
 * evaluation outcome.
 */

const API_KEY = `sk-test-${randomUUID()}`;
const URL_PASSWORD = `pw-${randomUUID().slice(0, 12)}`;
const QUERY_KEY = `qk-${randomUUID().slice(0, 12)}`;
const SECRETS = [API_KEY, URL_PASSWORD, QUERY_KEY];
const LEAKY_URL = `https://lab:${URL_PASSWORD}@models.example.org/v1?api-key=${QUERY_KEY}`;

const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL, model: process.env.HOPSCOPE_MODEL };
let run: { id: string; shareId: string; stepId: string };
let job: { id: string; shareId: string; questionId: string };
let lock: { release(): Promise<void> } | null = null;

beforeAll(async () => {
  const record = await runToSuccess({ method: 'kg-rag', question: 'Which diseases does metformin treat?' });
  const stepId = record.steps[0]!.id;
  run = { id: record.id, shareId: record.shareId, stepId };
  const pool = getPool();
  const echo = `the server said: Authorization: Bearer ${API_KEY} via ${LEAKY_URL}`;
  await pool.query(
    `update runs set config = jsonb_set(config, '{backend}', $2::jsonb), error = $3, answer = jsonb_set(answer, '{text}', to_jsonb($3::text)) where id = $1`,
    [run.id, JSON.stringify({ backend: 'openai', model: 'm', baseUrl: LEAKY_URL, apiKey: API_KEY }), echo],
  );
  await pool.query(`update steps set output = $2::jsonb where id = $1`, [stepId, JSON.stringify({ echoed: echo })]);
  await pool.query(`update evidence set text = $2 where id = (select id from evidence where run_id = $1 order by ordinal limit 1)`, [run.id, echo]);
  await pool.query(
    `insert into model_calls (id, run_id, step_id, ordinal, role, backend, model, template, template_version, messages, output, tokens_in, tokens_out, latency_ms)
     values ($1, $2, $3, 9999, 'answer', 'openai', 'm', 't', 1, $4::jsonb, $5, 1, 1, 1)`,
    [randomUUID(), run.id, stepId, JSON.stringify([{ role: 'user', content: `key ${API_KEY}` }]), echo],
  );

  const setName = `secrets-${randomUUID().slice(0, 8)}`;
  await generateQuestionSet({ generator: 'biomedhop', name: setName, seed: 'secrets', count: 1 });
  const created = await startJob(
    new Request('http://test/api/eval', { method: 'POST', body: JSON.stringify({ set: setName, methods: 'kg-rag', backend: 'offline' }) }),
  );
  const { id, shareId } = await created.json();
  lock = await tryLockJob(id);
  const { rows } = await pool.query<{ question_id: string }>(`update eval_items set run_id = $2, scores = $3::jsonb where job_id = $1 returning question_id`, [
    id,
    run.id,
    JSON.stringify({
      status: 'failed',
      correct: null,
      abstained: false,
      grounding: null,
      steps: 1,
      iterations: null,
      calls: 1,
      tokensIn: 1,
      tokensOut: 1,
      wallMs: 1,
      answer: echo,
      error: echo,
    }),
  ]);
  job = { id, shareId, questionId: rows[0]!.question_id };

  process.env.OPENAI_API_KEY = API_KEY;
  process.env.OPENAI_BASE_URL = LEAKY_URL;
});

afterAll(async () => {
  for (const [name, value] of [
    ['OPENAI_API_KEY', saved.key],
    ['OPENAI_BASE_URL', saved.url],
    ['HOPSCOPE_MODEL', saved.model],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await lock?.release();
  await closeDb();
});

const get = (path: string) => new Request(`http://test${path}`);
const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) });

async function read(response: Response): Promise<string> {
  expect(response.status).toBe(200);
  return response.text();
}

function expectNoSecret(body: string, where: string) {
  for (const secret of SECRETS) expect(body.includes(secret), `${where} leaks ${secret.slice(0, 6)}…`).toBe(false);
}

describe('secrets never leave the server', () => {
  it('no route that returns run data carries the API key, the URL credentials or an echoed secret', async () => {
    const bodies: [string, Response][] = [
      ['GET /api/runs', await listRuns(get('/api/runs?limit=200'))],
      ['GET /api/runs/{id}', await getRun(get('/'), ctx({ id: run.id }))],
      ['GET /api/runs/{id}/view', await getView(get('/'), ctx({ id: run.id }))],
      ['GET /api/runs/{id}/steps/{stepId}', await getStep(get('/'), ctx({ id: run.id, stepId: run.stepId }))],
      ['GET /api/runs/{id}/export', await exportRunRoute(get('/'), ctx({ id: run.id }))],
      ['GET /api/runs/share/{shareId}/view', await getSharedView(get('/'), ctx({ shareId: run.shareId }))],
      ['GET /api/runs/share/{shareId}/steps/{stepId}', await getSharedStep(get('/'), ctx({ shareId: run.shareId, stepId: run.stepId }))],
      ['GET /api/runs/share/{shareId}/export', await exportSharedRun(get('/'), ctx({ shareId: run.shareId }))],
      ['GET /api/eval/{id}', await getJob(get('/'), ctx({ id: job.id }))],
      ['GET /api/eval/{id}/matrix', await getMatrix(get('/x'), ctx({ id: job.id }))],
      ['GET /api/eval/{id}/questions/{q}', await getQuestion(get('/'), ctx({ id: job.id, questionId: job.questionId }))],
      ['GET /api/eval/{id}/export csv', await exportJob(get('/x?format=csv&table=items'), ctx({ id: job.id }))],
      ['GET /api/eval/{id}/export json', await exportJob(get('/x?format=json'), ctx({ id: job.id }))],
      ['GET /api/eval/share/{shareId}', await getSharedJob(get('/'), ctx({ shareId: job.shareId }))],
      ['GET /api/eval/share/{shareId}/matrix', await getSharedMatrix(get('/x'), ctx({ shareId: job.shareId }))],
      ['GET /api/eval/share/{shareId}/questions/{q}', await getSharedQuestion(get('/'), ctx({ shareId: job.shareId, questionId: job.questionId }))],
      ['GET /api/eval/share/{shareId}/export csv', await exportSharedJob(get('/x?format=csv&table=items'), ctx({ shareId: job.shareId }))],
      ['GET /api/eval/share/{shareId}/export json', await exportSharedJob(get('/x?format=json'), ctx({ shareId: job.shareId }))],
    ];
    for (const [where, response] of bodies) {
      const body = await read(response);
      expectNoSecret(body, where);
    }
    // The redacted record still says where the model ran and what it answered.
    const record = await (await getRun(get('/'), ctx({ id: run.id }))).json();
    expect(record.config.backend.baseUrl).toBe('https://models.example.org/v1?api-key=%5Bredacted%5D');
    expect(record.config.backend.apiKey).toBeUndefined();
    expect(record.error).toContain('Bearer [redacted]');
    // The planted step output is read (the run's trace is packed; a body written to a packed row is the row's), redacted.
    expect(JSON.stringify(record.steps.find((s: { id: string }) => s.id === run.stepId).output)).toContain('Bearer [redacted]');
  });

  it('stores the endpoint of a new run without its credentials', () => {
    process.env.HOPSCOPE_MODEL = 'scripted-model';
    const backend = describeBackend('openai');
    expect(backend.baseUrl).toBe('https://models.example.org/v1?api-key=%5Bredacted%5D');
    expect(redactUrl('http://u:p@h/x?token=abc&q=1')).toBe('http://h/x?token=%5Bredacted%5D&q=1');
  });
});

describe('share links carry no private id', () => {
  it('the share APIs and share exports name the run and its evaluation runs by share id only', async () => {
    const shared = [
      await read(await getSharedView(get('/'), ctx({ shareId: run.shareId }))),
      await read(await getSharedStep(get('/'), ctx({ shareId: run.shareId, stepId: run.stepId }))),
      await read(await exportSharedRun(get('/'), ctx({ shareId: run.shareId }))),
      await read(await getSharedJob(get('/'), ctx({ shareId: job.shareId }))),
      await read(await getSharedMatrix(get('/x'), ctx({ shareId: job.shareId }))),
      await read(await getSharedQuestion(get('/'), ctx({ shareId: job.shareId, questionId: job.questionId }))),
      await read(await exportSharedJob(get('/x?format=csv&table=items'), ctx({ shareId: job.shareId }))),
      await read(await exportSharedJob(get('/x?format=json'), ctx({ shareId: job.shareId }))),
    ];
    for (const body of shared) {
      expect(body).not.toContain(run.id);
      expect(body).not.toContain(job.id);
    }
    const view = JSON.parse(shared[0]!);
    expect(view).toMatchObject({ id: run.shareId, shareId: run.shareId, shared: true });
    const matrix = JSON.parse(shared[4]!);
    expect(matrix.rows[0].cells[0].runId).toBe(run.shareId);
    expect(shared[6]!.split('\r\n')[0]).toContain('run_share_id');
    expect(shared[6]).toContain(run.shareId);

    // The private routes keep the private ids (for the owner).
    const privateMatrix = await (await getMatrix(get('/x'), ctx({ id: job.id }))).json();
    expect(privateMatrix.rows[0].cells[0].runId).toBe(run.id);
  });

  it('a malformed or unknown share id is a 400 or a 404, never a lookup by private id', async () => {
    expect((await getSharedView(get('/'), ctx({ shareId: 'not/a/link' }))).status).toBe(400);
    expect((await getSharedView(get('/'), ctx({ shareId: run.id.padEnd(22, 'x') }))).status).toBe(404);
  });
});
