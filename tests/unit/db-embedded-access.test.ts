import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertEnterableByOthers } from '@/lib/db/embedded';

describe('embedded PostgreSQL started by root', () => {
  it('names a private folder above the data that the postgres user could not enter, instead of a bare EACCES later', () => {
    const closed = fs.mkdtempSync(path.join(os.tmpdir(), 'hopscope-closed-')); // mkdtemp: mode 0700
    const project = path.join(closed, 'project');
    fs.mkdirSync(project, { mode: 0o755 });
    try {
      expect(() => assertEnterableByOthers([path.join(project, '.data')])).toThrow(
        new RegExp(`cannot enter ${closed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*chmod o\\+x`),
      );
      fs.chmodSync(closed, 0o711);
      expect(() => assertEnterableByOthers([path.join(project, '.data')])).not.toThrow();
    } finally {
      fs.rmSync(closed, { recursive: true, force: true });
    }
  });
});
