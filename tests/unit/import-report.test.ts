import { describe, expect, it } from 'vitest';
import { formatProgress, table } from '../../lib/kg/import/report';

describe('import progress and summary formatting', () => {
  it('draws a bar from bytes read and a rate from lines', () => {
    const line = formatProgress({ phase: 'edges', file: 'e.sif.gz', lines: 500_000, bytesRead: 50, totalBytes: 100, done: false }, 5000);
    expect(line).toContain(`[${'#'.repeat(15)}${'-'.repeat(15)}]`);
    expect(line).toContain(' 50%');
    expect(line).toContain('500,000 lines');
    expect(line).toContain('100,000 lines/s');
  });

  it('names phases without a file size', () => {
    expect(formatProgress({ phase: 'indexes', file: '', lines: 0, bytesRead: 0, totalBytes: 0, done: true }, 10)).toBe('indexes ✓');
  });

  it('aligns table columns', () => {
    expect(
      table(
        ['metaedge', 'count'],
        [
          ['CtD', '755'],
          ['Gr>G', '265,672'],
        ],
        [false, true],
      ),
    ).toBe(['metaedge    count', '--------  -------', 'CtD           755', 'Gr>G      265,672'].join('\n'));
  });
});
