import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';

/**
 * Question sets from the `/eval` page: generated from the KG, or imported from
 * a file, with a rejected file's problems named by line and nothing stored.
 */
const FIXTURES = path.resolve('tests/fixtures/eval');

test('generate a BioMedHop set from /eval; it becomes the start form choice', async ({ page }) => {
  test.setTimeout(120_000);
  const name = `e2e-gen-${Date.now()}`;
  await page.goto('/eval');
  const form = page.getByRole('form', { name: 'Generate a question set' });
  await form.getByLabel('BioMedHop (multi-hop questions over the KG)').check();
  await form.getByLabel('Name', { exact: true }).fill(name);
  await form.getByLabel('Questions', { exact: true }).fill('4');
  await form.getByLabel('Seed').fill('e2e');
  // The source condition: each question carries the document bundle of KG + documents only.
  await form.getByRole('group', { name: 'Evidence sources (condition)' }).getByLabel('web').uncheck();
  await form.getByRole('button', { name: 'Generate set' }).click();
  await expect(page.getByTestId('set-created')).toContainText(`${name}`, { timeout: 90_000 });
  await expect(page.getByTestId('set-created')).toContainText('4 questions');
  await expect(page).toHaveURL(new RegExp(`[?&]set=${name}`));
  await expect(page.getByRole('form', { name: 'Start an evaluation' }).getByLabel('Question set')).toHaveValue(name);

  // K2V takes no families: choosing it hides them, and the set is stored as a K2V set.
  await form.getByLabel('K2V (fill in the masked entity of a 2-hop path)').check();
  await expect(form.getByRole('group', { name: 'Families' })).toHaveCount(0);
});

test('a malformed file is rejected with its problems by line, and nothing is stored', async ({ page }) => {
  await page.goto('/eval');
  await page.getByRole('tab', { name: 'Import a file' }).click();
  const form = page.getByRole('form', { name: 'Import a question set' });
  await form.getByLabel('Format').selectOption('jsonl');
  const name = `e2e-bad-${Date.now()}`;
  await form.getByLabel('Name').fill(name);
  await form.getByLabel(/^File/).setInputFiles(path.join(FIXTURES, 'questions-malformed.jsonl'));
  await form.getByRole('button', { name: 'Import set' }).click();
  const error = page.getByTestId('set-form-error');
  await expect(error).toContainText(/\d+ problems? found in the file; nothing was imported/);
  await expect(page.getByTestId('set-form-issues')).toContainText('line 4: not JSON');
  await expect(page.getByRole('form', { name: 'Start an evaluation' }).locator(`option[value="${name}"]`)).toHaveCount(0);

  // Without a file the form says so.
  await form.getByLabel(/^File/).setInputFiles([]);
  await form.getByRole('button', { name: 'Import set' }).click();
  await expect(error).toContainText('Choose a file to import.');
});

test('a valid JSONL file is imported under the file name when no name is given', async ({ page }) => {
  await page.goto('/eval');
  await page.getByRole('tab', { name: 'Import a file' }).click();
  const form = page.getByRole('form', { name: 'Import a question set' });
  await form.getByLabel('Format').selectOption('jsonl');
  // A file name of its own: a name in use is refused (never replaced silently), and the database may be reused.
  const stem = `questions-${Date.now()}`;
  await form
    .getByLabel(/^File/)
    .setInputFiles({ name: `${stem}.jsonl`, mimeType: 'application/jsonl', buffer: fs.readFileSync(path.join(FIXTURES, 'questions.jsonl')) });
  await form.getByRole('button', { name: 'Import set' }).click();
  await expect(page.getByTestId('set-created')).toContainText(`${stem} (jsonl`);
  await expect(page.getByRole('form', { name: 'Start an evaluation' }).getByLabel('Question set')).toHaveValue(stem);
});
