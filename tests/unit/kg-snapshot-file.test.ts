import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSavedSnapshot, saveSnapshot, type SnapshotParts } from '@/lib/kg/store/snapshot-file';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hopscope-snapshots-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const parts: SnapshotParts = {
  nodeIds: ['Compound::C1', 'Disease::D1', 'Gene::1', 'Gene::ü\t2'],
  nodeNames: ['Examplamide', 'example "disease"', 'GENEA', 'GENEB'],
  nodeKind: Uint16Array.from([0, 1, 2, 2]),
  kinds: ['Compound', 'Disease', 'Gene'],
  metaedges: [
    { abbr: 'CtD', directed: false, source_kind: 'Compound', target_kind: 'Disease' },
    { abbr: 'Gr>G', directed: null, source_kind: null, target_kind: null },
  ],
  edgeId: Int32Array.from([3, 8, 9]),
  edgeSource: Int32Array.from([0, 2, 3]),
  edgeTarget: Int32Array.from([1, 3, 2]),
  edgeMeta: Uint16Array.from([0, 1, 1]),
};

describe('saved graph snapshots', () => {
  it('read back exactly what was saved, and replace the same database’s older file', async () => {
    const older = path.join(dir, 'db1-old.snapshot');
    const other = path.join(dir, 'db2-sig.snapshot');
    await saveSnapshot(older, parts);
    await saveSnapshot(other, parts);
    const file = path.join(dir, 'db1-new.snapshot');
    await saveSnapshot(file, parts);
    expect(await readSavedSnapshot(file)).toEqual(parts);
    expect(fs.existsSync(older)).toBe(false);
    expect(fs.existsSync(other)).toBe(true);
  });

  it('keep the indexes derived from the edges when given them', async () => {
    const indexes = {
      incStart: Int32Array.from([0, 1, 2, 4, 6]),
      incEdge: Int32Array.from([0, 0, 1, 2, 1, 2]),
      incNeighbor: Int32Array.from([1, 0, 3, 3, 2, 2]),
      incMeta: Uint16Array.from([0, 0, 1, 1, 1, 1]),
      metaStart: Int32Array.from([0, 1, 3]),
      metaEdges: Int32Array.from([0, 1, 2]),
    };
    const file = path.join(dir, 'db4-sig.snapshot');
    await saveSnapshot(file, { ...parts, indexes });
    expect(await readSavedSnapshot(file)).toEqual({ ...parts, indexes });
    const bytes = fs.readFileSync(file);
    fs.writeFileSync(file, bytes.subarray(0, bytes.length - 4));
    expect(await readSavedSnapshot(file)).toBeNull();
  });

  it('are ignored when missing, cut short or not a snapshot', async () => {
    expect(await readSavedSnapshot(path.join(dir, 'none.snapshot'))).toBeNull();
    const file = path.join(dir, 'db3-sig.snapshot');
    await saveSnapshot(file, parts);
    const bytes = fs.readFileSync(file);
    fs.writeFileSync(file, bytes.subarray(0, bytes.length - 3));
    expect(await readSavedSnapshot(file)).toBeNull();
    fs.writeFileSync(file, 'not a snapshot at all');
    expect(await readSavedSnapshot(file)).toBeNull();
  });
});
