import { linksIn } from '../support/linked-reading';
import { afterEach, describe, expect, it } from 'vitest';
import { loadedMetagraph, setMetagraph } from '@/lib/kg/loaded-metagraph';
import type { MetaedgeRow } from '@/lib/kg/relations';
import { readQuestion, registerSense, senses, type SenseInput } from '@/lib/reading';

const MIGRAINE: [string, string, string] = ['migraine', 'Disease', 'Disease::DOID:6364'];
const hetionet = loadedMetagraph();
const rows = (): MetaedgeRow[] =>
  hetionet.metaedges.map((m) => ({ abbr: m.abbr, sourceKind: m.source, verb: m.verb, targetKind: m.target, directed: m.directed }));

let removers: (() => void)[] = [];
afterEach(() => {
  for (const remove of removers) remove();
  removers = [];
  setMetagraph(rows());
});

describe('the relation-sense registry', () => {
  it('reads every loaded Hetionet metaedge through a sense with a ReGraM category', () => {
    for (const m of hetionet.metaedges) {
      expect(m.sense, m.abbr).not.toBeNull();
      expect(m.category, m.abbr).not.toBeNull();
    }
    expect(new Set(senses().map((s) => s.id)).size).toBe(senses().length);
  });

  it('fails at load on an unknown metaedge, concept, category or duplicate id', () => {
    const base: SenseInput = {
      id: 'cure-lay',
      verbs: ['treats'],
      hetionet: ['CtD'],
      agent: ['compound'],
      active: 'cure {x}',
      passive: 'are cured by {x}',
      category: 'Treats',
      phrases: [],
    };
    expect(() => registerSense({ ...base, hetionet: ['CtX'] })).toThrow(/no Hetionet metaedge/);
    expect(() => registerSense({ ...base, hetionet: ['CpD'] })).toThrow(/none of its verbs/);
    expect(() => registerSense({ ...base, agent: ['drugs' as never] })).toThrow(/malformed/);
    expect(() => registerSense({ ...base, category: 'Heals' as never })).toThrow(/malformed/);
    expect(() => registerSense({ ...base, id: 'treat' })).toThrow(/registered twice/);
    expect(() => registerSense({ ...base, phrases: [{ text: 'Cures!', pos: 'verb' }] })).toThrow(/malformed/);
  });

  it('adds a relation sense over an existing metaedge with one record', () => {
    const text = 'Which compounds take the edge off migraine?';
    expect(readQuestion(text, { links: linksIn(text, [MIGRAINE]) }).anchors[0].cue).toBeNull();
    removers.push(
      registerSense(
        {
          id: 'soothe-lay',
          verbs: ['palliates'],
          hetionet: ['CpD'],
          agent: ['compound'],
          active: 'soothe {x}',
          passive: 'are soothed by {x}',
          category: 'Treats',
          phrases: [{ text: 'take edge off', pos: 'verb' }],
        },
        { before: 'palliate' },
      ),
    );
    setMetagraph(rows());
    const u = readQuestion(text, { links: linksIn(text, [MIGRAINE]) });
    expect(u.answerKind).toBe('Compound');
    expect(u.anchors[0].metaedges).toEqual(['CpD']);
    expect(u.anchors[0].cue).toBe('take the edge off');
    expect(loadedMetagraph().byAbbr.get('CpD')?.sense).toBe('soothe-lay');
  });

  it('adds a relation sense for a new metaedge, read in both directions and in nominal form', () => {
    removers.push(
      registerSense({
        id: 'prevent',
        verbs: ['prevents'],
        hetionet: [],
        agent: ['compound'],
        active: 'prevent {x}',
        passive: 'are prevented by {x}',
        category: 'Treats',
        phrases: [
          { text: 'prevent', pos: 'verb' },
          { text: 'prophylaxis', pos: 'noun' },
        ],
      }),
    );
    setMetagraph([...rows(), { abbr: 'CprD', sourceKind: 'Compound', verb: 'prevents', targetKind: 'Disease', directed: true }]);
    const forward = 'Which drugs prevent migraine?';
    const u = readQuestion(forward, { links: linksIn(forward, [MIGRAINE]) });
    expect(u.anchors[0].metaedges).toEqual(['CprD']);
    expect(u.anchors[0].chain[0].edges[0].fromEnd).toBe('target');
    const nominal = 'Name compounds used for the prevention of migraine.';
    expect(readQuestion(nominal, { links: linksIn(nominal, [MIGRAINE]) }).anchors[0].cue).toBe('prevention');
    const backward = 'Which diseases are prevented by aspirin?';
    const b = readQuestion(backward, { links: linksIn(backward, [['aspirin', 'Compound', 'Compound::DB00945']]) });
    expect(b.answerKind).toBe('Disease');
    expect(b.anchors[0].metaedges).toEqual(['CprD']);
    expect(b.anchors[0].chain[0].edges[0].fromEnd).toBe('source');
    expect(loadedMetagraph().byAbbr.get('CprD')?.targetClause).toBe('are prevented by {x}');
  });
});
