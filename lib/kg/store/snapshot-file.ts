import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { z } from 'zod';
import { PROJECT_ROOT } from '@/lib/config';

/** A metaedge in use, with what the metagraph says of it (nothing when it has no metaedges row). */
export interface MetaedgeRow {
  abbr: string;
  directed: boolean | null;
  source_kind: string | null;
  target_kind: string | null;
}

/** What a snapshot is built from: nodes in id order, metaedges in name order, edges in id order. */
export interface SnapshotParts {
  nodeIds: string[];
  nodeNames: string[];
  /** Index into `kinds`. */
  nodeKind: Uint16Array;
  kinds: string[];
  metaedges: MetaedgeRow[];
  edgeId: Int32Array;
  /** Node positions. */
  edgeSource: Int32Array;
  edgeTarget: Int32Array;
  /** Metaedge positions. */
  edgeMeta: Uint16Array;
  /** The indexes derived from the edges (./snapshot snapshotIndexes), saved with them so a process reads them instead of deriving them again. */
  indexes?: SnapshotIndexes;
}

/** Each node's incident edges (positions incStart[v] … incStart[v + 1]) and each metaedge's edges, in edge id order. */
export interface SnapshotIndexes {
  incStart: Int32Array;
  incEdge: Int32Array;
  incNeighbor: Int32Array;
  incMeta: Uint16Array;
  metaStart: Int32Array;
  metaEdges: Int32Array;
}

/**
 * Saved snapshots: a large graph's parts written to a file after a load from
 * PostgreSQL, so that the next process (a restarted server, a worker) reads
 * them back in well under a second instead of querying millions of edges.
 * The file is named by the database and the graph's signature, so an import
 * (or any change of the edges' id range) makes the next load go to PostgreSQL
 * and write a new one; older files of the same database are removed then.
 */
const DIR = path.join(PROJECT_ROOT, '.data', 'snapshots');
/** Version 2 holds the derived indexes too; a version 1 file is not read (the next load writes a version 2 one). */
const MAGIC = 'HOPSNAP2';
/** Files kept at most, across databases (scratch databases leave theirs behind). */
const KEEP_FILES = 4;

/** The file for this database (server, name and oid, so a recreated database never reads another's) and signature. */
export async function savedSnapshotFile(client: pg.PoolClient, signature: string): Promise<string> {
  const { rows } = await client.query(
    `select concat_ws(':', inet_server_addr(), inet_server_port(), current_database(), (select oid from pg_database where datname = current_database())) as db`,
  );
  const digest = (s: string) => crypto.createHash('sha256').update(s).digest('hex').slice(0, 16);
  return path.join(DIR, `${digest(z.object({ db: z.string() }).parse(rows[0]).db)}-${digest(signature)}.snapshot`);
}

/**
 * The saved parts, or null when there is no such file or it cannot be read (it is then ignored, not trusted).
 * Each array is read from the file straight into its own buffer (on libuv's threads), so the 54 MB of a
 * Hetionet snapshot is neither copied on the event loop nor held twice.
 */
export async function readSavedSnapshot(file: string): Promise<SnapshotParts | null> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch {
    return null;
  }
  try {
    const size = (await handle.stat()).size;
    let at = 0;
    const read = async <T extends Uint8Array | Int32Array | Uint16Array>(array: T): Promise<T> => {
      if (at + array.byteLength > size) throw new Error('short file');
      const view = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
      for (let done = 0; done < view.length;) {
        const { bytesRead } = await handle.read(view, done, view.length - done, at + done);
        if (!bytesRead) throw new Error('short file');
        done += bytesRead;
      }
      at += array.byteLength;
      return array;
    };
    const prefix = Buffer.from(await read(new Uint8Array(MAGIC.length + 4)));
    if (prefix.toString('latin1', 0, MAGIC.length) !== MAGIC) return null;
    const headerBytes = Buffer.from(await read(new Uint8Array(prefix.readUInt32LE(MAGIC.length))));
    const header = JSON.parse(headerBytes.toString('utf8')) as Omit<
      SnapshotParts,
      'nodeKind' | 'edgeId' | 'edgeSource' | 'edgeTarget' | 'edgeMeta' | 'indexes'
    > & {
      edgeCount: number;
      indexed: boolean;
    };
    const e = header.edgeCount;
    const n = header.nodeIds.length;
    const m = header.metaedges.length;
    // In the order saveSnapshot writes them.
    const parts: SnapshotParts = {
      nodeIds: header.nodeIds,
      nodeNames: header.nodeNames,
      kinds: header.kinds,
      metaedges: header.metaedges,
      edgeId: await read(new Int32Array(e)),
      edgeSource: await read(new Int32Array(e)),
      edgeTarget: await read(new Int32Array(e)),
      edgeMeta: await read(new Uint16Array(e)),
      nodeKind: await read(new Uint16Array(n)),
    };
    if (header.indexed) {
      parts.indexes = {
        incStart: await read(new Int32Array(n + 1)),
        incEdge: await read(new Int32Array(2 * e)),
        incNeighbor: await read(new Int32Array(2 * e)),
        incMeta: await read(new Uint16Array(2 * e)),
        metaStart: await read(new Int32Array(m + 1)),
        metaEdges: await read(new Int32Array(e)),
      };
    }
    return at === size ? parts : null;
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

/** Writes the parts (to a temporary name, then renamed, so a reader never sees half a file); a failure only costs the next load its speed. */
export async function saveSnapshot(file: string, parts: SnapshotParts): Promise<void> {
  const { nodeIds, nodeNames, kinds, metaedges } = parts;
  const { indexes } = parts;
  const header = Buffer.from(JSON.stringify({ nodeIds, nodeNames, kinds, metaedges, edgeCount: parts.edgeId.length, indexed: !!indexes }), 'utf8');
  const prefix = Buffer.alloc(MAGIC.length + 4);
  prefix.write(MAGIC, 'latin1');
  prefix.writeUInt32LE(header.length, MAGIC.length);
  const arrays = [
    parts.edgeId,
    parts.edgeSource,
    parts.edgeTarget,
    parts.edgeMeta,
    parts.nodeKind,
    ...(indexes ? [indexes.incStart, indexes.incEdge, indexes.incNeighbor, indexes.incMeta, indexes.metaStart, indexes.metaEdges] : []),
  ].map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength));
  const partial = `${file}.${process.pid}.partial`;
  try {
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    await fs.promises.writeFile(partial, Buffer.concat([prefix, header, ...arrays]));
    await fs.promises.rename(partial, file);
    await prune(file);
  } catch (e) {
    await fs.promises.rm(partial, { force: true });
    console.warn(`[kg] could not save the graph snapshot (${(e as Error).message}); the next start loads it from PostgreSQL`);
  }
}

/** Removes the database's older files beside it and, beyond KEEP_FILES, the oldest of any. */
async function prune(kept: string) {
  const dir = path.dirname(kept);
  const database = path.basename(kept).split('-')[0];
  const files = (await fs.promises.readdir(dir)).filter((f) => f.endsWith('.snapshot')).map((f) => path.join(dir, f));
  const stale = files.filter((f) => f !== kept && path.basename(f).startsWith(`${database}-`));
  const others = files.filter((f) => f !== kept && !stale.includes(f));
  const byAge = (await Promise.all(others.map(async (f) => ({ f, t: (await fs.promises.stat(f)).mtimeMs })))).sort((a, b) => b.t - a.t);
  const excess = byAge.slice(KEEP_FILES - 1).map((x) => x.f);
  await Promise.all([...stale, ...excess].map((f) => fs.promises.rm(f, { force: true })));
}
