import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cruise, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The import rules (.dependency-cruiser.cjs) run on a small tree of probes laid out like the
 * project (its tsconfig, its node_modules linked in, so packages resolve outside the tree as
 * they do from a shared install): each probe breaks one rule, each control breaks none. A rule
 * that stops matching (an exclude that hides node_modules, a renamed folder) fails here.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');

const TREE: Record<string, string> = {
  // The database layer and what may use it.
  'lib/db/client.ts': `import pg from 'pg';\nimport { PrismaClient } from './generated/client';\nexport const pool = new pg.Pool();\nexport const prisma = PrismaClient;\n`,
  'lib/db/generated/client.ts': `export class PrismaClient {}\n`,
  'lib/db/generated/models/Run.ts': `export type RunModel = { id: string };\n`,
  'lib/db/generated/enums.ts': `export const RunStatus = { queued: 'queued' } as const;\n`,
  'lib/kg/store/nodes.ts': `import { pool } from '@/lib/db/client';\nimport type pg from 'pg';\nexport const nodes = (p: pg.Pool = pool) => p;\n`,
  'lib/runs/store/runs.ts': `import { prisma } from '@/lib/db/client';\nimport type { RunModel } from '@/lib/db/generated/models/Run';\nexport const runs = (r?: RunModel) => [prisma, r];\n`,
  'lib/kg/import/copy.ts': `import type pg from 'pg';\nimport { from } from 'pg-copy-streams';\nexport const copy = (c: pg.PoolClient) => [c, from];\n`,
  'lib/trace/status.ts': `import { RunStatus } from '@/lib/db/generated/enums';\nexport const status = RunStatus.queued;\n`,
  'lib/runs/service.ts': `import { runs } from './store/runs';\nexport const service = runs;\n`,
  'lib/kg/reads.ts': `import { nodes } from './store/nodes';\nimport { runs } from '@/lib/runs/store/runs';\nexport const reads = [nodes, runs];\n`,
  'app/page.ts': `import { service } from '@/lib/runs/service';\nexport default service;\n`,
  // Probes: one broken rule each.
  'lib/trace/pg.ts': `import pg from 'pg';\nexport const p = pg;\n`,
  'lib/trace/pg-type.ts': `import type pg from 'pg';\nexport type P = pg.Pool;\n`,
  'lib/trace/copy-streams.ts': `import { from } from 'pg-copy-streams';\nexport const p = from;\n`,
  'lib/trace/prisma-client.ts': `import { Prisma } from '@prisma/client';\nexport const p = Prisma;\n`,
  'lib/trace/prisma-adapter.ts': `import { PrismaPg } from '@prisma/adapter-pg';\nexport const p = PrismaPg;\n`,
  'lib/trace/db-client.ts': `import { pool } from '@/lib/db/client';\nexport const p = pool;\n`,
  'lib/trace/generated-client.ts': `import { PrismaClient } from '../db/generated/client';\nexport const p = PrismaClient;\n`,
  'lib/trace/generated-model.ts': `import type { RunModel } from '@/lib/db/generated/models/Run';\nexport type P = RunModel;\n`,
  'lib/trace/dynamic.ts': `export const p = () => import('pg');\n`,
  'app/api/route.ts': `import { prisma } from '@/lib/db/client';\nexport const p = prisma;\n`,
  'scripts/bench.ts': `import pg from 'pg';\nexport const p = pg;\n`,
  'lib/kg/import/prisma.ts': `import { prisma } from '@/lib/db/client';\nexport const p = prisma;\n`,
  'lib/channels/cycle-a.ts': `import { b } from './cycle-b';\nexport const a = () => b;\n`,
  'lib/channels/cycle-b.ts': `import { a } from './cycle-a';\nexport const b = () => a;\n`,
  'lib/kg/upward.ts': `import { service } from '@/lib/runs/service';\nexport const p = service;\n`,
  'lib/corpus/to-channels.ts': `import { a } from '@/lib/channels/cycle-a';\nexport const p = a;\n`,
  'lib/trace/to-ui.ts': `import page from '@/app/page';\nexport const p = page;\n`,
  'lib/db/upward.ts': `import { status } from '@/lib/trace/status';\nexport const p = status;\n`,
};

const EXPECTED = [
  'db-only-in-stores lib/trace/pg.ts',
  'db-only-in-stores lib/trace/pg-type.ts',
  'db-only-in-stores lib/trace/copy-streams.ts',
  'db-only-in-stores lib/trace/prisma-client.ts',
  'db-only-in-stores lib/trace/prisma-adapter.ts',
  'db-only-in-stores lib/trace/db-client.ts',
  'db-only-in-stores lib/trace/generated-client.ts',
  'db-only-in-stores lib/trace/generated-model.ts',
  'db-only-in-stores lib/trace/dynamic.ts',
  'db-only-in-stores app/api/route.ts',
  'db-only-in-stores scripts/bench.ts',
  'bulk-import-streams-only lib/kg/import/prisma.ts',
  'no-circular lib/channels/cycle-a.ts',
  'domain-not-to-services lib/kg/upward.ts',
  'data-not-to-middle lib/corpus/to-channels.ts',
  'lib-not-to-ui lib/trace/to-ui.ts',
  'db-at-the-bottom lib/db/upward.ts',
];

let dir: string;
let violations: IViolation[];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-rules-'));
  for (const [file, text] of Object.entries(TREE)) {
    fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  // The project's tsconfig, with its base made explicit: without one, `@/` resolves from the working directory.
  const tsconfig = JSON.parse(fs.readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8'));
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ ...tsconfig, compilerOptions: { ...tsconfig.compilerOptions, baseUrl: '.' } }));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');

  const options = await extractDepcruiseOptions(path.join(ROOT, '.dependency-cruiser.cjs'));
  const tsConfigFile = path.join(dir, 'tsconfig.json');
  const result = await cruise(
    ['app', 'lib', 'scripts'],
    { ...options, baseDir: dir, tsConfig: { fileName: tsConfigFile } },
    {},
    { tsConfig: extractTSConfig(tsConfigFile) },
  );
  if (typeof result.output === 'string') throw new Error('expected a cruise result, got a report');
  violations = result.output.summary.violations;
});

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('import rules (.dependency-cruiser.cjs)', () => {
  it('report each probe under the rule it breaks, and nothing else', () => {
    const found = [...new Set(violations.map((v) => `${v.rule.name} ${v.from}`))].sort();
    expect(found).toEqual([...EXPECTED].sort());
  });

  it('see npm packages that resolve outside the tree', () => {
    const pg = violations.find((v) => v.from === 'lib/trace/pg.ts');
    expect(pg?.to).toMatch(/(^|\/)node_modules\/pg\//);
    expect(pg?.to.startsWith('node_modules/')).toBe(false);
  });

  it('start from an empty list of known violations', () => {
    expect(JSON.parse(fs.readFileSync(path.join(ROOT, '.dependency-cruiser-known-violations.json'), 'utf8'))).toEqual([]);
  });
});
