import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { POST as createRunRoute } from '@/app/api/runs/route';
import { POST as startJob } from '@/app/api/eval/route';
import { closeDb, getPrisma } from '@/lib/db/client';
import { importQuestionSet, SetImportError } from '@/lib/eval/import';
import { MAX_JSON_BODY_BYTES } from '@/lib/api/input';

/**
 * Every bad input is a clear 4xx (or CLI exit code 2) from the boundary, and
 * nothing is stored: NUL bytes and lone surrogates, unknown parameter names,
 * bodies over the size limit, non-http(s) URLs; no error echoes a large input.
 */

afterAll(closeDb);

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  new Request(`http://test${url}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
const runBody = (extra: Record<string, unknown>) =>
  JSON.stringify({ method: 'kg-rag', backend: 'offline', question: 'Which diseases does metformin treat?', ...extra });

async function expect400(response: Response, pattern: RegExp) {
  expect(response.status).toBe(400);
  const body = await response.json();
  expect(body.error).toMatch(pattern);
  return body;
}

describe('text that cannot be stored', () => {
  it('refuses a NUL byte or a lone surrogate in a question, a document, an option or a job name with a 400 naming the field', async () => {
    const marker = `nul-${randomUUID()}`;
    await expect400(await createRunRoute(post('/api/runs', runBody({ question: `Which ${marker}\u0000 genes?` }))), /question: contains a NUL byte/);
    await expect400(
      await createRunRoute(post('/api/runs', runBody({ question: `Which ${marker} genes \ud800?` }))),
      /question: contains a lone surrogate \(U\+D800\)/,
    );
    await expect400(
      await createRunRoute(post('/api/runs', runBody({ documents: [{ text: 'ok', title: 'x' }, { text: 'bad \udc00 text' }] }))),
      /documents\.1\.text: contains a lone surrogate/,
    );
    await expect400(await createRunRoute(post('/api/runs', runBody({ options: { A: 'x\u0000', B: 'y' } }))), /options\.A: contains a NUL byte/);
    await expect400(await startJob(post('/api/eval', JSON.stringify({ set: 'any', name: 'job\u0000', methods: 'kg-rag' }))), /name: contains a NUL byte/);
    // A surrogate pair (an emoji) is valid text.
    const ok = await createRunRoute(post('/api/runs', runBody({ question: `Which diseases does metformin treat? 💊 ${marker}` })));
    expect(ok.status).toBe(201);
    expect(await (await getPrisma()).run.count({ where: { questionText: { contains: marker } } })).toBe(1);
  });

  it('refuses an imported set with a NUL byte, naming the question, and imports nothing', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hopscope-nul-'));
    const file = path.join(dir, 'set.jsonl');
    fs.writeFileSync(
      file,
      [JSON.stringify({ question: 'Fine question?', answer: 'yes' }), JSON.stringify({ question: 'Bad \u0000 question?', answer: 'no' })].join('\n'),
    );
    const name = `nul-set-${randomUUID().slice(0, 8)}`;
    const error = await importQuestionSet({ format: 'jsonl', file, name }).catch((e) => e);
    expect(error).toBeInstanceOf(SetImportError);
    expect(error.message).toMatch(/question 2: text: contains a NUL byte/);
    expect(await (await getPrisma()).questionSet.count({ where: { name } })).toBe(0);
  });
});

describe('strict parameters', () => {
  it('names an unknown parameter and suggests the real one, instead of running with defaults', async () => {
    const body = await expect400(
      await createRunRoute(post('/api/runs', runBody({ method: 'xr2', params: { tmax: 1 } }))),
      /params\.tmax: xr2 has no parameter "tmax"; did you mean "tMax"\?/,
    );
    expect(body.issues[0].path).toBe('params.tmax');
    await expect400(await createRunRoute(post('/api/runs', runBody({ method: 'regram', params: { K: -1 } }))), /regram has no parameter "K"/);
    await expect400(
      await startJob(post('/api/eval', JSON.stringify({ set: 'any', methods: 'xr2', params: { xr2: { topk: 3 } } }))),
      /params\.xr2\.topk: .*did you mean "topK"/,
    );
  });
});

describe('sizes and URLs', () => {
  it('answers 413 to a body over the limit, declared or streamed, without reading it all', async () => {
    const big = 'x'.repeat(MAX_JSON_BODY_BYTES + 10);
    const declared = await createRunRoute(post('/api/runs', big, { 'content-length': String(big.length) }));
    expect(declared.status).toBe(413);
    const stream = new ReadableStream({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('y'.repeat(1 << 20)));
      },
    });
    const streamed = await createRunRoute(new Request('http://test/api/runs', { method: 'POST', body: stream, duplex: 'half' } as RequestInit));
    expect(streamed.status).toBe(413);
    expect((await streamed.json()).error).toMatch(/larger than 4 MiB/);
  });

  it('never echoes a large input in an error', async () => {
    const name = 'n'.repeat(1_000_000);
    const response = await startJob(post('/api/eval', JSON.stringify({ set: name, methods: 'kg-rag' })));
    expect(response.status).toBe(404);
    expect((await response.text()).length).toBeLessThan(2000);
  });

  it('accepts only http(s) URLs in a web bundle', async () => {
    const record = (url: string) => ({ webBundle: [{ id: 'w1', title: 'A page', snippet: 'Metformin treats type 2 diabetes.', url }] });
    await expect400(await createRunRoute(post('/api/runs', runBody(record('javascript:alert(1)')))), /webBundle\.0\.url: only http\(s\) URLs/);
    await expect400(await createRunRoute(post('/api/runs', runBody(record('data:text/html,<b>x</b>')))), /only http\(s\) URLs/);
    expect((await createRunRoute(post('/api/runs', runBody(record('https://example.org/metformin'))))).status).toBe(201);
  });
});

describe('the CLI', () => {
  function cli(...args: string[]): Promise<{ status: number | null; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(path.resolve('node_modules/.bin/tsx'), ['scripts/hopscope.ts', ...args], { env: process.env });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.on('exit', (status) => resolve({ status, stderr }));
    });
  }

  it('exits with 2 for invalid input: a bad switch, an unknown option, an unknown parameter, a NUL byte in a document', async () => {
    const question = ['--method', 'xr2', '--question', 'Which diseases does metformin treat?', '--backend', 'offline'];
    const badSwitch = await cli('run', ...question, '--switches', 'graph=0');
    expect(badSwitch).toMatchObject({ status: 2 });
    expect(badSwitch.stderr).toMatch(/error: Unknown channel "graph"/);
    expect((await cli('run', ...question, '--verbose')).status).toBe(2);
    const badParam = await cli('run', ...question, '--params', 'tmax=1');
    expect(badParam.status).toBe(2);
    expect(badParam.stderr).toMatch(/did you mean "tMax"/);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hopscope-doc-')), 'doc.txt');
    fs.writeFileSync(file, 'Metformin \u0000 treats type 2 diabetes.');
    const nul = await cli('run', ...question, '--document', file);
    expect(nul.status).toBe(2);
    expect(nul.stderr).toMatch(/documents\.0\.text: contains a NUL byte/);
    expect(nul.stderr).not.toMatch(/invalid byte sequence|22021|prisma/i);
  }, 180_000);
});
