import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { NextRequest } from 'next/server';
import { proxy } from '@/proxy';
import { POST as createRunRoute } from '@/app/api/runs/route';
import { importSetAction } from '@/app/eval/actions';
import { EMPTY_SET_FORM } from '@/lib/eval/set-form';
import { uploadName } from '@/lib/eval/import/upload';
import { MAX_JSON_DEPTH } from '@/lib/api/input';
import { MAX_UNPACKED_BYTES } from '@/lib/kg/import/lines';
import { closeDb, getPrisma } from '@/lib/db/client';

/**
 * Bounded inputs at the boundary: JSON nested past the limit and reserved
 * field names are 400s (never a 500, never silently dropped); a gzip that
 * unpacks past the limit is refused without being unpacked whole; an upload
 * name that is a path is refused; a path with malformed %-encoding is a 400
 * carrying the security headers; a missing `--document` file exits 2.
 */

afterAll(closeDb);

const post = (url: string, body: string) => new Request(`http://test${url}`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
const runBody = (extra: Record<string, unknown>) =>
  `{"method":"kg-rag","backend":"offline","question":"Which diseases does metformin treat? ${randomUUID()}",${Object.entries(extra)
    .map(([k, v]) => `${JSON.stringify(k)}:${v}`)
    .join(',')}}`;

describe('JSON bodies', () => {
  it('refuses deep nesting with a 400 naming the limit', async () => {
    const deep = '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000);
    const response = await createRunRoute(post('/api/runs', runBody({ params: deep })));
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatch(new RegExp(`nested deeper than ${MAX_JSON_DEPTH} levels`));
    // Nesting within the limit still reaches the schema (which names the unknown parameter).
    const shallow = await createRunRoute(post('/api/runs', runBody({ params: '{"a":{"b":1}}' })));
    expect(shallow.status).toBe(400);
    expect((await shallow.json()).error).toMatch(/params\.a/);
  });

  it('refuses __proto__, constructor and prototype keys instead of dropping them', async () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const response = await createRunRoute(post('/api/runs', runBody({ params: `{${JSON.stringify(key)}:{"polluted":true}}` })));
      expect(response.status, key).toBe(400);
      expect((await response.json()).error, key).toContain(`params.${key}: "${key}" is not accepted`);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('uploads', () => {
  const upload = (file: File, name = `limits-${randomUUID().slice(0, 8)}`) => {
    const form = new FormData();
    form.set('format', 'jsonl');
    form.set('name', name);
    form.set('file', file);
    return importSetAction(EMPTY_SET_FORM, form);
  };

  it('refuses a gzip that unpacks past the limit, naming it, and stores nothing', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hopscope-bomb-'));
    const file = path.join(dir, 'bomb.jsonl.gz');
    const chunk = Buffer.alloc(1 << 20, 0x20);
    const chunks = Math.ceil(MAX_UNPACKED_BYTES / chunk.length) + 8;
    await pipeline(
      Readable.from(
        (function* () {
          for (let i = 0; i < chunks; i++) yield chunk;
        })(),
      ),
      zlib.createGzip({ level: 9 }),
      fs.createWriteStream(file),
    );
    const bytes = fs.readFileSync(file);
    expect(bytes.length).toBeLessThan(2 * 1024 * 1024);
    const name = `bomb-${randomUUID().slice(0, 8)}`;
    const result = await upload(new File([bytes], 'bomb.jsonl.gz'), name);
    expect(result.created).toBeFalsy();
    expect(result.issues?.join(' ')).toMatch(/larger than 128 MiB unpacked/);
    expect(await (await getPrisma()).questionSet.count({ where: { name } })).toBe(0);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a file name that is a path, a path step or holds control characters, with a field message', async () => {
    const content = JSON.stringify({ question: 'Is metformin a drug?', answer: 'yes' }) + '\n';
    for (const fileName of ['..', '.', '../x.jsonl', 'a/b.jsonl', 'a\\b.jsonl', 'x\u0007.jsonl']) {
      const result = await upload(new File([content], fileName));
      expect(result.created, fileName).toBeFalsy();
      expect(result.fieldErrors?.file, fileName).toMatch(/the file name/);
    }
    // An ordinary name is kept, made safe for the temporary file.
    expect(uploadName('plain name (2).jsonl')).toBe('plain_name_2_.jsonl');
  });
});

describe('addresses', () => {
  it('answers malformed %-encoding in a path with a 400 carrying the security headers', async () => {
    for (const path of ['/api/runs/%ED%A0%80', '/runs/%E0%A4%A', '/api/documents/%']) {
      const response = await proxy(new NextRequest(`http://127.0.0.1:3000${path}`));
      expect(response.status, path).toBe(400);
      expect(response.headers.get('content-security-policy'), path).toContain("default-src 'none'");
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect((await response.json()).error).toMatch(/%-encoding/);
    }
    expect((await proxy(new NextRequest('http://127.0.0.1:3000/api/runs/abc%20def', { headers: { host: '127.0.0.1:3000' } }))).status).toBe(200);
  });
});

describe('the CLI', () => {
  it('exits 2 when the --document file is missing', async () => {
    const missing = path.join(os.tmpdir(), `no-such-${randomUUID()}.txt`);
    const { status, stderr } = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
      const child = spawn(
        path.resolve('node_modules/.bin/tsx'),
        [
          'scripts/hopscope.ts',
          'run',
          '--method',
          'kg-rag',
          '--question',
          'Which diseases does metformin treat?',
          '--backend',
          'offline',
          '--document',
          missing,
        ],
        { env: process.env },
      );
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      child.on('exit', (code) => resolve({ status: code, stderr: err }));
    });
    expect(status).toBe(2);
    expect(stderr).toMatch(/--document .*ENOENT/);
  }, 120_000);
});
