import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { HttpError, mapError } from '@/lib/api/errors';
import { NeighborsQuerySchema, NodeParamsSchema, SearchQuerySchema } from '@/lib/api/kg-schemas';
import { defineRoute, json, searchParamsToObject } from '@/lib/api/route';
import { InvalidInputError, NotFoundError } from '@/lib/base/errors';

const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) });

describe('defineRoute', () => {
  const route = defineRoute({ params: NodeParamsSchema, query: NeighborsQuerySchema }, async ({ params, query }) => ({ id: params.id, query }));

  it('validates and decodes the input, then answers JSON', async () => {
    const res = await route(new Request('http://x/api/kg/nodes/a/neighbors?metaedges=DaG,CtD&direction=out&limit=5'), ctx({ id: 'Disease%3A%3ADOID%3A2377' }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      id: 'Disease::DOID:2377',
      query: { metaedges: ['DaG', 'CtD'], direction: 'out', neighborKinds: [], limit: 5, offset: 0, order: 'degree' },
    });
  });

  it('answers 400 with a clear message for invalid input', async () => {
    const res = await route(new Request('http://x/?limit=-3&direction=up'), ctx({ id: 'not-an-id' }));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; issues: { path: string }[] };
    expect(body.error).toMatch(/^Invalid input: /);
    expect(body.error).toMatch(/id must look like Kind::identifier/);
    expect(body.issues.map((i) => i.path).sort()).toEqual(['direction', 'id', 'limit']);
  });

  it('maps not-found errors to 404', async () => {
    const a = defineRoute({}, async () => {
      throw new HttpError(404, 'No KG node with id Gene::0');
    });
    const b = defineRoute({}, async () => {
      throw new NotFoundError('no such run');
    });
    const ra = await a(new Request('http://x/'));
    expect(ra.status).toBe(404);
    expect(await ra.json()).toEqual({ error: 'No KG node with id Gene::0' });
    expect((await b(new Request('http://x/'))).status).toBe(404);
  });

  it('answers 500 without leaking the error', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const r = defineRoute({}, async () => {
      throw new Error('connect ECONNREFUSED postgresql://hopscope:secret@db:5432');
    });
    const res = await r(new Request('http://x/api/kg/search?q=a'));
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain('secret');
    expect(JSON.parse(text)).toEqual({ error: 'Internal server error' });
    expect(spy).toHaveBeenCalled();
    spy.mockRestore();
  });

  it('lets a handler choose the status', async () => {
    const r = defineRoute({}, async () => json(503, { ok: false }));
    const res = await r(new Request('http://x/'));
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ ok: false });
  });
});

describe('KG input schemas', () => {
  it('parses search queries', () => {
    expect(SearchQuerySchema.parse({ q: '  multiple scler ', kinds: 'Disease,Gene' })).toEqual({ q: 'multiple scler', kinds: ['Disease', 'Gene'], limit: 10 });
    expect(SearchQuerySchema.parse({ q: 'il6', kinds: ['Gene', 'Compound'], limit: '3' })).toEqual({ q: 'il6', kinds: ['Gene', 'Compound'], limit: 3 });
    expect(SearchQuerySchema.safeParse({ q: '' }).success).toBe(false);
    expect(SearchQuerySchema.safeParse({ q: 'a', kinds: "Gene'; drop table" }).success).toBe(false);
    expect(SearchQuerySchema.safeParse({ q: 'a', limit: '1.5' }).success).toBe(false);
  });

  it('accepts metaedges such as Gr>G and rejects junk', () => {
    expect(NeighborsQuerySchema.parse({ metaedges: 'Gr>G' }).metaedges).toEqual(['Gr>G']);
    expect(NeighborsQuerySchema.safeParse({ metaedges: "DaG'; drop table" }).success).toBe(false);
    expect(NeighborsQuerySchema.safeParse({ offset: '-1' }).success).toBe(false);
  });

  it('accepts real node ids', () => {
    for (const id of ['Gene::3439', 'Disease::DOID:2377', 'Side%20Effect::C0026769', 'Biological Process::GO:0008150']) {
      expect(NodeParamsSchema.safeParse({ id }).success).toBe(true);
    }
    expect(NodeParamsSchema.safeParse({ id: '%E0%A4%A' }).success).toBe(false);
  });
});

describe('mapError', () => {
  it('maps each error class once', () => {
    expect(mapError(new z.ZodError([])).status).toBe(400);
    expect(mapError(new InvalidInputError('bad', [{ path: 'q', message: 'bad' }])).body).toEqual({ error: 'bad', issues: [{ path: 'q', message: 'bad' }] });
    expect(mapError(new HttpError(500, 'internal detail')).body.error).toBe('Internal server error');
    expect(mapError('string thrown').status).toBe(500);
  });
});

describe('searchParamsToObject', () => {
  it('keeps single keys as strings and repeated keys as arrays', () => {
    expect(searchParamsToObject(new URLSearchParams('a=1&b=2&b=3'))).toEqual({ a: '1', b: ['2', '3'] });
  });
});
