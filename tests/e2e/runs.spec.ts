import { expect, test, type Page } from '@playwright/test';

/**
 * The trace explorer against the real app and database: runs start from the
 * ask form on the offline engine, with X-R2 (fast, and its trace has model
 * calls, KG evidence and a check verdict).
 */

const QUESTION = 'Which disease is treated by metformin and is associated with the gene PPARG?';
const FINISHED = /^(succeeded|failed)$/;

async function ask(page: Page, opts: { question: string; method?: string; document?: string }) {
  await page.goto('/');
  await page.getByLabel('Question', { exact: true }).fill(opts.question);
  await page.locator(`input[name="method"][value="${opts.method ?? 'xr2'}"]`).check();
  if (opts.document) {
    await page.getByLabel('Attach a document (the doc channel reads it)').check();
    await page.getByTestId('document-text-input').fill(opts.document);
  }
  await page.getByLabel('Model backend').selectOption('offline');
  await page.getByTestId('ask-submit').click();
  await page.waitForURL(/\/runs\/[^/?]+/);
  return new URL(page.url()).pathname.split('/').pop()!;
}

async function waitFinished(page: Page) {
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', FINISHED, { timeout: 90_000 });
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded');
}

/** Clicks the midpoint of one selected edge in the run graph (Cytoscape draws on a canvas) and returns the element id that was hit. */
async function clickGraphEdge(page: Page) {
  await expect(page.getByTestId('run-graph-count')).toHaveAttribute('data-edges', /^[1-9]\d*$/);
  const graph = page.getByTestId('run-graph');
  await graph.scrollIntoViewIfNeeded();
  const point = await graph.evaluate((region) => {
    const host = [...region.querySelectorAll('div')].find((d) => (d as unknown as { _cyreg?: { cy?: unknown } })._cyreg?.cy) as unknown as {
      _cyreg: { cy: { edges(s: string): { length: number; first(): { renderedMidpoint(): { x: number; y: number } } } } };
      getBoundingClientRect(): DOMRect;
    };
    const edges = host._cyreg.cy.edges('.selected');
    const mid = edges.first().renderedMidpoint();
    const box = host.getBoundingClientRect();
    return { x: box.left + mid.x, y: box.top + mid.y };
  });
  await page.mouse.click(point.x, point.y);
}

