import { afterAll, describe, expect, it } from 'vitest';
import { GET as getRunRoute } from '@/app/api/runs/[id]/route';
import { GET as getViewRoute } from '@/app/api/runs/[id]/view/route';
import { GET as getSharedViewRoute } from '@/app/api/runs/share/[shareId]/view/route';
import { POST as rerunRoute } from '@/app/api/runs/[id]/rerun/route';
import { closeDb } from '@/lib/db/client';
import { stopQueue } from '@/lib/runs/queue';
import { createRun } from '@/lib/runs/service';
import { runSnapshot } from '@/lib/runs/snapshot';
import { verifyRun } from '@/lib/runs/verify';
import { runToSuccess } from '../support/runs';

/**
 * A finished run's reads carry an ETag naming its state: a client holding it
 * is answered 304 (no body), and a change to what the reads show (a
 * verification, a rerun) is a new state, answered 200 with a new tag. A live
 * run's reads are never cached.
 */
afterAll(async () => {
  await stopQueue();
  await closeDb();
});

const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) });
const get = (tag?: string) => new Request('http://x/', tag ? { headers: { 'if-none-match': tag } } : {});

describe('ETag revalidation of finished runs', () => {
  it('304 while the run is unchanged, 200 with a new tag after a verification and after a rerun', async () => {
    const run = await runToSuccess({ method: 'kg-rag', question: 'Which drugs treat gout?' });
    const first = await getViewRoute(get(), ctx({ id: run.id }));
    expect(first.status).toBe(200);
    const tag = first.headers.get('etag')!;
    expect(tag).toMatch(/^".+"$/);
    expect(first.headers.get('cache-control')).toContain('no-cache');
    const body = await first.json();
    expect(body.id).toBe(run.id);
    expect(body.verifications).toEqual([]);

    // Revalidation: nothing sent again; the same answer (kept) without a tag.
    const again = await getViewRoute(get(tag), ctx({ id: run.id }));
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const fresh = await getViewRoute(get(), ctx({ id: run.id }));
    expect(fresh.headers.get('etag')).toBe(tag);
    expect(await fresh.json()).toEqual(body);

    await verifyRun(run.id);
    const verified = await getViewRoute(get(tag), ctx({ id: run.id }));
    expect(verified.status).toBe(200);
    const verifiedTag = verified.headers.get('etag')!;
    expect(verifiedTag).not.toBe(tag);
    expect((await verified.json()).verifications).toHaveLength(1);

    const rerun = await rerunRoute(
      new Request('http://x/', { method: 'POST', body: '{"switches":{"doc":true,"entity":true,"kg":false,"param":true,"web":true}}' }),
      ctx({ id: run.id }),
    );
    expect(rerun.status).toBe(201);
    const child = (await rerun.json()).id;
    const withChild = await getViewRoute(get(verifiedTag), ctx({ id: run.id }));
    expect(withChild.status).toBe(200);
    expect((await withChild.json()).children.map((c: { id: string }) => c.id)).toEqual([child]);

    // The record and the permalink revalidate the same way.
    const record = await getRunRoute(get(), ctx({ id: run.id }));
    expect(record.status).toBe(200);
    expect((await getRunRoute(get(record.headers.get('etag')!), ctx({ id: run.id }))).status).toBe(304);
    const shared = await getSharedViewRoute(get(), ctx({ shareId: run.shareId }));
    expect(shared.status).toBe(200);
    expect((await shared.json()).id).toBe(run.shareId);
    expect((await getSharedViewRoute(get(shared.headers.get('etag')!), ctx({ shareId: run.shareId }))).status).toBe(304);
  });

  it('a burst of reads of a finished run builds its answer once, and sends it as plain JSON to a client that takes gzip', async () => {
    const run = await runToSuccess({ method: 'direct', question: 'Which drugs treat gout?' });
    let builds = 0;
    const build = async () => {
      builds++;
      await new Promise((r) => setTimeout(r, 20));
      return { id: run.id };
    };
    const answers = await Promise.all(Array.from({ length: 5 }, () => runSnapshot('burst', { id: run.id }, build)));
    expect(builds).toBe(1);
    expect(answers.map((a) => a.value.id)).toEqual(Array(5).fill(run.id));

    // Sent as plain JSON whatever the client accepts: Next.js drops a route handler's Content-Encoding, so a body gzipped here would arrive undecoded.
    const sent = await getRunRoute(new Request('http://x/', { headers: { 'accept-encoding': 'gzip, deflate, br' } }), ctx({ id: run.id }));
    expect(sent.headers.get('content-encoding')).toBeNull();
    expect(((await sent.json()) as { id: string }).id).toBe(run.id);
  });

  it('a queued run is answered fresh, with no tag', async () => {
    const { id } = await createRun({ method: 'direct', question: 'Which drugs treat gout?', backend: 'offline' }, { enqueue: false });
    const res = await getRunRoute(get('*'), ctx({ id }));
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBeNull();
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect((await res.json()).status).toBe('queued');
  });
});
