import { describe, expect, it } from 'vitest';
import {
  encodeNodeIdSegment,
  expansionQueryString,
  filterFromSearchParams,
  MAX_EXPANSIONS,
  parseExpansion,
  kgNodeHref,
  parseNeighbourhoodFilter,
  sameFilter,
} from '@/components/kg/paths';

describe('KG browser URLs', () => {
  it('keeps colons readable and encodes the rest', () => {
    expect(encodeNodeIdSegment('Disease::DOID:2377')).toBe('Disease::DOID:2377');
    expect(encodeNodeIdSegment('Side Effect::C0026769')).toBe('Side%20Effect::C0026769');
    expect(encodeNodeIdSegment('Gene::a/b?c#d')).toBe('Gene::a%2Fb%3Fc%23d');
    expect(decodeURIComponent(encodeNodeIdSegment('Pharmacologic Class::N0000175'))).toBe('Pharmacologic Class::N0000175');
  });

  it('puts the neighbourhood filter in the query string', () => {
    expect(kgNodeHref('Gene::3569')).toBe('/kg/Gene::3569');
    expect(kgNodeHref('Disease::DOID:2377', { metaedge: 'DaG', direction: 'out' })).toBe('/kg/Disease::DOID:2377?metaedge=DaG&direction=out');
    expect(kgNodeHref('Gene::1', { metaedge: 'Gr>G', direction: null })).toBe('/kg/Gene::1?metaedge=Gr%3EG');
    expect(kgNodeHref('Gene::1', { metaedge: null, direction: 'in' })).toBe('/kg/Gene::1');
  });

  it('reads the filter back and ignores invalid values', () => {
    expect(parseNeighbourhoodFilter(new URLSearchParams('metaedge=CtD&direction=in'))).toEqual({ metaedge: 'CtD', direction: 'in' });
    expect(parseNeighbourhoodFilter(new URLSearchParams('metaedge=Gr%3EG'))).toEqual({ metaedge: 'Gr>G', direction: null });
    expect(parseNeighbourhoodFilter(new URLSearchParams('metaedge=x;drop&direction=in'))).toEqual({ metaedge: null, direction: null });
    expect(parseNeighbourhoodFilter(new URLSearchParams('metaedge=DaG&direction=sideways'))).toEqual({ metaedge: 'DaG', direction: null });
    expect(parseNeighbourhoodFilter(new URLSearchParams(''))).toEqual({ metaedge: null, direction: null });
    expect(filterFromSearchParams({ metaedge: ['DaG', 'CtD'], direction: 'out' })).toEqual({ metaedge: 'DaG', direction: 'out' });
    expect(sameFilter({ metaedge: 'DaG', direction: 'out' }, { metaedge: 'DaG', direction: 'out' })).toBe(true);
  });

  it('keeps expanded nodes and the selection in the query string, next to the filter, and drops what cannot be a node id', () => {
    const qs = expansionQueryString({ ids: ['Compound::DB00331', 'Gene::3569'], selected: 'Gene::3569' }, '?metaedge=CtD&direction=in');
    const params = new URLSearchParams(qs);
    expect(params.get('metaedge')).toBe('CtD');
    expect(parseExpansion(params)).toEqual({ ids: ['Compound::DB00331', 'Gene::3569'], selected: 'Gene::3569' });
    expect(parseExpansion(new URLSearchParams('expand=nonsense&expand=Gene::1&expand=Gene::1&node=<script>'))).toEqual({ ids: ['Gene::1'], selected: null });
    const many = new URLSearchParams(Array.from({ length: MAX_EXPANSIONS + 5 }, (_, i) => `expand=Gene::${i}`).join('&'));
    expect(parseExpansion(many).ids).toHaveLength(MAX_EXPANSIONS);
    expect(expansionQueryString({ ids: [], selected: null }, '?expand=Gene::1&node=Gene::1')).toBe('');
  });
});
