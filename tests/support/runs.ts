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
