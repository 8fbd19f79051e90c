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

/** Page rectangles of every node Cytoscape drew in the graph region (labels included), clipped to the canvas: what is on screen. */
async function nodeRects(page: Page, testId: string) {
  return page.getByTestId(testId).evaluate((region) => {
    const host = [...region.querySelectorAll('div')].find((d) => (d as unknown as { _cyreg?: { cy?: unknown } })._cyreg?.cy) as unknown as {
      _cyreg: { cy: { nodes(): { map<T>(f: (n: { renderedBoundingBox(o: object): { x1: number; y1: number; x2: number; y2: number } }) => T): T[] } } };
      getBoundingClientRect(): DOMRect;
    };
    const box = host.getBoundingClientRect();
    return host._cyreg.cy
      .nodes()
      .map((n) => {
        const b = n.renderedBoundingBox({ includeLabels: true });
        const [left, top] = [Math.max(box.left, box.left + b.x1), Math.max(box.top, box.top + b.y1)];
        const [right, bottom] = [Math.min(box.right, box.left + b.x2), Math.min(box.bottom, box.top + b.y2)];
        return { x: left, y: top, width: right - left, height: bottom - top };
      })
      .filter((r) => r.width > 0 && r.height > 0);
  });
}

const overlaps = (a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test.describe('KG browser', () => {
  test('the graph toolbar never covers a node', async ({ page }) => {
    await page.goto('/kg/Gene::7157');
    await graphCounts(page);
    const toolbar = (await page.getByRole('toolbar', { name: 'Graph controls' }).boundingBox())!;
    const check = async () => {
      const rects = await nodeRects(page, 'neighbourhood-graph');
      expect(rects.length).toBeGreaterThan(10);
      expect(rects.filter((r) => overlaps(r, toolbar))).toEqual([]);
    };
    await check();
    // Nor after fitting or zooming in (the toolbar sits outside the canvas).
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await check();
    await page.getByRole('button', { name: 'Fit' }).click();
    await check();
  });

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

  test('clicking a graph node expands it in place; its page opens from the selection bar', async ({ page }) => {
    await page.goto(`/kg/${MS_ID}?metaedge=CtD&direction=in`);
    const before = await graphCounts(page);
    const graph = page.getByTestId('neighbourhood-graph');
    const box = (await graph.boundingBox())!;
    // The first neighbour sits at 12 o'clock: scan down the top centre for it.
    const tooltip = page.getByRole('tooltip');
    let y = 8;
    for (; y < 140; y += 4) {
      await page.mouse.move(box.x + box.width / 2, box.y + y);
      if (await tooltip.isVisible()) break;
    }
    await expect(tooltip).toBeVisible();
    await expect(tooltip).toContainText('Compound');
    const name = (await tooltip.locator('p').first().textContent())!.trim();
    const url = page.url();
    await page.mouse.click(box.x + box.width / 2, box.y + y);

    // Expanded where it is: same page, the compound selected, its neighbours added to the drawing.
    const bar = page.getByTestId('expansion-bar');
    await expect(bar).toHaveAttribute('data-selected', /^Compound::/);
    await expect(bar).toContainText(name);
    await expect(page.getByTestId('expansion-status')).toContainText(/expanded: \d+ of [\d,]+ neighbours/);
    await expect(page.getByTestId('expansion-summary')).toHaveAttribute('data-added-nodes', /^[1-9]\d*$/);
    await expect.poll(async () => (await graphCounts(page)).nodes).toBeGreaterThan(before.nodes);
    const added = Number(await page.getByTestId('expansion-summary').getAttribute('data-added-nodes'));
    expect((await graphCounts(page)).nodes).toBe(before.nodes + added);

    // The expansion is in the URL (same page, same filter): a reload or a permalink restores the expanded graph.
    const expandedUrl = new URL(page.url());
    expect(expandedUrl.pathname).toBe(new URL(url).pathname);
    expect(expandedUrl.searchParams.get('metaedge')).toBe('CtD');
    const selectedId = await bar.getAttribute('data-selected');
    expect(expandedUrl.searchParams.getAll('expand')).toEqual([selectedId]);
    await page.reload();
    await expect(bar).toHaveAttribute('data-selected', selectedId!);
    await expect(page.getByTestId('expansion-summary')).toHaveAttribute('data-added-nodes', String(added));
    await expect.poll(async () => (await graphCounts(page)).nodes).toBe(before.nodes + added);

    // Collapsing takes the added nodes away again.
    await bar.getByRole('button', { name: 'Collapse' }).click();
    await expect(page.getByTestId('expansion-summary')).toHaveCount(0);
    await expect.poll(async () => (await graphCounts(page)).nodes).toBe(before.nodes);
    expect(new URL(page.url()).searchParams.getAll('expand')).toEqual([]);

    // Navigation is the explicit action.
    await bar.getByTestId('open-entity').click();
    await expect(page).toHaveURL(/\/kg\/Compound(::|%3A%3A)/);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  });

  test('a hub gene opens on a neighbourhood of every relation, not its largest one', async ({ page, request }) => {
    await page.goto('/kg/Gene::7157');
    await expect(page.getByRole('heading', { level: 1, name: 'TP53' })).toBeVisible();
    await graphCounts(page);
    const kinds = await page.getByRole('table').filter({ hasText: 'Neighbours shown in the graph' }).locator('tbody tr td:nth-child(2)').allTextContents();
    expect(kinds.length).toBe(60);
    const count = (k: string) => kinds.filter((t) => t.trim() === k).length;
    for (const kind of ['Disease', 'Compound', 'Pathway', 'Anatomy', 'Gene']) expect(count(kind), kind).toBeGreaterThan(0);
    expect(count('Anatomy')).toBeLessThan(20);
    // The API serves the same order for any client that asks for it.
    const body = await (await request.get('/api/kg/nodes/Gene%3A%3A7157/neighbors?order=diverse&limit=12')).json();
    expect(new Set(body.edges.map((e: { edge: { metaedge: string } }) => e.edge.metaedge)).size).toBeGreaterThan(6);
  });

  test('search suggestions say why they matched', async ({ page }) => {
    await page.goto('/kg');
    const search = page.getByRole('combobox', { name: 'Search the knowledge graph' });
    await search.fill('DOID:2377');
    const options = page.getByRole('listbox', { name: 'Matching entities' }).getByRole('option');
    const option = options.first();
    await expect(option).toContainText('multiple sclerosis');
    await expect(option.getByTestId('match-reason')).toHaveAttribute('data-field', 'id');
    await search.fill('multiple sclerosis');
    await expect(options.first().getByTestId('match-reason')).toHaveText('matched by name');
    await expect(options.filter({ hasText: 'relapse' }).first().getByTestId('match-reason')).toHaveText('matched by start of name');
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
