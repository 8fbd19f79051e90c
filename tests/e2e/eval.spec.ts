import { spawnSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { embeddedUrl } from '../../lib/db/embedded';
import { TEST_DATABASE, TEST_PG_DIR, TEST_PG_PORT } from '../support/test-db';

/**
 * The evaluation pages against the running app: start a job from the form,
 * follow it to the end (the server's eval supervisor feeds the run workers),
 * then check every table and plot against the JSON the API serves, the matrix
 * links, the drill-down, the exports and the read-only share link.
 *
 * The question set is generated with the CLI into the app's database: the
 * test database unless E2E_DATABASE_URL names another.
 */
const SET = 'e2e-eval';
const DATABASE_URL = process.env.E2E_DATABASE_URL ?? embeddedUrl({ dir: TEST_PG_DIR, port: TEST_PG_PORT, database: TEST_DATABASE });

interface Score {
  method: string;
  config: string;
  accuracy: number | null;
  avgCalls: number | null;
}
interface View {
  id: string | null;
  shareId: string;
  status: string;
  summary: {
    scores: Score[];
    families: { rows: { method: string; config: string; overallAvg: number | null }[] };
    attribution: { bucketed: unknown[] } | null;
  };
}

const pct = (x: number | null) => (x === null ? '—' : (x * 100).toFixed(1));

test.beforeAll(() => {
  test.setTimeout(180_000);
  const generated = spawnSync(
    'npx',
    ['tsx', 'scripts/hopscope.ts', 'generate', 'biomedhop', '--seed', 'e2e-eval', '--count', '6', '--name', SET, '--replace'],
    {
      env: { ...process.env, DATABASE_URL },
      encoding: 'utf8',
    },
  );
  expect(generated.status, generated.stderr).toBe(0);
});

test('start an evaluation from the form, follow it, and read its results', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto('/eval');
  const form = page.getByRole('form', { name: 'Start an evaluation' });
  await form.getByLabel('Question set').selectOption(SET);
  for (const box of await form.locator('input[name="methods"]').all()) {
    const wanted = ['direct', 'kg-rag'].includes((await box.getAttribute('value'))!);
    if ((await box.isChecked()) !== wanted) await box.click();
  }
  await form.getByLabel('Switch configurations').fill('full,kg=0');
  await form.getByLabel('Backend').selectOption('offline');
  await form.getByRole('button', { name: 'Start evaluation' }).click();

  await expect(page).toHaveURL(/\/eval\/[^/?]+$/);
  const id = new URL(page.url()).pathname.split('/').pop()!;
  await expect(page.getByTestId('eval-progress')).toHaveAttribute('data-total', '24');
  await expect(page.getByTestId('eval-status')).toHaveText('succeeded', { timeout: 240_000 });
  await expect(page.getByTestId('eval-progress')).toHaveAttribute('data-done', '24');

  const view: View = await (await page.request.get(`/api/eval/${id}`)).json();
  expect(view.status).toBe('succeeded');

  // The score table shows the API's numbers, one row per method × configuration.
  const rows = page.getByTestId('score-row');
  await expect(rows).toHaveCount(4);
  for (const s of view.summary.scores) {
    const row = page.locator(`[data-testid="score-row"][data-method="${s.method}"][data-config="${s.config}"]`);
    await expect(row).toContainText(pct(s.accuracy));
    if ((s.avgCalls ?? 0) > 0) {
      // The offline engine reports no tokens: the table shows the run page's estimates, marked as such.
      const tokens = row.getByTestId('score-tokens');
      await expect(tokens).toHaveAttribute('data-estimated', 'true');
      await expect(tokens).toHaveText(/^≈[1-9]\d*$/);
    }
  }

  // The accuracy bars carry the same values; the scatter has a point per (merged) cell.
  const bars = page.getByTestId('accuracy-chart').getByTestId('bar');
  await expect(bars).toHaveCount(view.summary.scores.filter((s) => s.accuracy !== null).length);
  for (const s of view.summary.scores) {
    await expect(page.locator(`[data-testid="accuracy-chart"] [data-testid="bar"][data-group="${s.method}"][data-series="${s.config}"]`)).toHaveAttribute(
      'data-value',
      String(s.accuracy),
    );
  }
  expect(await page.getByTestId('cost-scatter').getByTestId('scatter-point').count()).toBeGreaterThan(0);

  // Family table: Overall Avg per row; the family chart is drawn.
  for (const r of view.summary.families.rows) {
    await expect(page.locator(`[data-testid="family-row"][data-method="${r.method}"][data-config="${r.config}"]`)).toHaveAttribute(
      'data-overall',
      String(r.overallAvg ?? ''),
    );
  }
  await expect(page.getByTestId('family-chart')).toBeVisible();
  // full + kg=0 is enough for X-R2's buckets.
  await expect(page.getByTestId('bucket-row')).toHaveCount(5);

  // The matrix: six questions × four runs, each cell a link to its run.
  const matrixRows = page.getByTestId('matrix-row');
  await expect(matrixRows).toHaveCount(6);
  const cells = page.locator('a[data-testid="matrix-cell"]');
  await expect(cells).toHaveCount(24);
  const firstRun = (await cells.first().getAttribute('data-run'))!;
  expect(await cells.first().getAttribute('href')).toBe(`/runs/${firstRun}`);

  // Drill-down of the first question: its four runs, the selection kept in the URL.
  await matrixRows.first().getByRole('button').click();
  await expect(page).toHaveURL(/[?&]q=/);
  const drill = page.getByTestId('question-drilldown');
  await expect(drill).toBeVisible();
  await expect(drill.getByTestId('drilldown-run')).toHaveCount(4);
  await expect(drill.getByTestId('drilldown-gold')).not.toHaveText('—');
  await page.reload();
  await expect(page.getByTestId('question-drilldown')).toBeVisible();

  // A cell opens its run.
  await page.locator(`a[data-run="${firstRun}"]`).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${firstRun}$`));
  await page.goBack();

  // Exports.
  const csv = await page.request.get(`/api/eval/${id}/export?format=csv&table=items`);
  expect(csv.headers()['content-type']).toContain('text/csv');
  expect((await csv.text()).trimEnd().split('\r\n')).toHaveLength(25);
  const scoresCsv = await page.request.get(`/api/eval/${id}/export?format=csv&table=scores`);
  expect((await scoresCsv.text()).trimEnd().split('\r\n')).toHaveLength(5);

  // The share link: the same tables, read-only, no job id.
  await page.getByTestId('share-link').click();
  await expect(page).toHaveURL(new RegExp(`/e/${view.shareId}$`));
  await expect(page.getByTestId('score-row')).toHaveCount(4);
  await expect(page.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Copy link' })).toHaveCount(0);
  await expect(page.getByText('A shared, read-only view of this evaluation.')).toBeVisible();
  const shared = await (await page.request.get(`/api/eval/share/${view.shareId}/export?format=json`)).json();
  expect(shared.id).toBeNull();
  expect(shared.items).toHaveLength(24);
});

test('an unknown evaluation or share link is a 404 page', async ({ page }) => {
  const response = await page.goto('/eval/no-such-evaluation');
  expect(response?.status()).toBe(404);
  await expect(page.getByTestId('eval-not-found')).toBeVisible();
  const shared = await page.goto('/e/no-such-link');
  expect(shared?.status()).toBe(404);
  await expect(page.getByTestId('eval-not-found')).toBeVisible();
});
