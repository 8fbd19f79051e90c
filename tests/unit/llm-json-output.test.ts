import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { extractJson, parseStructured } from '../../lib/llm/json-output';

describe('extractJson', () => {
  it('reads plain JSON', () => {
    expect(extractJson(' {"a": 1} ')).toEqual({ value: { a: 1 } });
  });

  it('reads a fenced block', () => {
    expect(extractJson('Here you go:\n```json\n{"a": [1, 2]}\n```\nDone.')).toEqual({ value: { a: [1, 2] } });
  });

  it('finds the first balanced object in prose, braces inside strings included', () => {
    expect(extractJson('I think {"why": "set {A} ∩ {B} is \\"empty\\"", "n": {"k": 2}} is right')).toEqual({
      value: { why: 'set {A} ∩ {B} is "empty"', n: { k: 2 } },
    });
  });

  it('skips an unparseable brace group and takes the next object', () => {
    expect(extractJson('Using {x} we get {"answer": "FLG"}')).toEqual({ value: { answer: 'FLG' } });
  });

  it('ignores braces inside a <think> block', () => {
    expect(extractJson('<think>maybe {"answer": "wrong"}</think>{"answer": "right"}')).toEqual({ value: { answer: 'right' } });
  });

  it('returns null when there is no JSON', () => {
    expect(extractJson('The answer is FLG.')).toBeNull();
    expect(extractJson('{"unterminated": ')).toBeNull();
  });
});

describe('parseStructured', () => {
  const schema = z.object({ verdict: z.enum(['yes', 'no']) });

  it('validates against the schema', () => {
    expect(parseStructured('{"verdict": "no"}', schema)).toEqual({ ok: true, value: { verdict: 'no' } });
  });

  it('explains a schema violation', () => {
    const result = parseStructured('{"verdict": "maybe"}', schema);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/verdict/);
  });

  it('says when there is no JSON at all', () => {
    expect(parseStructured('no', schema)).toEqual({ ok: false, error: 'the reply contains no JSON object' });
  });
});
