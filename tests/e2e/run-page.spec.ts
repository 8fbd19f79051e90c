import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

/**
 * Reading a run page: the first screen in the first response and the rest
 * fetched after it, the graph legible at first sight on a large run, the
 * selected step beside the trace (and in the URL, server-rendered on a
 * permalink), an answer box that explains abstentions and partial lists, the
 * timeline with estimated tokens, and the question-length limit.
 */

const LIST_QUESTION = "Which genes are associated with both multiple sclerosis and Crohn's disease?";

async function runToEnd(request: APIRequestContext, body: Record<string, unknown>) {
  const created = await request.post('/api/runs', { data: { backend: 'offline', ...body } });
  expect(created.ok()).toBe(true);
  const { id, shareId } = (await created.json()) as { id: string; shareId: string };
  await expect
    .poll(async () => ((await (await request.get(`/api/runs/${id}/view`)).json()) as { status: string }).status, { timeout: 120_000, intervals: [500] })
    .toMatch(/^(succeeded|failed)$/);
  const view = (await (await request.get(`/api/runs/${id}/view`)).json()) as { status: string; steps: { ordinal: number; kind: string; label: string }[] };
  expect(view.status).toBe('succeeded');
  return { id, shareId, steps: view.steps };
}

/** The zoom Cytoscape drew the run graph at, and the zoom from which node labels are drawn. */
async function drawnZoom(page: Page) {
  const count = page.getByTestId('run-graph-count');
  await expect(count).toHaveAttribute('data-zoom', /^\d/, { timeout: 30_000 });
  return { zoom: Number(await count.getAttribute('data-zoom')), threshold: Number(await count.getAttribute('data-label-zoom')) };
}

