import { expect, test, type APIRequestContext } from '@playwright/test';

/**
 * The comparison page aligns the two traces by stage kind and iteration: the
 * same stage is one row, even when the two runs labelled it differently or
 * one of them ran a stage more.
 */
const QUESTION = 'Which disease is treated by metformin and is associated with the gene PPARG?';

async function finishedRun(
  request: APIRequestContext,
  body: Record<string, unknown>,
): Promise<{ id: string; steps: { kind: string; label: string; parentStepId: string | null }[] }> {
  const created = await request.post('/api/runs', { data: { question: QUESTION, method: 'xr2', backend: 'offline', ...body } });
  expect(created.status(), await created.text()).toBeLessThan(300);
  const { id } = await created.json();
  let run: { status: string; steps: { kind: string; label: string; parentStepId: string | null }[] } = { status: 'queued', steps: [] };
  await expect
    .poll(
      async () => {
        run = await (await request.get(`/api/runs/${id}`)).json();
        return run.status;
      },
      { timeout: 90_000 },
    )
    .toMatch(/^(succeeded|failed)$/);
  return { id, steps: run.steps };
}

test('stages are matched by kind and iteration, not by order', async ({ page, request }) => {
  test.setTimeout(180_000);
  const a = await finishedRun(request, { params: { tMax: 1 } });
  const b = await finishedRun(request, { params: { tMax: 2 }, switches: { doc: true, entity: true, kg: false, param: true, web: false } });
  await page.goto(`/compare/${a.id}/${b.id}`);
  const rows = page.locator('[data-testid="step-alignment"] tbody tr');
  await expect(rows.first()).toBeVisible();
  const cells = await rows.evaluateAll((trs) =>
    trs.map((tr) => ({
      presence: tr.getAttribute('data-presence'),
      kind: tr.getAttribute('data-kind'),
      iteration: tr.getAttribute('data-iteration'),
      text: tr.textContent ?? '',
    })),
  );
  // Every top-level stage A ran is paired with B's stage of the same kind and iteration.
  expect(a.steps.some((s) => s.kind === 'xr2.iteration')).toBe(true);
  expect(cells.find((c) => c.kind === 'xr2.iteration' && c.iteration === '1')?.presence).toBe('both');
  // No stage shows up twice, once as "only A" and once as "only B".
  const onlyA = new Set(cells.filter((c) => c.presence === 'a').map((c) => `${c.kind}#${c.iteration}`));
  const onlyB = cells.filter((c) => c.presence === 'b').map((c) => `${c.kind}#${c.iteration}`);
  expect(onlyB.filter((k) => onlyA.has(k))).toEqual([]);
  // Nested stages pair up too: the first iteration's decomposition is one row.
  expect(cells.find((c) => c.kind === 'xr2.decompose' && c.iteration === '1')?.presence).toBe('both');
});
