import { describe, expect, it } from 'vitest';
import { delimiterOf, splitRow } from '../../lib/kg/import/delimited';

describe('splitRow', () => {
  it('splits TSV on tabs and keeps quotes as text', () => {
    expect(splitRow('a\t"b"\t', '\t')).toEqual(['a', '"b"', '']);
  });

  it('reads RFC 4180 quoting in CSV', () => {
    expect(splitRow('"ibuprofen, racemic",inhibits,COX-2', ',')).toEqual(['ibuprofen, racemic', 'inhibits', 'COX-2']);
    expect(splitRow('"the ""statin"" class",includes,', ',')).toEqual(['the "statin" class', 'includes', '']);
    expect(splitRow('a,,b', ',')).toEqual(['a', '', 'b']);
  });

  it('reports an unterminated quote or text after a closing quote', () => {
    expect(splitRow('"aspirin,inhibits,COX-1', ',')).toEqual({ error: 'unterminated quoted field' });
    expect(splitRow('"aspirin"x,inhibits', ',')).toHaveProperty('error');
  });
});

describe('delimiterOf', () => {
  it('goes by extension, then by the header', () => {
    expect(delimiterOf('graph.csv', 'a\tb')).toBe(',');
    expect(delimiterOf('graph.tsv.gz', 'a,b')).toBe('\t');
    expect(delimiterOf('graph', 'head\trelation\ttail')).toBe('\t');
    expect(delimiterOf('graph', 'head,relation,tail')).toBe(',');
  });
});