test.describe.serial('Run pages', () => {
  let runId = '';
  let shareId = '';
  let answer = '';

  test('start a run from the ask form and watch it complete', async ({ page }) => {
    runId = await ask(page, { question: QUESTION });
    await expect(page.getByTestId('run-question')).toHaveText(QUESTION);
    await expect(page.getByTestId('run-backend')).toHaveText('offline engine (no language model)');
    // Live: steps stream in, then the status turns to finished without a reload.
    await waitFinished(page);
    await expect(page.locator('[data-testid="stage-progress"] [data-stage]').first()).toBeVisible();
    await expect(page.locator('[data-testid="stage-progress"] [data-state="running"]')).toHaveCount(0);
    answer = (await page.getByTestId('run-answer').textContent())!.trim();
    expect(answer).not.toBe('');
    expect(answer).not.toMatch(/abstained/);
    await expect(page.locator('[data-step-row][data-kind="xr2.iteration"]').first()).toBeVisible();
    await expect(page.getByTestId('claim').first()).toBeVisible();
    shareId = (await page.getByTestId('share-link').inputValue()).split('/r/')[1];
    expect(shareId).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  });

  test('expand a step and see its model call', async ({ page }) => {
    await page.goto(`/runs/${runId}`);
    const iteration = page.locator('[data-step-row][data-kind="xr2.iteration"]').first();
    await iteration.click();
    await expect(page).toHaveURL(/[?&]step=\d+/);
    await expect(page.getByTestId('iteration-tree')).toContainText('Decomposition');
    await expect(page.getByTestId('check-verdict').first()).toContainText('stop');

    // Keyboard: from the iteration row, → opens its nested steps, ↓ moves to the decomposition, Enter opens it.
    await iteration.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    await expect(page.locator(':focus')).toHaveAttribute('data-kind', 'xr2.decompose');
    await page.keyboard.press('Enter');
    const detail = page.locator('[data-testid="step-detail"][data-kind="xr2.decompose"]');
    await expect(detail).toBeVisible();
    const call = detail.getByTestId('model-call').first();
    await expect(call).toHaveAttribute('data-template', /^xr2\./);
    await call.locator('summary').click();
    await expect(call).toContainText('Rendered prompt');
    await expect(call).toContainText(QUESTION);
    await expect(call).toContainText('Raw output');
    await expect(call).toContainText('Parsed JSON');
    // The offline engine reports no tokens: they are estimated, and say so.
    await expect(call).toContainText(/≈[\d,]+ in · ≈[\d,]+ out \(estimated\)/);
  });

  test('click a graph edge and see its provenance', async ({ page }) => {
    await page.goto(`/runs/${runId}`);
    await clickGraphEdge(page);
    await expect(page).toHaveURL(/[?&]sel=edge%3Akg%3A\d+/);
    const selected = decodeURIComponent(new URL(page.url()).searchParams.get('sel')!).replace('edge:kg:', '');
    const panel = page.getByTestId('edge-provenance');
    await expect(panel).toBeVisible();
    await expect(panel.getByTestId('kg-edge-id')).toHaveText(selected);
    await expect(panel.getByTestId('edge-metaedge')).toHaveText(/^[A-Za-z>]+$/);
    await expect(panel.getByTestId('provenance-steps')).toContainText(/KG/);
    // Its ends link to the KG browser.
    await expect(panel.getByRole('link').first()).toHaveAttribute('href', /^\/kg\//);

    // A document passage: the cited span is marked in its source document.
    const passage = page.getByTestId('evidence-doc').getByTestId('evidence-row-button').first();
    await passage.click();
    await expect(page.getByTestId('evidence-provenance')).toBeVisible();
    await expect(page.getByTestId('document-span')).not.toBeEmpty();
  });

  test('rerun with kg off and see the comparison with fewer KG edges', async ({ page }) => {
    await page.goto(`/runs/${runId}`);
    const kgEdges = Number(await page.getByTestId('graph-summary').getAttribute('data-kg-edges'));
    expect(kgEdges).toBeGreaterThan(0);
    const form = page.getByTestId('rerun-form');
    await form.locator('input[name="switch.kg"]').uncheck();
    await expect(form).toContainText('Switching kg off');
    await page.getByTestId('rerun-submit').click();
    await page.waitForURL((url) => url.pathname.startsWith('/runs/') && !url.pathname.endsWith(runId));
    await expect(page.locator('[data-switch="kg"]')).toHaveAttribute('data-on', 'false');
    await expect(page.getByTestId('run-lineage')).toContainText('switches.kg: true → false');
    await waitFinished(page);
    await expect(page.getByTestId('graph-summary')).toHaveAttribute('data-kg-edges', '0');

    await page.getByTestId('compare-with-parent').click();
    await expect(page).toHaveURL(new RegExp(`/compare/${runId}/`));
    await expect(page.getByTestId('config-diff')).toContainText('switches.kg: true → false');
    const a = Number(await page.getByTestId('kg-edges-a').getAttribute('data-count'));
    const b = Number(await page.getByTestId('kg-edges-b').getAttribute('data-count'));
    expect(a).toBe(kgEdges);
    expect(b).toBeLessThan(a);
    await expect(page.getByTestId('merged-counts')).toHaveAttribute('data-only-a', String(kgEdges));
    await expect(page.getByTestId('compare-answer-a')).toContainText(answer);
    await expect(page.locator('[data-testid="step-alignment"] tr[data-presence="both"]').first()).toBeVisible();
    await expect(page.getByTestId('attribution-panel')).toContainText('kg off');
    const compareLink = await page.getByTestId('compare-share-link').inputValue();
    expect(compareLink).toMatch(/\/c\/[A-Za-z0-9_-]{20,}$/);

    // The comparison permalink shows the same two runs.
    await page.goto(new URL(compareLink).pathname);
    await expect(page.getByTestId('kg-edges-a')).toHaveAttribute('data-count', String(a));
    await expect(page.getByTestId('kg-edges-b')).toHaveAttribute('data-count', String(b));
  });

  test('open a permalink in a fresh browser context and see the same answer and trace', async ({ browser, page, request }) => {
    await page.goto(`/runs/${runId}`);
    const rows = await page.locator('[data-step-row]').evaluateAll((els) => els.map((e) => e.textContent));
    const step = await page.locator('[data-step-row][data-kind="xr2.iteration"]').first().getAttribute('data-ordinal');

    // Server-rendered: question, answer and trace outline are in the HTML a script receives.
    const html = await (await request.get(`/r/${shareId}?step=${step}`)).text();
    expect(html).toContain('Which disease is treated by metformin and is associated with the gene PPARG?');
    expect(html).toContain(answer.replace(/&/g, '&amp;'));
    expect(html).toContain('Iteration 1');
    expect(html).toContain('data-testid="step-detail"');
    // The permalink carries no private id: not in attributes, links or the embedded page state.
    expect(html).not.toContain(runId);

    const context = await browser.newContext();
    const fresh = await context.newPage();
    await fresh.goto(`/r/${shareId}?step=${step}&graph=${step}`);
    await expect(fresh.getByTestId('permalink-banner')).toBeVisible();
    await expect(fresh.getByTestId('run-answer')).toHaveText(answer);
    expect(await fresh.locator('[data-step-row]').evaluateAll((els) => els.map((e) => e.textContent))).toEqual(expect.arrayContaining(rows));
    await expect(fresh.locator(`[data-testid="step-detail"]`)).toHaveAttribute('data-kind', 'xr2.iteration');
    await expect(fresh.getByTestId('graph-step-filter')).toHaveValue(String(step));
    // Read-only: no rerun, no verify.
    await expect(fresh.getByTestId('rerun-form')).toHaveCount(0);
    await expect(fresh.getByTestId('verify-run')).toHaveCount(0);
    await expect(fresh.getByTestId('export-json')).toHaveAttribute('href', `/api/runs/share/${shareId}/export`);
    await context.close();
  });

  test('export the run as JSON without credentials', async ({ request }) => {
    const response = await request.get(`/api/runs/${runId}/export`);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-disposition']).toMatch(/attachment; filename="hopscope-run-/);
    const text = await response.text();
    const body = JSON.parse(text);
    expect(body.format).toBe('hopscope.run/v1');
    expect(body.run.id).toBe(runId);
    expect(body.run.modelCalls.length).toBeGreaterThan(0);
    expect(text).not.toMatch(/"api[-_]?key"/i);
  });

  test('verify the run with the K2V checklist: the grid and rewards at the top, the frozen run unchanged', async ({ page }) => {
    await page.goto(`/runs/${runId}`);
    const steps = Number((await page.getByTestId('trace-count').textContent())!.match(/^(\d+) steps/)![1]);
    await expect(page.getByTestId('k2v-panel')).toHaveCount(0);
    await page.getByTestId('verify-run').click();
    const panel = page.getByTestId('k2v-panel');
    await expect(panel).toBeVisible({ timeout: 30_000 });
    await expect(panel).toHaveAttribute('data-version', '1');
    // At the top: the pass rate and rewards in the answer box on the first screen, the grid right after it, above the trace.
    await page.evaluate(() => window.scrollTo(0, 0));
    const summary = page.getByTestId('k2v-summary');
    await expect(summary).toContainText('checklist pass rate');
    await expect(summary).toContainText('R_format');
    const summaryBox = (await summary.boundingBox())!;
    expect(summaryBox.y + summaryBox.height).toBeLessThanOrEqual(page.viewportSize()!.height);
    const [panelBox, traceBox] = [await panel.boundingBox(), await page.locator('#trace-heading').boundingBox()];
    expect(panelBox!.y).toBeLessThan(traceBox!.y);
    await expect(panel.getByTestId('k2v-pass-rate')).toContainText('pass rate p =');
    await expect(panel.locator('[data-reward="plain"]')).toBeVisible();
    expect(await panel.locator('tr[data-verdict]').count()).toBeGreaterThanOrEqual(7);
    // The verification is its own record: no step joined the run's trace.
    await expect(page.getByTestId('trace-count')).toContainText(`${steps} steps`);
    await expect(page.locator('[data-step-row][data-kind^="verify"]')).toHaveCount(0);
  });
});

test('a malicious <script> in a question or document is shown as text', async ({ page }) => {
  const question = 'Which gene does <script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> bind, per metformin?';
  const document = 'Metformin notes. <script>window.__pwned = 3</script><b onmouseover="window.__pwned = 4">bold?</b> Metformin binds PRKAB1.';
  await ask(page, { question, method: 'kg-rag', document });
  await expect(page.getByTestId('run-question')).toHaveText(question);
  await waitFinished(page);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(page.locator('main script')).toHaveCount(0);
  await expect(page.locator('main img[src="x"]')).toHaveCount(0);
  await expect(page.locator('main b[onmouseover]')).toHaveCount(0);

  // The attached document's passage, opened in the provenance panel, is text too.
  const passages = page.getByTestId('evidence-doc').getByTestId('evidence-row-button');
  await passages.filter({ hasText: '<script>' }).first().click();
  await expect(page.getByTestId('document-text')).toContainText('<script>window.__pwned = 3</script>');
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
});

test('unknown runs, permalinks and comparisons are 404 pages', async ({ page, request }) => {
  for (const path of ['/runs/no-such-run', '/r/AAAAAAAAAAAAAAAAAAAAAA', '/r/short', '/c/AAAAAAAAAAAAAAAAAAAAAA', '/compare/no-such-a/no-such-b']) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByTestId('not-found')).toBeVisible();
  }
  expect((await request.get('/api/runs/no-such-run/view')).status()).toBe(404);
  expect((await request.get('/api/runs/no-such-run/export')).status()).toBe(404);
});

test('the ask form shows each method with its paper-default parameters and explains invalid input', async ({ page }) => {
  await page.goto('/');
  await page.locator('input[name="method"][value="eigen1"]').check();
  await page.getByTestId('method-params').locator('summary').click();
  await expect(page.locator('#ask-param-k')).toHaveValue('5');
  await expect(page.locator('#ask-param-windowChars')).toHaveValue('512');
  await expect(page.getByTestId('method-params')).toContainText('All parameters at the paper defaults');
  await page.locator('#ask-param-windowChars').fill('600');
  await expect(page.getByTestId('method-params')).toContainText('Changed from the paper defaults: windowChars');
  // An option list of one is refused by the server; the form says why and keeps what was typed.
  await page.getByLabel('Question', { exact: true }).fill('Which drug treats gout?');
  await page.getByLabel('Multiple choice (options A–E)').check();
  await page.locator('input[name="option.A"]').fill('Allopurinol');
  await page.getByTestId('ask-submit').click();
  await expect(page.getByTestId('ask-error')).toContainText(/at least two options/);
  await expect(page.getByLabel('Question', { exact: true })).toHaveValue('Which drug treats gout?');
  await expect(page.locator('#ask-param-windowChars')).toHaveValue('600');
});
