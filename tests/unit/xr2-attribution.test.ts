import { describe, expect, it } from 'vitest';
import { parseSwitchSpec } from '@/lib/channels/switches';
import { attribute, configOf, type AttributionRun } from '@/lib/methods/xr2/attribution';

const run = (id: string, spec: string, correct: boolean | null, kgShuffle?: unknown): AttributionRun => ({
  id,
  switches: parseSwitchSpec(spec),
  correct,
  kgShuffle,
});

describe('X-R2 attribution buckets', () => {
  it('names each configuration by its switches, and leaves others (two off, shuffled KG) out', () => {
    expect(configOf(run('a', 'full', true))).toBe('full');
    expect(configOf(run('b', 'kg=0', true))).toBe('kg-off');
    expect(configOf(run('c', 'entity=0', true))).toBe('entity-off');
    expect(configOf(run('d', 'param=0', true))).toBe('param-off');
    expect(configOf(run('e', 'doc-only', true))).toBe('doc-only');
    expect(configOf(run('f', 'kg=0,param=0', true))).toBeNull();
    expect(configOf(run('g', 'web=0', true))).toBeNull();
    expect(configOf(run('h', 'full', true, { seed: 17 }))).toBeNull();
  });

  it('needs-KG when full is right and kg off is wrong, before entity and param', () => {
    const label = attribute([run('full', 'full', true), run('p', 'param=0', false), run('e', 'entity=0', false), run('k', 'kg=0', false)]);
    expect(label).toMatchObject({ bucket: 'needs-KG', runIds: ['full', 'k'] });
  });

  it('needs-Entity before needs-Parametric when kg off is still right', () => {
    const label = attribute([run('full', 'full', true), run('k', 'kg=0', true), run('e', 'entity=0', false), run('p', 'param=0', false)]);
    expect(label).toMatchObject({ bucket: 'needs-Entity', runIds: ['full', 'e'] });
  });

  it('needs-Parametric when only param off is wrong', () => {
    const label = attribute([run('full', 'full', true), run('k', 'kg=0', true), run('e', 'entity=0', true), run('p', 'param=0', false)]);
    expect(label).toMatchObject({ bucket: 'needs-Parametric', runIds: ['full', 'p'] });
  });

  it('doc-sufficient when the doc-only run is right and no channel is needed', () => {
    const label = attribute([run('full', 'full', true), run('k', 'kg=0', true), run('d', 'doc-only', true)]);
    expect(label).toMatchObject({ bucket: 'doc-sufficient', runIds: ['d'] });
  });

  it('doc-sufficient even when the full run is wrong', () => {
    expect(attribute([run('full', 'full', false), run('d', 'doc-only', true)]).bucket).toBe('doc-sufficient');
  });

  it('unresolved otherwise, with every run behind it and why', () => {
    const wrong = attribute([run('full', 'full', false), run('k', 'kg=0', false), run('d', 'doc-only', false)]);
    expect(wrong).toMatchObject({ bucket: 'unresolved', reason: 'the full run is not correct (wrong or abstained) and no doc-only run is correct' });
    expect(wrong.runIds.sort()).toEqual(['d', 'full', 'k']);
    expect(attribute([run('k', 'kg=0', false)]).reason).toBe('no full run');
    // An unscored run decides nothing: kg off unscored is not "wrong".
    expect(attribute([run('full', 'full', true), run('k', 'kg=0', null)]).bucket).toBe('unresolved');
    expect(attribute([run('full', 'full', null), run('k', 'kg=0', false)]).reason).toBe('the full run is not scored');
  });

  it('takes the last run of a configuration that was run twice, and ignores shuffled-KG controls', () => {
    const label = attribute([run('full', 'full', true), run('k1', 'kg=0', true), run('k2', 'kg=0', false), run('s', 'kg=0', true, { seed: 3 })]);
    expect(label).toMatchObject({ bucket: 'needs-KG', runIds: ['full', 'k2'] });
    expect(label.configs['kg-off']).toEqual({ id: 'k2', correct: false });
  });
});
