import { describe, expect, it } from 'vitest';
import { parseViewState, viewStateQuery } from '@/components/runs/view-state';
import { describeParam, type ParamDescriptor } from '@/lib/methods/descriptors';
import { redactSecrets, redactUrl } from '@/lib/base/redact';
import { readParams, rerunRequestFromForm, runRequestFromForm } from '@/lib/runs/form';
import { RerunRequestSchema, RunRequestSchema } from '@/lib/runs/schemas';

function form(entries: [string, string][]) {
  const data = new FormData();
  for (const [k, v] of entries) data.append(k, v);
  return data;
}

const PARAMS: ParamDescriptor[] = [
  { name: 'k', type: 'integer', default: 5, min: 1, max: 10 },
  { name: 'corrector', type: 'boolean', default: true },
  { name: 'tau', type: 'number', default: 3 },
  { name: 'mode', type: 'enum', default: 'a', options: ['a', 'b'] },
  { name: 'weights', type: 'json', default: [1, 2] },
];

describe('run forms', () => {
  it('turn the ask form into a request the run service accepts', () => {
    const body = runRequestFromForm(
      form([
        ['question', 'Which genes does <script>alert(1)</script> bind?'],
        ['method', 'eigen1'],
        ['backend', 'offline'],
        ['option.A', 'IL6'],
        ['option.B', ' TNF '],
        ['option.C', ''],
        ['document.title', 'Note'],
        ['document.text', 'Some text.'],
        ['switches', '1'],
        ['switch.doc', 'on'],
        ['switch.entity', 'on'],
        ['kgShuffle', 'on'],
        ['kgShuffleSeed', '42'],
        ['param.k', '3'],
        ['param.tau', ''],
        ['param.corrector.shown', '1'],
        ['param.mode', 'b'],
        ['param.weights', '[3, 4]'],
      ]),
      PARAMS,
    );
    expect(body).toEqual({
      method: 'eigen1',
      question: 'Which genes does <script>alert(1)</script> bind?',
      options: { A: 'IL6', B: 'TNF' },
      documents: [{ text: 'Some text.', title: 'Note' }],
      switches: { doc: true, entity: true, kg: false, param: false, web: false, aids: false },
      kgShuffle: { seed: 42 },
      params: { k: 3, corrector: false, mode: 'b', weights: [3, 4] },
      backend: 'offline',
    });
    expect(RunRequestSchema.safeParse(body).success).toBe(true);
  });

  it('run a picked question by id, without the typed fields', () => {
    const body = runRequestFromForm(
      form([
        ['questionId', 'q1'],
        ['question', 'ignored'],
        ['option.A', 'x'],
        ['method', 'xr2'],
      ]),
      [],
    );
    expect(body).toEqual({ method: 'xr2', questionId: 'q1', params: {}, backend: 'auto' });
  });

  it('turn the rerun form into only the changes it carries', () => {
    const body = rerunRequestFromForm(
      form([
        ['switches', '1'],
        ['switch.doc', 'on'],
        ['switch.entity', 'on'],
        ['switch.param', 'on'],
        ['switch.web', 'on'],
        ['param.k', '5'],
      ]),
      PARAMS,
    );
    expect(body).toEqual({ switches: { doc: true, entity: true, kg: false, param: true, web: true, aids: false }, kgShuffle: false, params: { k: 5 } });
    expect(RerunRequestSchema.safeParse(body).success).toBe(true);
    // No switch fields at all: the switches are not part of the change.
    expect(rerunRequestFromForm(form([]), PARAMS)).toEqual({ params: {} });
  });

  it('leave blank numbers out, so the paper default applies', () => {
    expect(readParams(form([['param.k', '  ']]), PARAMS)).toEqual({});
  });
});

describe('describeParam', () => {
  it('reads types, defaults and ranges from the JSON schema, dropping unbounded integer limits', () => {
    expect(describeParam('k', { type: 'integer', default: 5, minimum: 1, maximum: 10 }, undefined)).toEqual({
      name: 'k',
      type: 'integer',
      default: 5,
      min: 1,
      max: 10,
    });
    expect(describeParam('seed', { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 }, 0)).toEqual({
      name: 'seed',
      type: 'integer',
      default: 0,
    });
    expect(describeParam('m', { type: 'string', enum: ['a', 'b'], default: 'a' }, undefined)).toMatchObject({ type: 'enum', options: ['a', 'b'] });
    expect(describeParam('w', { type: 'array', default: [1] }, undefined)).toMatchObject({ type: 'json', default: [1] });
  });
});

describe('redaction', () => {
  it('drops secret-named keys, URL credentials and the configured key anywhere', () => {
    const value = {
      config: { backend: { baseUrl: 'https://user:pw@llm.example/v1', apiKey: 'sk-abc' }, Authorization: 'Bearer x' },
      calls: [{ output: 'echo sk-live-123456 back', tokensIn: 3 }],
    };
    expect(redactSecrets(value, ['sk-live-123456'])).toEqual({
      config: { backend: { baseUrl: 'https://llm.example/v1' } },
      calls: [{ output: 'echo [redacted] back', tokensIn: 3 }],
    });
    expect(redactUrl('http://a:b@h:1/p')).toBe('http://h:1/p');
    expect(redactUrl('not a url')).toBe('not a url');
  });
});

describe('run view state in the URL', () => {
  it('round-trips step, graph scope, graph cut, only-mode and selection, keeping other parameters', () => {
    const state = { step: 12, scope: 'all' as const, graph: 7, only: true, sel: { type: 'edge' as const, id: 'kg:123' } };
    const qs = viewStateQuery(state, 'tab=x&step=1');
    expect(parseViewState(new URLSearchParams(qs))).toEqual(state);
    expect(new URLSearchParams(qs).get('tab')).toBe('x');
  });

  it('ignores malformed values', () => {
    expect(parseViewState(new URLSearchParams('step=abc&graph=-1&only=1&sel=foo'))).toEqual({ step: null, scope: null, graph: null, only: false, sel: null });
    expect(parseViewState(new URLSearchParams('sel=node:Gene::1')).sel).toEqual({ type: 'node', id: 'Gene::1' });
  });
});
