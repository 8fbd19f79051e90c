import { expect } from 'vitest';
import { getPool } from '@/lib/db/client';
import { executeRun } from '@/lib/runs/executor';
import { getRunRecord, type RunRecord } from '@/lib/runs/read';
import { createRun } from '@/lib/runs/service';

/** Creates a run (offline unless the body says otherwise), executes it here and asserts it succeeded. */
export async function runToSuccess(body: Record<string, unknown>): Promise<RunRecord> {
  const { id } = await createRun({ backend: 'offline', ...body }, { enqueue: false });
  await executeRun(id);
  const run = await getRunRecord({ id });
  expect(run.error).toBeNull();
  expect(run.status).toBe('succeeded');
  return run;
}

/** Whether the loaded KG holds this edge: tests check answers against the graph, not against fixtures. */
export async function edgeExists(sourceId: string, metaedge: string, targetId: string): Promise<boolean> {
  const { rowCount } = await getPool().query('select 1 from edges where source_id = $1 and metaedge = $2 and target_id = $3', [sourceId, metaedge, targetId]);
  return (rowCount ?? 0) > 0;
}

/**
 * A crash while `stepId` was written: the step left running, the run queued again by recovery, then executed again
 * here; returns the resumed run, asserted succeeded.
 */
export async function resumeAfterCrashIn(runId: string, stepId: string): Promise<RunRecord> {
  await getPool().query(`update steps set status = 'running' where id = $1`, [stepId]);
  await getPool().query(`update runs set status = 'queued', answer = null where id = $1`, [runId]);
  await executeRun(runId);
  const resumed = await getRunRecord({ id: runId });
  expect(resumed.status).toBe('succeeded');
  return resumed;
}

/** An answer without its stages' wall times (usage `ms`), the one thing a resumed run makes anew. */
export function untimed(answer: unknown): unknown {
  return JSON.parse(JSON.stringify(answer, (key, value) => (key === 'ms' ? 0 : value)));
}

/** A run's completed steps as `kind:label`, in order: what a resumed run must show again. */
export function stepKinds(run: RunRecord): string[] {
  return run.steps.filter((s) => s.status !== 'failed').map((s) => `${s.kind}:${s.label}`);
}
