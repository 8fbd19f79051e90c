// probe: runs executeRun in a loop, reports post-GC heap and median per window.
import { ensureDatabase } from '../lib/db/bootstrap';
import { closeDb, getPrisma } from '../lib/db/client';
import { generateQuestionSet } from '../lib/eval/generate';
import { listMethods } from '../lib/methods/registry';
import { executeRun } from '../lib/runs/executor';
import { createRun } from '../lib/runs/service';
import v8 from 'node:v8';

const N = Number(process.argv[2] ?? 300);
const W = Number(process.argv[3] ?? 50);
const snap = process.argv.includes('--snap');
async function main() {
  const db = await ensureDatabase();
  const prisma = getPrisma();
  await prisma.questionSet.deleteMany({ where: { name: 'probe-age' } });
  await generateQuestionSet({ generator: 'biomedhop', name: 'probe-age', seed: 'probe-age', count: 30 });
  const qs = await prisma.question.findMany({ where: { set: { name: 'probe-age' } }, orderBy: { ordinal: 'asc' }, select: { id: true } });
  const methods = listMethods().map((m) => m.id);
  const ids: string[] = [];
  let times: Record<string, number[]> = {};
  for (let i = 0; i < N; i++) {
    const m = methods[i % methods.length];
    const q = qs[Math.floor(i / methods.length) % qs.length];
    const { id } = await createRun({ method: m, questionId: q.id, backend: 'offline' }, { enqueue: false });
    ids.push(id);
    const t = performance.now();
    await executeRun(id);
    (times[m] ??= []).push(performance.now() - t);
    if ((i + 1) % W === 0) {
      (globalThis as any).gc?.();
      const mu = process.memoryUsage();
      const med = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, Math.round(v.sort((a, b) => a - b)[Math.floor(v.length / 2)])]));
      console.log(`${i + 1}: heap ${Math.round(mu.heapUsed / 2 ** 20)} MB rss ${Math.round(mu.rss / 2 ** 20)} ext ${Math.round(mu.external / 2 ** 20)} ab ${Math.round(mu.arrayBuffers / 2 ** 20)}`, JSON.stringify(med));
      times = {};
      if (snap) v8.writeHeapSnapshot(`/tmp/hperf-heap-${i + 1}.heapsnapshot`);
    }
  }
  for (let i = 0; i < ids.length; i += 500) await prisma.run.deleteMany({ where: { id: { in: ids.slice(i, i + 500) } } });
  await prisma.questionSet.deleteMany({ where: { name: 'probe-age' } });
  await closeDb();
  await db.stop();
}
main().then(() => process.exit(0));
