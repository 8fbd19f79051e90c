import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { GET as getView } from '@/app/api/runs/[id]/view/route';
import { GET as exportRun } from '@/app/api/runs/[id]/export/route';
import { GET as getSharedView } from '@/app/api/runs/share/[shareId]/view/route';
import { closeDb, getPool, writesBehind } from '@/lib/db/client';
import { inflateRawSync } from 'node:zlib';
import { recallTemplate } from '@/lib/llm/templates/generic';
import { executeRun } from '@/lib/runs/executor';
import { createRun } from '@/lib/runs/service';
import { reply, scriptedServerForSuite } from '../support/scripted-openai-server';

/**
 * A model that echoes the API key it was sent: the key is blanked before the
 * output is stored (model calls, steps, the answer, the trace pack, the
 * response cache), so after a key rotation, when read-time redaction knows
 * only the new key, the old one is still nowhere: not in the database, the
 * API, the export or the share view.
 */

const OLD_KEY = `sk-old-${randomUUID()}`;
const NEW_KEY = `sk-new-${randomUUID()}`;

scriptedServerForSuite((request) => {
  const sent = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
  const [system] = request.body.messages as { content: string }[];
  if (system.content === recallTemplate.system) return reply.ok(JSON.stringify({ claims: [{ statement: `my key is ${sent}`, confidence: 0.5 }] }));
  return reply.ok(
    JSON.stringify({
      answer: `Metformin (the key was ${sent})`,
      optionKey: null,
      items: [],
      count: null,
      abstain: false,
      rationale: `Authorization: Bearer ${sent}`,
      claims: [],
    }),
  );
});

afterAll(closeDb);

const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) });

describe('a key the model echoed', () => {
  it('is never stored, so a rotation leaves it nowhere', async () => {
    process.env.OPENAI_API_KEY = OLD_KEY;
    const { id, shareId } = await createRun(
      { method: 'kg-rag', backend: 'openai', question: `Which diseases does metformin treat? ${randomUUID()}` },
      { enqueue: false },
    );
    await executeRun(id);
    // A model run's pack is stored behind its end.
    await writesBehind();
    const pool = getPool();
    const {
      rows: [run],
    } = await pool.query<{ status: string; answer: unknown; error: string | null }>('select status, answer, error from runs where id = $1', [id]);
    expect(run!.error).toBeNull();
    expect(run!.status).toBe('succeeded');
    expect(JSON.stringify(run!.answer)).toContain('[redacted]');

    // Rotated: read-time redaction now knows only the new key.
    process.env.OPENAI_API_KEY = NEW_KEY;
    const stored = [
      JSON.stringify((await pool.query('select answer, error, scores from runs where id = $1', [id])).rows),
      JSON.stringify((await pool.query('select input, output, evidence_pool from steps where run_id = $1', [id])).rows),
      JSON.stringify((await pool.query('select messages, output, parsed, error from model_calls where run_id = $1', [id])).rows),
      JSON.stringify((await pool.query('select text, data from evidence where run_id = $1', [id])).rows),
      JSON.stringify(
        (await pool.query<{ body: Buffer }>('select body from trace_packs where run_id = $1', [id])).rows.map((r) => inflateRawSync(r.body).toString('utf8')),
      ),
      JSON.stringify((await pool.query("select output from model_cache where output like '%the key was%'")).rows),
    ];
    expect(stored[4]).toContain('[redacted]');
    for (const [i, text] of stored.entries()) expect(text.includes(OLD_KEY), `stored place ${i}`).toBe(false);
    const read = [
      await (await getView(new Request('http://test/'), ctx({ id }))).text(),
      await (await exportRun(new Request('http://test/'), ctx({ id }))).text(),
      await (await getSharedView(new Request('http://test/'), ctx({ shareId }))).text(),
    ];
    for (const [i, text] of read.entries()) expect(text.includes(OLD_KEY), `read path ${i}`).toBe(false);
  });
});
