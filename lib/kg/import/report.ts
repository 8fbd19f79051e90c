import type { ImportProgress } from './progress';
import type { GraphImportSummary } from './graph-writer';

const BAR_WIDTH = 30;

/**
 * Renders importer progress for a terminal: a bar redrawn in place on a TTY,
 * otherwise (CI logs, pipes) a plain line every few seconds and at each phase end.
 */
export function progressPrinter(stream: NodeJS.WriteStream, opts: { lineIntervalMs?: number } = {}) {
  const tty = stream.isTTY === true;
  const lineIntervalMs = opts.lineIntervalMs ?? 5000;
  let phaseStarted = Date.now();
  let phase = '';
  let lastLine = 0;
  let barShown = false;

  return {
    update(p: ImportProgress) {
      if (p.phase !== phase) {
        phase = p.phase;
        phaseStarted = Date.now();
      }
      const text = formatProgress(p, Date.now() - phaseStarted);
      if (tty) {
        stream.write(`\r\x1b[2K${text}${p.done ? '\n' : ''}`);
        barShown = !p.done;
      } else if (p.done || Date.now() - lastLine >= lineIntervalMs) {
        stream.write(`${text}\n`);
        lastLine = Date.now();
      }
    },
    /** Ends a bar left mid-line (an import that failed part way). */
    close() {
      if (barShown) stream.write('\n');
      barShown = false;
    },
  };
}

export function formatProgress(p: ImportProgress, elapsedMs: number): string {
  if (!p.totalBytes) return `${p.phase}${p.lines ? `: ${p.lines.toLocaleString('en')}` : ''}${p.done ? ' ✓' : '…'}`;
  const fraction = p.done ? 1 : Math.min(1, p.bytesRead / p.totalBytes);
  const filled = Math.round(fraction * BAR_WIDTH);
  // A rate over the first instants of a phase is noise.
  const rate = elapsedMs >= 500 ? `  ${Math.round((p.lines / elapsedMs) * 1000).toLocaleString('en')} lines/s` : '';
  return `${p.phase.padEnd(16)} [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${String(Math.round(fraction * 100)).padStart(3)}%  ${p.lines.toLocaleString('en')} lines${rate}`;
}

/** The closing table of a graph import: edges per metaedge, then totals, time and rate. */
export function graphSummaryTable(s: GraphImportSummary, descriptions: Map<string, string> = new Map()): string {
  const rows = Object.entries(s.metaedgeCounts).map(([abbr, n]) => [abbr, descriptions.get(abbr) ?? '', n.toLocaleString('en')]);
  rows.push(['', '', ''], ['nodes', '', s.nodeCount.toLocaleString('en')], ['edges', '', s.edgeCount.toLocaleString('en')]);
  rows.push(['time', '', `${(s.durationMs / 1000).toFixed(1)} s`], ['rate', '', `${s.edgesPerSecond.toLocaleString('en')} edges/s`]);
  return table(['metaedge', 'meaning', 'count'], rows, [false, false, true]);
}

/** A plain text table; `right` marks right-aligned (numeric) columns. */
export function table(header: string[], rows: string[][], right: boolean[] = []): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (right[i] ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