/** Every column of a sortable table is in view: the last header ends inside the table's visible box (nothing to scroll sideways). */
async function expectNoClippedColumn(page: Page, table: ReturnType<Page['getByTestId']>) {
  await expect(table).toBeVisible();
  const [box, last] = [await table.boundingBox(), await table.locator('thead th').last().boundingBox()];
  expect(last!.x + last!.width).toBeLessThanOrEqual(box!.x + box!.width + 1);
  expect(await table.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
}

/** The element is drawn entirely inside the viewport of the page as it opened (not scrolled). */
/** Opens a run's page with its view request held back until the returned function is called: the first screen alone is drawn meanwhile. */
async function openWithViewHeld(page: Page, runId: string): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**/api/runs/${runId}/view`, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId('run-page')).toHaveAttribute('data-loaded', 'first-screen');
  return release;
}

async function expectOnFirstScreen(page: Page, testId: string) {
  const box = await page.getByTestId(testId).first().boundingBox();
  expect(box, `${testId} is drawn`).not.toBeNull();
  expect(box!.y, `${testId} starts on the first screen`).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, `${testId} ends on the first screen`).toBeLessThanOrEqual(page.viewportSize()!.height);
}

test.describe.serial('A large ReGraM run', () => {
  let run: Awaited<ReturnType<typeof runToEnd>>;

  test.beforeAll(async ({ request }) => {
    run = await runToEnd(request, { method: 'regram', question: LIST_QUESTION });
  });

  test('opens on a graph whose labels are drawn, whichever scope is shown', async ({ page }) => {
    await page.goto(`/runs/${run.id}`);
    const summary = page.getByTestId('graph-summary');
    // About 250 entities recorded; the default view is the answer's evidence.
    expect(Number(await summary.getAttribute('data-nodes'))).toBeGreaterThanOrEqual(200);
    await expect(summary).toHaveAttribute('data-scope', 'answer');
    const first = await drawnZoom(page);
    expect(first.threshold).toBeGreaterThan(0.5);
    expect(first.zoom).toBeGreaterThanOrEqual(first.threshold);

    // The whole run: candidates fold into expandable groups, and labels are still drawn.
    await page.getByTestId('graph-step-filter').selectOption('all');
    await expect(page).toHaveURL(/[?&]view=all/);
    await expect(summary).toHaveAttribute('data-scope', 'all');
    expect(Number(await summary.getAttribute('data-folded'))).toBeGreaterThan(100);
    const drawn = Number(await page.getByTestId('run-graph-count').getAttribute('data-nodes'));
    expect(drawn).toBeLessThan(60);
    const whole = await drawnZoom(page);
    expect(whole.zoom).toBeGreaterThanOrEqual(whole.threshold);
    // The toolbar sits above the canvas, never over it.
    const [toolbar, canvas] = [await page.getByRole('toolbar', { name: 'Graph controls' }).boundingBox(), await page.getByTestId('run-graph').boundingBox()];
    expect(toolbar!.y + toolbar!.height).toBeLessThanOrEqual(canvas!.y);
  });

  test('opens on the first screen the first response carries; the trace and the graph come with the view fetched after', async ({ page, request }) => {
    // The server's HTML holds the answer and the evidence it cites, not the trace or every record of the run.
    const html = await (await request.get(`/runs/${run.id}`)).text();
    expect(html).toContain('data-testid="run-answer-box"');
    expect(html).toContain('data-testid="cited-record"');
    expect(html).toContain('data-testid="run-rest-loading"');
    expect(html).not.toContain('data-testid="trace-count"');
    expect(html.length).toBeLessThan((await (await request.get(`/api/runs/${run.id}/view`)).text()).length);

    // The view held back: the first screen is drawn, the graph and the trace say they are loading.
    const release = await openWithViewHeld(page, run.id);
    await expect(page.getByTestId('cited-record').first()).toBeVisible();
    await expect(page.getByTestId('run-graph-loading')).toBeVisible();
    await expect(page.getByTestId('run-rest-loading')).toBeVisible();
    const cited = await page.getByTestId('cited-evidence').getAttribute('data-cited');
    const boxes = async () => [await page.getByTestId('run-answer-box').boundingBox(), await page.getByTestId('cited-record').first().boundingBox()];
    const before = await boxes();

    release();
    await expect(page.getByTestId('run-page')).toHaveAttribute('data-loaded', 'all');
    await expect(page.getByTestId('trace-count')).toContainText(`${run.steps.length} steps`);
    await expect(page.getByTestId('graph-summary')).toBeVisible();
    await expect(page.getByTestId('run-rest-loading')).toHaveCount(0);
    // Nothing on the first screen moved or changed when the view came.
    expect(await boxes()).toEqual(before);
    await expect(page.getByTestId('cited-evidence')).toHaveAttribute('data-cited', cited!);
  });

  test("a cited record's step opened before the trace has come is opened and scrolled to once it comes", async ({ page }) => {
    const release = await openWithViewHeld(page, run.id);
    const stepLink = page
      .getByTestId('cited-record')
      .first()
      .getByTitle(/^Open the step that recorded it/);
    await stepLink.click();
    await expect(page).toHaveURL(/[?&]step=\d+/);
    const ordinal = new URL(page.url()).searchParams.get('step')!;
    expect(await page.evaluate(() => window.scrollY)).toBe(0); // nothing to go to yet

    release();
    // No second click: the step is open beside the trace, and the trace is in view.
    await expect(page.getByTestId('step-detail')).toHaveAttribute('data-ordinal', ordinal);
    await expect(page.locator('#trace-heading')).toBeInViewport();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  });

  test('says the list may be partial and which cap limited it', async ({ page }) => {
    await page.goto(`/runs/${run.id}`);
    const note = page.getByTestId('partial-note');
    await expect(note).toContainText('may be partial');
    await expect(note).toContainText('k = 15');
    await expect(note).toHaveAttribute('data-caps', /^k,/);
    await expect(page.getByTestId('claims-summary')).toContainText('supported by cited evidence');
  });

  test('a step opened by ?step= on a permalink is server-rendered beside the trace', async ({ browser, request }) => {
    const hop = run.steps.find((s) => s.kind === 'regram.mmr')!;
    const url = `/r/${run.shareId}?step=${hop.ordinal}`;
    // In the server's HTML, before any script runs.
    const html = await (await request.get(url)).text();
    expect(html).toContain('data-testid="step-detail"');
    expect(html).toContain(`data-ordinal="${hop.ordinal}"`);

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    const detail = page.getByTestId('step-detail');
    await expect(detail).toBeVisible();
    await expect(detail).toHaveAttribute('data-kind', hop.kind);
    await expect(detail.getByRole('heading', { name: hop.label })).toBeVisible();
    // The MMR table is too wide to sit beside the tree: the panel takes the full width, and every column is in view.
    const panel = page.getByTestId('step-panel');
    await expect(panel).toHaveAttribute('data-wide', 'true');
    await expectNoClippedColumn(page, detail.getByTestId('candidate-table'));
    // Beside the tree again on request.
    await page.getByTestId('step-panel-width').click();
    await expect(panel).toHaveAttribute('data-wide', 'false');
    const [tree, box] = [await page.getByTestId('trace-timeline').boundingBox(), await panel.boundingBox()];
    expect(box!.x).toBeGreaterThan(tree!.x + tree!.width - 1);
    // Raw JSON one click away.
    await detail.getByTestId('step-tab-output').click();
    await expect(detail.getByLabel('Step output')).toBeVisible();
    await context.close();
  });

  test('the timeline shows steps and model calls with estimated tokens, labelled as estimates', async ({ page }) => {
    await page.goto(`/runs/${run.id}`);
    await page.getByTestId('trace-tab-timeline').click();
    const totals = page.getByTestId('waterfall-totals');
    await expect(totals).toHaveAttribute('data-estimated', 'true');
    await expect(totals).toContainText('estimated');
    await expect(page.locator('[data-testid="trace-waterfall"] [data-row-type="call"]').first()).toBeVisible();
    await expect(page.getByTestId('cost-tokens-in')).toHaveAttribute('data-estimated', 'true');
  });
});

test('an abstention says why in one line', async ({ page, request }) => {
  const off = await runToEnd(request, { method: 'kg-rag', question: LIST_QUESTION, switches: { kg: false, doc: false, web: false, param: false } });
  await page.goto(`/runs/${off.id}`);
  await expect(page.getByTestId('run-answer')).toHaveText('abstained (no answer)');
  await expect(page.getByTestId('abstention-reason')).toContainText('The kg switch was off');
  await expect(page.getByTestId('partial-note')).toHaveCount(0);
});

test('a long answer and a long question stay readable without pushing the evidence off the first screen', async ({ page, request }) => {
  test.setTimeout(180_000);
  // BioWeave lists every gene of a well-studied disease: a hundred and more names.
  const list = await runToEnd(request, { method: 'bioweave', question: 'Which genes are associated with multiple sclerosis?' });
  await page.goto(`/runs/${list.id}`);
  const answer = page.getByTestId('run-answer');
  await expect(answer).toHaveAttribute('data-expanded', 'false');
  const clamped = (await answer.boundingBox())!.height;
  await expectOnFirstScreen(page, 'run-answer-box');
  await expectOnFirstScreen(page, 'cited-record');
  await page.getByTestId('run-answer-toggle').click();
  await expect(answer).toHaveAttribute('data-expanded', 'true');
  expect((await answer.boundingBox())!.height).toBeGreaterThan(clamped * 2);

  const question = `${'A patient with a long history of several chronic conditions presents with new symptoms that worsen over weeks. '.repeat(4)}Which genes are associated with multiple sclerosis?`;
  const long = await runToEnd(request, { method: 'kg-rag', question });
  await page.goto(`/runs/${long.id}`);
  const heading = page.getByTestId('run-question');
  const closed = (await heading.boundingBox())!.height;
  await page.getByTestId('run-question-toggle').click();
  await expect(heading).toHaveAttribute('data-expanded', 'true');
  expect((await heading.boundingBox())!.height).toBeGreaterThan(closed);
  await expect(heading).toHaveText(question);
});

test('an answer given with channels switched off says which, beside the answer', async ({ page, request }) => {
  const run = await runToEnd(request, {
    method: 'xr2',
    question: "Which of the following genes is associated with Parkinson's disease?",
    options: { A: 'SNCA', B: 'INS', C: 'ALB', D: 'HBB' },
    switches: { doc: false, web: false },
  });
  await page.goto(`/runs/${run.id}`);
  await expect(page.getByTestId('run-answer')).not.toHaveText('abstained (no answer)');
  await expect(page.getByTestId('answer-switches-off')).toHaveText('Answered with these channels switched off: doc, web.');
  await expectOnFirstScreen(page, 'answer-switches-off');
});

test("an answer shaped by Hopscope's aids says which, beside the answer, in the switch bar and among the declared deviations", async ({ page, request }) => {
  const run = await runToEnd(request, { method: 'kg-rag', question: 'How many diseases does metformin treat?', switches: { aids: true } });
  await page.goto(`/runs/${run.id}`);
  const aids = page.getByTestId('answer-aids');
  await expect(aids).toContainText('Shaped by Hopscope aids');
  await expect(aids).toHaveAttribute('data-aids', /(^|,)answer-set(,|$)/);
  await expect(page.getByTestId('run-switches').locator('[data-switch="aids"]')).toHaveAttribute('data-on', 'true');
  await expect(page.getByTestId('run-deviations')).toContainText('Hopscope aid on (not in the paper): answer-set');
});

test('the ask form shows the question-length limit and refuses a longer question without cutting it', async ({ page }) => {
  await page.goto('/');
  const long = `Which genes are associated with asthma? ${'Background sentence about the disease. '.repeat(120)}`.trim();
  expect(long.length).toBeGreaterThan(4000);
  await page.getByLabel('Question', { exact: true }).fill(long);
  await expect(page.getByLabel('Question', { exact: true })).toHaveValue(long);
  const length = page.getByTestId('question-length');
  await expect(length).toHaveAttribute('data-over', 'true');
  await expect(length).toContainText('/ 4,000 characters');
  await page.getByLabel('Model backend').selectOption('offline');
  await page.getByTestId('ask-submit').click();
  await expect(page.getByTestId('ask-question-error')).toContainText('at most 4,000 characters');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByLabel('Question', { exact: true })).toHaveValue(long);
});

/**
 * "What did this run conclude, from which evidence, and why not more?" from the
 * first screen (1440×900), for every method: the answer box, the evidence the
 * answer cites and the answer's graph are all in view without scrolling.
 */
/** Method tables too wide for the panel beside the trace: the step kind and the table's test id. */
const WIDE_TABLES: Record<string, [kind: string, table: string, narrowKind: string]> = {
  bioweave: ['bioweave.verify', 'scoring-table', 'bioweave.init'],
  regram: ['regram.mmr', 'candidate-table', 'regram.read'],
};

test.describe('The first screen of a run page', () => {
  for (const method of ['direct', 'cot', 'kg-rag', 'xr2', 'regram', 'bioweave', 'eigen1']) {
    test(`${method}: the answer, the evidence it cites and its graph, without scrolling`, async ({ page, request }, testInfo) => {
      test.setTimeout(180_000);
      const run = await runToEnd(request, { method, question: LIST_QUESTION });
      await page.goto(`/runs/${run.id}`);
      await expect(page.getByTestId('run-answer')).toBeVisible();
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      await expectOnFirstScreen(page, 'run-answer-box');
      const cited = page.getByTestId('cited-evidence');
      const count = Number(await cited.getAttribute('data-cited'));
      if (count > 0) {
        await expectOnFirstScreen(page, 'cited-record');
        await expect(page.getByTestId('claim').first()).toBeVisible();
      } else {
        await expectOnFirstScreen(page, 'cited-none');
      }
      const summary = page.getByTestId('graph-summary');
      if (Number(await summary.getAttribute('data-nodes')) > 0) {
        await expect(page.getByTestId('run-graph-count')).toHaveAttribute('data-nodes', /^[1-9]\d*$/, { timeout: 30_000 });
        await expectOnFirstScreen(page, 'run-graph');
      } else {
        await expectOnFirstScreen(page, 'graph-summary');
      }
      await page.screenshot({ path: testInfo.outputPath(`first-screen-${method}.png`) });

      // Its widest method table opens at full width, every metric column in view.
      const wide = WIDE_TABLES[method];
      if (wide) {
        const step = run.steps.find((s) => s.kind === wide[0])!;
        await page.goto(`/runs/${run.id}?step=${step.ordinal}`);
        await expect(page.getByTestId('step-panel')).toHaveAttribute('data-wide', 'true');
        await expectNoClippedColumn(page, page.getByTestId(wide[1]));
        await page.getByTestId('step-panel').scrollIntoViewIfNeeded();
        await page.screenshot({ path: testInfo.outputPath(`wide-table-${method}.png`) });
        // A step with nothing wide goes back beside the trace.
        await page.locator(`[data-step-row][data-kind="${wide[2]}"]`).first().click();
        await expect(page.getByTestId('step-detail')).toHaveAttribute('data-kind', wide[2]);
        await expect(page.getByTestId('step-panel')).toHaveAttribute('data-wide', 'false');
      }
    });
  }
});

test('an EIGEN-1 aside names the records it cites by their number, each opening the record, never by a raw id', async ({ page, request }) => {
  const run = await runToEnd(request, { method: 'eigen1', question: 'Which genes are associated with multiple sclerosis?' });
  const injection = run.steps.find((s) => s.kind === 'eigen1.injection');
  expect(injection, 'the offline monitor asked for retrieval at least once').toBeTruthy();
  await page.goto(`/runs/${run.id}?step=${injection!.ordinal}`);
  const aside = page.getByTestId('step-detail').getByTestId('injected-span');
  await expect(aside).toContainText('I found that');
  const cited = aside.getByTestId('cited-record');
  expect(await cited.count()).toBeGreaterThan(0);
  await expect(cited.first()).toHaveText(/^#\d+$/);
  // No record id is left in the text as written.
  expect(await aside.innerText()).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
  const ordinal = (await cited.first().innerText()).slice(1);
  await cited.first().click();
  const provenance = page.getByTestId('evidence-provenance');
  await expect(provenance).toBeVisible();
  await expect(provenance).toContainText(`#${ordinal}`);
});

test('the home page and the KG browser name the graph that is loaded, as the health endpoint reports it', async ({ page, request }) => {
  const health = (await (await request.get('/api/health')).json()) as { kg: { source: string | null } | null };
  const source = health.kg?.source ?? null;
  for (const path of ['/', '/kg']) {
    await page.goto(path);
    const name = page.getByTestId('loaded-graph');
    if (source === 'demo') await expect(name).toHaveText('demo graph (not Hetionet)');
    else if (source === 'hetionet') await expect(name).toHaveText(/^Hetionet \S+$/);
    else await expect(name).toContainText(source ?? 'the loaded knowledge graph');
  }
});
