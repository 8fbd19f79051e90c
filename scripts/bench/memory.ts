import { readFileSync } from 'node:fs';
import v8 from 'node:v8';
import { collectGarbage } from './timing';

/** Where this process's resident memory lies, in MB (Linux: /proc/self/smaps; elsewhere only what Node reports). */
export interface MemoryBreakdown {
  rss: number;
  heapUsed: number;
  /** What V8 holds from the system for its heap, used or not. */
  heapTotal: number;
  /** C++ objects bound to JS ones, Buffers and ArrayBuffers included (Node's `external`). */
  external: number;
  arrayBuffers: number;
  /** glibc's main malloc arena (the brk heap). */
  mainArena: number | null;
  /** glibc's other arenas, one per thread that mallocs (up to 8 per core): 64 MB-aligned mappings. */
  threadArenas: number | null;
  threadArenaCount: number | null;
  /** Other anonymous memory: V8's heap pages, thread stacks, malloc's own mappings of large blocks. */
  otherAnonymous: number | null;
  /** V8's heap by space (old, new, large objects, code…): committed (`size`) and live (`used`). */
  spaces: Record<string, { size: number; used: number }>;
}

const MB = 2 ** 20;
const ARENA_ALIGN = 64 * MB;

export function memoryBreakdown(): MemoryBreakdown {
  const m = process.memoryUsage();
  const spaces = Object.fromEntries(
    v8.getHeapSpaceStatistics().map((s) => [s.space_name.replace(/_space$/, ''), { size: s.space_size / MB, used: s.space_used_size / MB }]),
  );
  const node = {
    rss: m.rss / MB,
    heapUsed: m.heapUsed / MB,
    heapTotal: m.heapTotal / MB,
    external: m.external / MB,
    arrayBuffers: m.arrayBuffers / MB,
    spaces,
  };
  let smaps: string;
  try {
    smaps = readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return { ...node, mainArena: null, threadArenas: null, threadArenaCount: null, otherAnonymous: null };
  }
  let mainArena = 0;
  let threadArenas = 0;
  let threadArenaCount = 0;
  let otherAnonymous = 0;
  let kind: 'main' | 'thread' | 'anonymous' | null = null;
  for (const line of smaps.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const start = parseInt(head[1], 16);
      const anonymous = head[4] === '';
      // A glibc heap of a thread arena starts on a 64 MB boundary, readable and writable, its unused tail reserved.
      kind = head[4] === '[heap]' ? 'main' : !anonymous ? null : head[3].startsWith('rw') && start % ARENA_ALIGN === 0 ? 'thread' : 'anonymous';
      if (kind === 'thread') threadArenaCount++;
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && kind) {
      const mb = Number(rss[1]) / 1024;
      if (kind === 'main') mainArena += mb;
      else if (kind === 'thread') threadArenas += mb;
      else otherAnonymous += mb;
    }
  }
  return { ...node, mainArena, threadArenas, threadArenaCount, otherAnonymous };
}

/**
 * Memory after a full collection that leaves V8's heap uncompacted (`compact` false: the pages a window's garbage was
 * spread over stay committed while any live object remains on them) or compacts it too, read once V8's background
 * threads have handed the freed pages back (RSS still for half a second, at most 5 s; right after the collection RSS
 * still counts up to ~200 MB of pages about to be unmapped).
 */
export async function memoryAfterCollection(compact: boolean): Promise<MemoryBreakdown> {
  if (compact) v8.setFlagsFromString('--compact-on-every-full-gc');
  try {
    collectGarbage();
  } finally {
    if (compact) v8.setFlagsFromString('--no-compact-on-every-full-gc');
  }
  let last = process.memoryUsage.rss();
  for (let waited = 0; waited < 5_000; waited += 250) {
    await new Promise((r) => setTimeout(r, 250));
    const now = process.memoryUsage.rss();
    if (Math.abs(now - last) < MB && waited >= 500) break;
    last = now;
  }
  return memoryBreakdown();
}

/** The largest RSS and V8 heap (committed) seen from now until `stop`, read every 100 ms: nothing forced. */
export function samplePeakMemory(): { stop(): { rss: number; heapTotal: number } } {
  const peak = { rss: 0, heapTotal: 0 };
  const read = () => {
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss / MB);
    peak.heapTotal = Math.max(peak.heapTotal, m.heapTotal / MB);
  };
  const timer = setInterval(read, 100);
  return {
    stop() {
      clearInterval(timer);
      read();
      return peak;
    },
  };
}
