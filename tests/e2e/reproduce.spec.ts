import { spawnSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { embeddedUrl } from '../../lib/db/embedded';
import { TEST_DATABASE, TEST_PG_DIR, TEST_PG_PORT } from '../support/test-db';

/**
 * The reproduction catalogue: every seed paper has a table on /reproduce; one
 * click runs it on a generated set as an evaluation job (offline engine), the
 * table fills in beside the paper's figures, labelled as offline-engine
 * figures, and its cells open runs whose traces show the ablated component off.
 */
const SET = 'e2e-reproduce';
const DATABASE_URL = process.env.E2E_DATABASE_URL ?? embeddedUrl({ dir: TEST_PG_DIR, port: TEST_PG_PORT, database: TEST_DATABASE });

test.beforeAll(() => {
  test.setTimeout(180_000);
  const generated = spawnSync(
    'npx',
    ['tsx', 'scripts/hopscope.ts', 'generate', 'biomedhop', '--seed', 'e2e-reproduce', '--count', '3', '--name', SET, '--replace'],
    {
      env: { ...process.env, DATABASE_URL },
      encoding: 'utf8',
    },
  );
  expect(generated.status, generated.stderr).toBe(0);
});

test('lists a table for every seed paper', async ({ page }) => {
  await page.goto('/reproduce');
  for (const paper of ['X-R2', 'ReGraM', 'BioWeave', 'EIGEN-1', 'K2V']) {
    await expect(page.getByRole('heading', { name: new RegExp(`^${paper} `) }).first()).toBeVisible();
  }
});

test('runs ReGraM Table 9 in one click and links each cell to a run with MMR off', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto('/reproduce');
  const form = page.getByRole('form', { name: /ReGraM \(regram\.txt\) Table 9/ });
  await form.getByLabel('Question set').selectOption(SET);
  await form.getByLabel('Backend').selectOption('offline');
  await form.getByRole('button', { name: 'Run this table' }).click();

  await expect(page).toHaveURL(/\/reproduce\/[^/?]+$/);
  await expect(page.getByTestId('job-status')).toHaveText('succeeded', { timeout: 240_000 });
  await expect(page.getByTestId('engine')).toHaveText('offline engine (no language model)');

  const row = page.locator('tr[data-row="w/o MMR"]');
  await expect(row).toContainText('"mmr":false');
  // The paper's figure stands beside ours.
  await expect(row).toContainText('25.3');
  const cell = row.locator('a[data-metric="accuracy"]');
  const href = await cell.getAttribute('href');
  expect(href).toMatch(/^\/runs\//);

  const runId = href!.split('/').pop()!;
  const run = await (await page.request.get(`/api/runs/${runId}`)).json();
  expect(run.config.params.mmr).toBe(false);
  const mmrSteps = run.steps.filter((s: { kind: string }) => s.kind === 'regram.mmr');
  expect(mmrSteps.length).toBeGreaterThan(0);
  for (const s of mmrSteps) expect(s.label).toBe('Top-K by relevance (w/o MMR)');

  // Following the cell, the run page says the ablated component is off, beside the paper's default.
  await cell.click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}$`));
  await expect(page.locator('[data-param="mmr"]')).toHaveText('mmr off (paper: on)');
  // The method's remaining deviations from its paper are listed with the run.
  await page.getByTestId('run-deviations').locator('summary').click();
  await expect(page.getByTestId('run-deviations')).toContainText("stands in for the paper's LoRA-tuned classifier");
});

/**
 * One table per other seed, one question each: one click, the job finishes, a
 * cell opens a run whose page shows the row's component off.
 */
const ONE_PER_SEED: { name: string; form: RegExp; row: string; tokens?: boolean; marker: (page: import('@playwright/test').Page) => Promise<void> }[] = [
  {
    name: 'X-R2 Table 2',
    form: /X-R2 \(xr2\.txt\) Table 2/,
    row: 'w/o KG',
    marker: (page) => expect(page.locator('[data-switch="kg"]')).toHaveAttribute('data-on', 'false'),
  },
  {
    name: 'BioWeave Table 8',
    form: /BioWeave \(bioweave-biomedhop\.txt\) Table 8/,
    row: 'w/o entity normalization',
    tokens: true,
    marker: (page) => expect(page.locator('[data-param="entityNormalisation"]')).toHaveText('entityNormalisation off (paper: on)'),
  },
  {
    name: 'EIGEN-1 Table 3 (b)',
    form: /EIGEN-1 \(eigen1\.txt\) Table 3 \(b\)/,
    row: '– (Monitor, Querier, Injector)',
    tokens: true,
    marker: (page) => expect(page.locator('[data-param="monitor"]')).toHaveText('monitor off (paper: on)'),
  },
  { name: 'K2V reward forms', form: /K2V \(k2v\.txt\)/, row: 'X-R2 runs', marker: (page) => expect(page.getByTestId('k2v-panel')).toBeVisible() },
];

for (const table of ONE_PER_SEED) {
  test(`runs ${table.name} in one click; its "${table.row}" cell opens a run that shows it`, async ({ page }) => {
    test.setTimeout(300_000);
    await page.goto('/reproduce');
    const form = page.getByRole('form', { name: table.form });
    await form.getByLabel('Question set').selectOption(SET);
    await form.getByLabel('Questions (sample)').fill('1');
    await form.getByLabel('Backend').selectOption('offline');
    await form.getByRole('button', { name: 'Run this table' }).click();
    await expect(page).toHaveURL(/\/reproduce\/[^/?]+$/);
    await expect(page.getByTestId('job-status')).toHaveText('succeeded', { timeout: 240_000 });
    await expect(page.getByTestId('engine')).toHaveText('offline engine (no language model)');
    const row = page.locator(`tr[data-row="${table.row}"]`);
    // Offline tokens are estimates, marked ≈ as on the evaluation pages.
    if (table.tokens) await expect(row.locator('a[data-metric="avgTokensK"] [data-estimate="true"]')).toHaveText(/^≈\d/);
    await row.locator('a[data-metric]').first().click();
    await expect(page).toHaveURL(/\/runs\/[^/?]+$/);
    await table.marker(page);
  });
}
