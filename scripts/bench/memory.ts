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
}

const MB = 2 ** 20;
const ARENA_ALIGN = 64 * MB;

export function memoryBreakdown(): MemoryBreakdown {
  const m = process.memoryUsage();
  const node = { rss: m.rss / MB, heapUsed: m.heapUsed / MB, heapTotal: m.heapTotal / MB, external: m.external / MB, arrayBuffers: m.arrayBuffers / MB };
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
 * Memory as the process retains it: after a full collection that also compacts V8's heap (a plain one leaves the
 * pages a window's garbage spread over committed, as many as that window's peak needed), once V8's background
 * threads have given the freed pages back (RSS still for half a second, at most 5 s).
 */
export async function retainedMemory(): Promise<MemoryBreakdown> {
  v8.setFlagsFromString('--compact-on-every-full-gc');
  try {
    collectGarbage();
  } finally {
    v8.setFlagsFromString('--no-compact-on-every-full-gc');
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
