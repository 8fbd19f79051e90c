/** Splitting rows of the user-facing delimited formats: TSV (no quoting) and CSV (RFC 4180 quotes, one line per row). */
export type Delimiter = '\t' | ',';

/** By extension (.csv, .tsv, .txt, optionally .gz), else by whether the header has a tab. */
export function delimiterOf(file: string, header: string): Delimiter {
  const name = file.toLowerCase().replace(/\.gz$/, '');
  if (name.endsWith('.csv')) return ',';
  if (name.endsWith('.tsv') || name.endsWith('.txt')) return '\t';
  return header.includes('\t') ? '\t' : ',';
}

/** The cells of one row, or an error message when a CSV quote is not closed on its line. */
export function splitRow(line: string, delimiter: Delimiter): string[] | { error: string } {
  if (delimiter === '\t' || !line.includes('"')) return line.split(delimiter);
  const cells: string[] = [];
  let cell = '';
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      const close = closingQuote(line, i + 1);
      if (close < 0) return { error: 'unterminated quoted field' };
      cell = line.slice(i + 1, close).replace(/""/g, '"');
      i = close + 1;
      if (i < line.length && line[i] !== ',') return { error: `unexpected text after a quoted field at column ${i + 1}` };
    } else {
      const comma = line.indexOf(',', i);
      const end = comma < 0 ? line.length : comma;
      cell += line.slice(i, end);
      i = end;
    }
    cells.push(cell);
    cell = '';
    i++;
  }
  return cells;
}

function closingQuote(line: string, from: number): number {
  for (let i = from; i < line.length; i++) {
    if (line[i] !== '"') continue;
    if (line[i + 1] === '"') i++;
    else return i;
  }
  return -1;
}
