/** What an importer reports while it streams a file: enough for a bar and a rate. */
export interface ImportProgress {
  phase: string;
  file: string;
  lines: number;
  /** Bytes read from disk so far (compressed bytes for .gz) against the file size. */
  bytesRead: number;
  totalBytes: number;
  done: boolean;
}

export type ProgressListener = (p: ImportProgress) => void;

/** Calls `listener` at most every `intervalMs`, plus once when a phase is done, so hot loops stay cheap. */
export function throttled(listener: ProgressListener | undefined, intervalMs = 200): ProgressListener {
  if (!listener) return () => undefined;
  let last = 0;
  return (p) => {
    const now = Date.now();
    if (!p.done && now - last < intervalMs) return;
    last = now;
    listener(p);
  };
}
