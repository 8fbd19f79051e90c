import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { abbreviateKind, describeMetaedge, readMetagraph } from '../../lib/kg/import/metagraph';
import { DEMO_FILES } from '../../lib/kg/demo/files';

const TSV = path.resolve('tests/fixtures/import/metagraph-tsv/metaedges.tsv');

describe('readMetagraph', () => {
  const fromJson = readMetagraph(DEMO_FILES.metagraphFile);

  it('derives the official abbreviations from the metagraph JSON, with an arrow for the directed one', () => {
    expect(fromJson.kinds.size).toBe(11);
    expect(fromJson.metaedges.size).toBe(24);
    expect(fromJson.metaedges.get('Gr>G')).toEqual({ abbr: 'Gr>G', sourceKind: 'Gene', verb: 'regulates', targetKind: 'Gene', directed: true });
    expect(fromJson.metaedges.get('PCiC')).toMatchObject({ sourceKind: 'Pharmacologic Class', targetKind: 'Compound', directed: false });
    expect(fromJson.kinds.get('Side Effect')).toBe('SE');
  });

  it('reads the same metagraph from metaedges.tsv and metanodes.tsv', () => {
    const fromTsv = readMetagraph(TSV);
    expect(fromTsv.metaedges).toEqual(fromJson.metaedges);
    expect(fromTsv.kinds).toEqual(fromJson.kinds);
  });
});

describe('describeMetaedge', () => {
  it('uses dashes for undirected and arrows for directed metaedges', () => {
    expect(describeMetaedge({ abbr: 'CtD', sourceKind: 'Compound', verb: 'treats', targetKind: 'Disease', directed: false })).toBe(
      'Compound – treats – Disease',
    );
    expect(describeMetaedge({ abbr: 'Gr>G', sourceKind: 'Gene', verb: 'regulates', targetKind: 'Gene', directed: true })).toBe('Gene → regulates → Gene');
  });

  it('abbreviates kinds by initials', () => {
    expect(abbreviateKind('Side Effect')).toBe('SE');
    expect(abbreviateKind('protein')).toBe('P');
  });
});
