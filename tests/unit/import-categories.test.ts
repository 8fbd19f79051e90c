import { describe, expect, it } from 'vitest';
import { RELATION_CATEGORIES, RELATION_DOMAINS, RELATION_WEIGHTS, categoryWeight } from '../../lib/kg/metaedge-categories';
import { readMetagraph as readMetagraphFile } from '../../lib/kg/import/metagraph';
import { PRIMEKG_RELATIONS } from '../../lib/kg/import/primekg-synth';
import { PRIMEKG_KINDS } from '../../lib/kg/import/primekg';
import { DEMO_FILES } from '../../lib/kg/demo/files';
import { categoryOf, readMetaedge, readMetagraph, type MetaedgeRow } from '../../lib/kg/relations';

const hetionet = [...readMetagraphFile(DEMO_FILES.metagraphFile).metaedges.values()];
const byAbbr = new Map(hetionet.map((m) => [m.abbr, m]));

/** PrimeKG's relations as its importer stores them: kinds in name order, the display relation as the verb. */
const primekg: MetaedgeRow[] = PRIMEKG_RELATIONS.map(([relation, display, x, y]) => {
  const [a, b] = [PRIMEKG_KINDS[x][0], PRIMEKG_KINDS[y][0]].sort();
  return { abbr: `${relation}:${display.replace(/\s+/g, '_')}`, sourceKind: a, verb: display, targetKind: b, directed: false };
});

describe('ReGraM relation categories (METHODS.md §3)', () => {
  it('weights every category in every domain', () => {
    for (const c of RELATION_CATEGORIES) expect(Object.keys(RELATION_WEIGHTS[c]).sort()).toEqual([...RELATION_DOMAINS].sort());
  });

  it("reads every Hetionet metaedge's category from its verb", () => {
    const category = (abbr: string) => categoryOf(byAbbr.get(abbr)!);
    expect(hetionet.filter((m) => !categoryOf(m)).map((m) => m.abbr)).toEqual([]);
    expect(category('CtD')).toBe('Treats');
    expect(category('CpD')).toBe('Treats');
    expect(category('Gr>G')).toBe('Regulates');
    expect(category('PCiC')).toBe('Associated_with');
    expect(category('GpPW')).toBe('Occurs_in');
    expect(category('AeG')).toBe('Expressed_in');
    expect(categoryWeight(category('GiG'), 'GENE_PROTEIN')).toBe(1.5);
    expect(categoryWeight(category('CbG'), 'DRUG_THERAPY')).toBe(1.5);
    expect(categoryWeight(category('CcSE'), 'DISEASE_SYMPTOM')).toBe(1.5);
    expect(categoryWeight(category('AeG'), 'DISEASE_SYMPTOM')).toBe(0.5);
  });

  it("reads PrimeKG's display relations into the same categories, and leaves the ones the table lacks neutral", () => {
    const category = (abbr: string) => categoryOf(primekg.find((m) => m.abbr === abbr)!);
    expect(category('indication:indication')).toBe('Treats');
    expect(category('off-label use:off-label_use')).toBe('Treats');
    expect(category('drug_protein:target')).toBe('Targets');
    expect(category('drug_effect:side_effect')).toBe('Causes');
    expect(category('anatomy_protein_present:expression_present')).toBe('Expressed_in');
    expect(category('pathway_protein:interacts_with')).toBe('Occurs_in');
    expect(category('protein_protein:ppi')).toBe('Interacts_with');
    expect(category('disease_protein:associated_with')).toBe('Associated_with');
    // A contraindication is no treatment; absent expression is no expression.
    expect(category('contraindication:contraindication')).toBeNull();
    expect(category('anatomy_protein_absent:expression_absent')).toBeNull();
    expect(categoryWeight(null, 'DRUG_THERAPY')).toBe(1);
  });
});

describe('metaedge readings', () => {
  it("say Hetionet's relations from either end", () => {
    const ctd = readMetaedge(byAbbr.get('CtD')!);
    expect([ctd.sourceClause, ctd.targetClause, ctd.forward, ctd.backward]).toEqual(['treat {x}', 'are treated by {x}', 'treats', 'is treated by']);
    expect(readMetaedge(byAbbr.get('DuG')!).targetClause).toBe('are upregulated in {x}');
    expect(readMetaedge(byAbbr.get('CuG')!).targetClause).toBe('are upregulated by {x}');
    expect(readMetaedge(byAbbr.get('GpPW')!).targetClause).toBe('contain {x}');
    expect(readMetaedge(byAbbr.get('GpBP')!).targetClause).toBe('involve {x}');
  });

  it("say PrimeKG's from the right end when its stored direction puts the drug second", () => {
    const indication = readMetaedge(primekg.find((m) => m.abbr === 'indication:indication')!);
    expect([indication.source, indication.target]).toEqual(['Disease', 'Drug']);
    expect([indication.sourceClause, indication.targetClause]).toEqual(['are treated by {x}', 'treat {x}']);
    const bp = readMetaedge(primekg.find((m) => m.abbr === 'bioprocess_protein:interacts_with')!);
    expect([bp.source, bp.sourceClause, bp.targetClause]).toEqual(['Biological Process', 'involve {x}', 'participate in {x}']);
  });

  it('lists metaedges between the same kinds in the preferred reading order', () => {
    const order = readMetagraph(hetionet).map((m) => m.abbr);
    const between = (a: string, b: string) =>
      order.filter((abbr) => {
        const m = byAbbr.get(abbr)!;
        return [m.sourceKind, m.targetKind].sort().join() === [a, b].sort().join();
      });
    expect(between('Disease', 'Gene')).toEqual(['DaG', 'DuG', 'DdG']);
    expect(between('Compound', 'Gene')).toEqual(['CbG', 'CuG', 'CdG']);
    expect(between('Anatomy', 'Gene')).toEqual(['AeG', 'AuG', 'AdG']);
    expect(between('Gene', 'Gene')).toEqual(['GiG', 'GcG', 'Gr>G']);
    expect(between('Compound', 'Disease')).toEqual(['CtD', 'CpD']);
  });
});
