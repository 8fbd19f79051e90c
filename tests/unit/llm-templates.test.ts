import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTemplate, getTemplate, judgeTemplate, listTemplates, monitorTemplate } from '../../lib/llm/templates';

describe('role templates', () => {
  it('appends the JSON instruction and schema to structured prompts', () => {
    const prompt = monitorTemplate.render({ question: 'Q?', window: 'theta = 2 N mu' });
    expect(prompt).toContain('theta = 2 N mu');
    expect(prompt).toContain('Answer in JSON matching this schema');
    expect(prompt).toContain(JSON.stringify(monitorTemplate.jsonSchema));
    expect(monitorTemplate.jsonSchema).toMatchObject({ type: 'object', required: ['needsRetrieval', 'reason'] });
    expect(monitorTemplate.jsonSchema).not.toHaveProperty('$schema');
  });

  it('leaves free-text prompts alone', () => {
    const template = defineTemplate({ role: 'generate', id: 'test.free', version: 1, system: 's', render: (i: { q: string }) => `Q: ${i.q}`, output: null });
    expect(template.render({ q: 'why?' })).toBe('Q: why?');
    expect(template.jsonSchema).toBeNull();
  });

  it('registers templates by id', () => {
    expect(getTemplate('generic.judge')).toBe(judgeTemplate);
    expect(getTemplate('nope')).toBeUndefined();
    const ids = listTemplates().map((t) => t.id);
    expect(ids).toEqual(expect.arrayContaining(['generic.judge', 'generic.monitor', 'generic.recall', 'generic.generate']));
    expect(ids).toEqual([...ids].sort());
  });

  it('refuses a second, different template under an existing id', () => {
    const spec = { role: 'check' as const, id: 'test.dup', version: 1, system: 'one', render: () => 'x', output: z.object({ ok: z.boolean() }) };
    defineTemplate(spec);
    expect(() => defineTemplate(spec)).not.toThrow();
    expect(() => defineTemplate({ ...spec, version: 2 })).toThrow(/already defined/);
  });

  it('validates generic outputs with their schemas', () => {
    expect(judgeTemplate.outputSchema?.safeParse({ verdict: 'yes', reason: 'r' }).success).toBe(true);
    expect(judgeTemplate.outputSchema?.safeParse({ verdict: 'perhaps', reason: 'r' }).success).toBe(false);
  });
});
