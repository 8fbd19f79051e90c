/**
 * Cuts a monitored reasoning stream into runs of text that share a source
 * (model-written or injected) and whether they fall in the highlighted monitor
 * window, so the view can mark both without ever treating the text as HTML. Pure.
 */
export interface StreamSegment {
  source: 'model' | 'injected';
  start: number;
  end: number;
}

export interface StreamPiece {
  start: number;
  end: number;
  text: string;
  source: 'model' | 'injected';
  inWindow: boolean;
}

export function streamPieces(text: string, segments: readonly StreamSegment[], window: { start: number; end: number } | null): StreamPiece[] {
  const cuts = new Set<number>([0, text.length]);
  for (const s of segments) {
    cuts.add(clamp(s.start, text.length));
    cuts.add(clamp(s.end, text.length));
  }
  if (window) {
    cuts.add(clamp(window.start, text.length));
    cuts.add(clamp(window.end, text.length));
  }
  const points = [...cuts].sort((a, b) => a - b);
  const pieces: StreamPiece[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const [start, end] = [points[i], points[i + 1]];
    if (end <= start) continue;
    // Text no segment covers counts as model-written: only the injector's splices are marked.
    const source = segments.find((s) => s.start <= start && end <= s.end)?.source ?? 'model';
    const inWindow = !!window && window.start <= start && end <= window.end;
    const last = pieces.at(-1);
    if (last && last.source === source && last.inWindow === inWindow && last.end === start) {
      last.end = end;
      last.text += text.slice(start, end);
    } else pieces.push({ start, end, text: text.slice(start, end), source, inWindow });
  }
  return pieces;
}

function clamp(v: number, max: number): number {
  return Math.max(0, Math.min(max, v));
}
