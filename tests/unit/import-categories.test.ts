import { describe, expect, it } from 'vitest';
import {
  METAEDGE_CATEGORIES,
  RELATION_CATEGORIES,
  RELATION_DOMAINS,
  RELATION_WEIGHTS,
  categoryOf,
  relationWeight,
} from '../../lib/kg/metaedge-categories';
import { readMetagraph } from '../../lib/kg/import/metagraph';
import { DEMO_FILES } from '../../lib/kg/demo/files';

describe('ReGraM relation categories (METHODS.md §3)', () => {
  it('puts every Hetionet metaedge in exactly one category', () => {
    const hetionet = [...readMetagraph(DEMO_FILES.metagraphFile).metaedges.keys()].sort();
    expect(Object.keys(METAEDGE_CATEGORIES).sort()).toEqual(hetionet);
  });

  it('weights every category in every domain', () => {
    for (const c of RELATION_CATEGORIES) expect(Object.keys(RELATION_WEIGHTS[c]).sort()).toEqual([...RELATION_DOMAINS].sort());
  });

  it('encodes the table', () => {
    expect(categoryOf('CtD')).toBe('Treats');
    expect(categoryOf('Gr>G')).toBe('Regulates');
    expect(categoryOf('PCiC')).toBe('Associated_with');
    expect(relationWeight('GiG', 'GENE_PROTEIN')).toBe(1.5);
    expect(relationWeight('CbG', 'DRUG_THERAPY')).toBe(1.5);
    expect(relationWeight('CcSE', 'DISEASE_SYMPTOM')).toBe(1.5);
    expect(relationWeight('GpPW', 'PATHWAY_METABOLISM')).toBe(1.2);
    expect(relationWeight('AeG', 'DISEASE_SYMPTOM')).toBe(0.5);
    expect(relationWeight('DuG', 'INTEGRATED')).toBe(1.3);
  });

  it('leaves relations outside Hetionet uncategorised and neutral', () => {
    expect(categoryOf('inhibits')).toBeNull();
    expect(categoryOf('toString')).toBeNull();
    expect(relationWeight('inhibits', 'DRUG_THERAPY')).toBe(1);
  });
});
