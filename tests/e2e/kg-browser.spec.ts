import { expect, test, type Page } from '@playwright/test';

const MS_ID = 'Disease::DOID:2377';

async function graphCounts(page: Page) {
  const count = page.getByTestId('neighbourhood-graph-count');
  await expect(count).toHaveAttribute('data-nodes', /^\d+$/);
  return {
    nodes: Number(await count.getAttribute('data-nodes')),
    edges: Number(await count.getAttribute('data-edges')),
  };
}

test.describe('KG browser', () => {
  test('search with the keyboard, read the entity, filter its neighbourhood', async ({ page }) => {
    await page.goto('/kg');
    const search = page.getByRole('combobox', { name: 'Search the knowledge graph' });
    await expect(search).toBeVisible();
    await search.click();
    await search.pressSequentially('multiple scler', { delay: 20 });

    // Suggestions come from the database; find the disease among them.
    const listbox = page.getByRole('listbox', { name: 'Matching entities' });
    const options = listbox.getByRole('option');
    const disease = options.filter({ hasText: MS_ID });
    await expect(disease).toBeVisible();
    await expect(search).toHaveAttribute('aria-expanded', 'true');

    const texts = await options.allTextContents();
    const index = texts.findIndex((t) => t.includes(MS_ID));
    expect(index).toBeGreaterThanOrEqual(0);
    for (let i = 0; i <= index; i++) await search.press('ArrowDown');
    await expect(disease).toHaveAttribute('aria-selected', 'true');
    const activeId = await disease.getAttribute('id');
    await expect(search).toHaveAttribute('aria-activedescendant', activeId!);
    await search.press('Enter');

    // The entity page.
    await expect(page).toHaveURL(/\/kg\/Disease(::|%3A%3A)DOID(:|%3A)2377$/);
    await expect(page.getByRole('heading', { level: 1, name: 'multiple sclerosis' })).toBeVisible();
    await expect(page.getByTestId('entity-id')).toHaveText(MS_ID);
    await expect(page.getByTestId('entity-profile')).toContainText(/demyelinating/i);

    const rows = page.getByTestId('degree-row');
    await expect(rows.first()).toBeVisible();
    expect(await rows.count()).toBeGreaterThan(1);

    // The neighbourhood graph drew the focus and its neighbours (capped).
    const graph = page.getByTestId('neighbourhood-graph');
    await expect(graph.locator('canvas').first()).toBeAttached();
    const before = await graphCounts(page);
    expect(before.nodes).toBeGreaterThan(1);
    expect(before.edges).toBeGreaterThan(0);
    expect(before.edges).toBeLessThanOrEqual(60);
    const summary = page.getByTestId('neighbour-summary');
    const totalBefore = Number(await summary.getAttribute('data-total'));
    expect(totalBefore).toBeGreaterThan(before.edges - 1);

    // Click the smallest relation: the URL, the summary and the graph follow.
    const counts = await rows.evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-count'))));
    const smallest = counts.indexOf(Math.min(...counts));
    const row = rows.nth(smallest);
    const metaedge = (await row.getAttribute('data-metaedge'))!;
    const rowCount = counts[smallest]!;
    expect(rowCount).toBeLessThan(totalBefore);
    await row.click();

    await expect(page).toHaveURL(new RegExp(`[?&]metaedge=${encodeURIComponent(metaedge)}`));
    await expect(row.getByRole('button')).toHaveAttribute('aria-pressed', 'true');
    await expect(summary).toHaveAttribute('data-total', String(rowCount));
    const expectedEdges = Math.min(rowCount, 60);
    await expect(page.getByTestId('neighbourhood-graph-count')).toHaveAttribute('data-edges', String(expectedEdges));
    const after = await graphCounts(page);
    expect(after.nodes).toBeLessThan(before.nodes);
    await expect(page.getByRole('combobox', { name: 'Show', exact: true })).toHaveValue(new RegExp(`^${metaedge.replace(/[>]/g, '\\$&')}\\|`));

    // The permalink reproduces the filtered view.
    await page.reload();
    await expect(page.getByTestId('neighbour-summary')).toHaveAttribute('data-total', String(rowCount));

    // "All relations" clears the filter.
    await page.getByRole('button', { name: 'All relations' }).click();
    await expect(page).not.toHaveURL(/metaedge=/);
    await expect(page.getByTestId('neighbour-summary')).toHaveAttribute('data-total', String(totalBefore));
  });

  test('clicking a neighbour in the list opens its page', async ({ page }) => {
    await page.goto(`/kg/${MS_ID}?metaedge=CtD&direction=in`);
    const link = page.getByRole('table').filter({ hasText: 'Neighbours shown in the graph' }).getByRole('link').first();
    const name = (await link.textContent())!.trim();
    await link.click();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page).toHaveURL(/\/kg\/Compound(::|%3A%3A)/);
  });

  test('hovering a graph node names it, clicking it opens its page', async ({ page }) => {
    await page.goto(`/kg/${MS_ID}?metaedge=CtD&direction=in`);
    await graphCounts(page);
    const graph = page.getByTestId('neighbourhood-graph');
    const box = (await graph.boundingBox())!;
    // The radial layout puts the first neighbour at 12 o'clock: scan down the top centre for it.
    const tooltip = page.getByRole('tooltip');
    let y = 8;
    for (; y < 140; y += 4) {
      await page.mouse.move(box.x + box.width / 2, box.y + y);
      if (await tooltip.isVisible()) break;
    }
    await expect(tooltip).toBeVisible();
    await expect(tooltip).toContainText('Compound');
    const name = (await tooltip.locator('p').first().textContent())!.trim();
    await page.mouse.click(box.x + box.width / 2, box.y + y);
    await expect(page).toHaveURL(/\/kg\/Compound(::|%3A%3A)/);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  });

  test('search explains when nothing matches', async ({ page }) => {
    await page.goto('/kg');
    const search = page.getByRole('combobox', { name: 'Search the knowledge graph' });
    await search.fill('qqzzxxqq');
    await expect(page.getByText(/No entity matches “qqzzxxqq”/)).toBeVisible();
    await search.press('Escape');
    await expect(search).toHaveAttribute('aria-expanded', 'false');
  });

  test('an unknown id shows the 404 page', async ({ page }) => {
    const response = await page.goto('/kg/Disease::DOID:0000000');
    expect(response?.status()).toBe(404);
    await expect(page.getByTestId('entity-not-found')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Entity not found' })).toBeVisible();

    const malformed = await page.goto('/kg/not-an-id');
    expect(malformed?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Entity not found' })).toBeVisible();
  });

  test('the KG API validates its input', async ({ request }) => {
    const bad = await request.get('/api/kg/search?q=');
    expect(bad.status()).toBe(400);
    expect((await bad.json()).error).toMatch(/q must not be empty/);
    const missing = await request.get('/api/kg/nodes/Gene%3A%3A0');
    expect(missing.status()).toBe(404);
    const ok = await request.get(`/api/kg/nodes/${encodeURIComponent(MS_ID)}/neighbors?metaedges=CtD&limit=5`);
    expect(ok.status()).toBe(200);
    const body = await ok.json();
    expect(body.edges.length).toBeLessThanOrEqual(5);
    expect(body.total).toBeGreaterThanOrEqual(body.edges.length);
    const health = await request.get('/api/health');
    expect(health.status()).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true, db: 'up' });
  });
});
