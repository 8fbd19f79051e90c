// `npx tsx scripts/screenshot.ts [--base-url URL] [--out docs/run-page.png]`: the README's picture of a run
// page, taken from the real app. Against a running server (`npm start`, or `npm run start:test`, whose port is
// HOPSCOPE_E2E_PORT, 3100 by default): starts an offline ReGraM run through the API, waits for it to end, opens
// its page in Chromium (Debian's, as the browser tests use; CHROMIUM_PATH overrides) and saves the first screen.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { z } from 'zod';

const QUESTION = "Which genes are associated with both multiple sclerosis and Crohn's disease?";
const VIEWPORT = { width: 1440, height: 900 };

const { values } = parseArgs({
  options: {
    'base-url': { type: 'string', default: `http://127.0.0.1:${process.env.HOPSCOPE_E2E_PORT ?? '3100'}` },
    out: { type: 'string', default: 'docs/run-page.png' },
  },
});
const baseUrl = values['base-url']!;

async function api<T>(schema: z.ZodType<T>, url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(new URL(url, baseUrl), init);
  if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${url}: ${response.status} ${await response.text()}`);
  return schema.parse(await response.json());
}

async function finishedRun(): Promise<string> {
  const { id } = await api(z.object({ id: z.string() }), '/api/runs', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ method: 'regram', question: QUESTION, backend: 'offline' }),
  });
  for (let waited = 0; waited < 180_000; waited += 500) {
    const { status } = await api(z.object({ status: z.string() }), `/api/runs/${id}/view`);
    if (status === 'succeeded') return id;
    if (['failed', 'cancelled'].includes(status)) throw new Error(`run ${id} ended ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`run ${id} did not finish in 3 minutes`);
}

async function main() {
  const id = await finishedRun();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: VIEWPORT });
    await page.goto(new URL(`/runs/${id}`, baseUrl).href);
    // The run graph is drawn once Cytoscape has laid it out and set its zoom.
    await page.getByTestId('run-graph-count').waitFor();
    await page.waitForFunction(() => /^\d/.test(document.querySelector('[data-testid="run-graph-count"]')?.getAttribute('data-zoom') ?? ''));
    await page.waitForLoadState('networkidle');
    const out = path.resolve(values.out!);
    await page.screenshot({ path: out });
    console.log(`run ${id}: ${out}`);
  } finally {
    await browser.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
