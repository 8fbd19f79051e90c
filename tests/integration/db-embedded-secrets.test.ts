import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('a new embedded PostgreSQL', () => {
  it('gets a generated password kept beside its data (0600), refuses the old fixed one, and leaves its folder not world-writable', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'tests/support/embedded-secrets-check.ts'], { encoding: 'utf8', timeout: 120_000 });
    expect(result.status, result.stderr).toBe(0);
    const seen = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
    expect(seen).toMatchObject({ fileMode: 0o600, parentWorldWritable: false, urlHasPassword: true, answers: true });
    expect(seen.passwordLength).toBeGreaterThanOrEqual(24);
    expect(seen.legacy).toMatch(/password authentication failed/);
  }, 150_000);

  it('stays up when the process that started it stops while another process is still connected (a second CLI eval on the same database)', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'tests/support/embedded-shared-stop.ts'], { encoding: 'utf8', timeout: 120_000 });
    expect(result.status, result.stderr).toBe(0);
    const seen = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
    expect(seen).toEqual({ owned: true, whileUsed: 'left running', upWhileUsed: true, afterwards: 'stopped', upAfterwards: false });
  }, 150_000);
});
