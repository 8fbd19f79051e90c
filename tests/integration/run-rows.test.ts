import { describe, expect, it } from 'vitest';
import { getPrisma } from '@/lib/db/client';
import { createRun, rerun } from '@/lib/runs/service';
import { executeRun } from '@/lib/runs/executor';
import { deleteRuns, readRunWithFamily } from '@/lib/runs/store/runs';

/**
 * The run store inserts and reads a run's row with plain SQL (a one-question command never starts Prisma's query
 * compiler): what it writes and reads must be what Prisma writes and reads for the same row.
 */
describe('a run row written and read with plain SQL', () => {
  it('reads back every column, its parent and its reruns as Prisma reads them', async () => {
    const parent = await createRun({ method: 'kg-rag', question: 'Which drugs treat gout?', backend: 'offline' }, { enqueue: false });
    await executeRun(parent.id);
    const child = await rerun(parent.id, { switches: { kg: false } }, { enqueue: false });
    const second = await rerun(parent.id, { switches: { doc: false } }, { enqueue: false });

    for (const id of [parent.id, child.id]) {
      const family = {
        parent: { select: { id: true, shareId: true } },
        children: { select: { id: true, shareId: true, status: true, configDiff: true, createdAt: true }, orderBy: { createdAt: 'asc' as const } },
      };
      const byPrisma = await (await getPrisma()).run.findUnique({ where: { id }, include: family });
      expect(byPrisma).not.toBeNull();
      expect(await readRunWithFamily({ id })).toEqual(byPrisma);
      expect(await readRunWithFamily({ shareId: byPrisma!.shareId })).toEqual(byPrisma);
    }
    const read = await readRunWithFamily({ id: parent.id });
    expect(read).toMatchObject({ status: 'succeeded', parent: null, children: [{ id: child.id }, { id: second.id }] });
    expect(read!.answer).toBeTruthy();
    expect(await readRunWithFamily({ id: `${parent.id}x` })).toBeNull();
  });

  it('makes ids in the shape of Prisma cuid(), each new', async () => {
    const runs = await Promise.all(
      Array.from({ length: 20 }, (_, i) => createRun({ method: 'direct', question: `Which drugs treat gout? (${i})`, backend: 'offline' }, { enqueue: false })),
    );
    const made = await (
      await getPrisma()
    ).run.create({
      data: { shareId: `rows-${Date.now()}`, questionText: 'q', input: {}, method: 'direct', config: {}, configHash: 'h' },
    });
    for (const { id } of runs) expect(id).toMatch(new RegExp(`^c[0-9a-z]{${made.id.length - 1}}$`));
    expect(new Set(runs.map((r) => r.id)).size).toBe(runs.length);
    await deleteRuns([...runs.map((r) => r.id), made.id]);
  });
});
