import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../../lib/base/free-port';
import { chromium, type Browser } from 'playwright-core';
import { deleteRuns } from '../../lib/runs/store/runs';
import { executeRun } from '../../lib/runs/executor';
import { createRun } from '../../lib/runs/service';
import { ensureBuild } from '../next-build';
import { percentile, round } from './timing';
import type { BenchModule } from './types';

/** A question whose kg-rag run draws about 300 graph elements (two anchors, 75 neighbours each). */
const QUESTION = 'Which disease is treated by metformin and is associated with the gene PPARG?';
const PARAMS = { neighbourhoodLimit: 75 };
const LOADS = 7;

/**
 * `run_page_interactive_ms`: the run page of a finished run, loaded cold in a
 * fresh Chromium context, until it is interactive, i.e. hydrated and the
 * evidence graph laid out and drawn (the graph reports its element counts).
 * Measured from navigation start with the production build (`next start`).
 * The budget: under 2 s with ~300 graph elements.
 */
export const runPage: BenchModule = {
  name: 'run page load (Playwright, Chromium)',
  flag: 'page',
  help: 'a finished run page loaded cold in Chromium until interactive, from the production build (built first when stale: several minutes on 2 cores)',
  async run({ log }) {
    const { id } = await createRun({ method: 'kg-rag', question: QUESTION, backend: 'offline', params: PARAMS }, { enqueue: false });
    let server: ChildProcess | null = null;
    try {
      await executeRun(id);
      // next build's output goes to stderr, so that --json keeps stdout clean.
      ensureBuild({ stdio: ['ignore', 2, 2], log });
      const port = await freePort();
      server = spawn('npx', ['next', 'start', '-p', String(port), '-H', '127.0.0.1'], {
        env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
        stdio: ['ignore', 'ignore', 'inherit'],
        detached: true,
      });
      const base = `http://127.0.0.1:${port}`;
      await waitForHealth(base);
      // What the first response carries (the first screen) beside the whole view the page fetches after it.
      const [pageKb, viewKb] = await Promise.all([`${base}/runs/${id}`, `${base}/api/runs/${id}/view`].map(responseKb));

      const browser = await chromium.launch({
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        args: ['--headless', '--no-sandbox', '--disable-gpu'],
      });
      try {
        // The page as it opens (the graph shows the answer's evidence), and with the whole run's graph (`?view=all`, folded into groups).
        const opened = await coldLoads(browser, `${base}/runs/${id}`);
        const whole = await coldLoads(browser, `${base}/runs/${id}?view=all`);
        log(
          `run page: p50 ${round(percentile(opened.samples, 50))} ms (${opened.elements} graph elements), whole-run graph ${round(percentile(whole.samples, 50))} ms (${whole.elements} elements drawn)`,
        );
        return [
          {
            type: 'value',
            label: 'run page first response (HTML)',
            key: 'run_page_first_response_kb',
            value: round(pageKb),
            unit: 'KB',
            note: `GET /runs/{id} of the finished run: its first screen; the whole view, fetched after hydration, is ${round(viewKb)} KB (run_view_kb)`,
          },
          { type: 'value', label: 'run view (fetched after the first screen)', key: 'run_view_kb', value: round(viewKb), unit: 'KB' },
          {
            type: 'value',
            label: 'run page first screen (finished run)',
            key: 'run_page_first_screen_ms',
            value: round(percentile(opened.firstScreen, 50), 0),
            unit: 'ms',
            note: `p50 of ${opened.firstScreen.length} cold loads until the answer box is in the document (p95 ${round(percentile(opened.firstScreen, 95), 0)} ms)`,
          },
          {
            type: 'value',
            label: 'run page interactive (finished run)',
            key: 'run_page_interactive_ms',
            value: round(percentile(opened.samples, 50), 0),
            unit: 'ms',
            note: `p50 of ${opened.samples.length} cold loads (p95 ${round(percentile(opened.samples, 95), 0)} ms), ${opened.elements} graph elements drawn; budget 2000 ms`,
          },
          {
            type: 'value',
            label: 'run page interactive, whole-run graph (?view=all)',
            key: 'run_page_interactive_all_ms',
            value: round(percentile(whole.samples, 50), 0),
            unit: 'ms',
            note: `p50 of ${whole.samples.length} cold loads (p95 ${round(percentile(whole.samples, 95), 0)} ms), ${whole.elements} graph elements drawn`,
          },
        ];
      } finally {
        await browser.close();
      }
    } finally {
      if (server?.pid) {
        try {
          process.kill(-server.pid, 'SIGTERM'); // the whole group: npx and next-server
        } catch {
          // already gone
        }
      }
      await deleteRuns([id]).catch(() => undefined);
    }
  },
};

async function waitForHealth(base: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the app did not answer on ${base} within ${timeoutMs / 1000} s`);
}

/** Kilobytes of a GET's body. */
async function responseKb(url: string): Promise<number> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return (await response.arrayBuffer()).byteLength / 1024;
}

/**
 * Cold loads of one URL in fresh contexts, until the answer box is in the document (`firstScreen`) and until the graph
 * reports what it drew (`samples`); the first load only warms the server.
 */
async function coldLoads(browser: Browser, url: string): Promise<{ samples: number[]; firstScreen: number[]; elements: number }> {
  const samples: number[] = [];
  const firstScreen: number[] = [];
  let elements = 0;
  for (let i = 0; i <= LOADS; i++) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'commit' });
    const answerAt = await (
      await page.waitForFunction(() => document.querySelector('[data-testid="run-answer-box"]') && performance.now(), undefined, {
        polling: 'raf',
        timeout: 60_000,
      })
    ).jsonValue();
    await page.waitForFunction(() => !!document.querySelector('[data-testid="run-graph-count"]')?.getAttribute('data-nodes'), undefined, {
      polling: 'raf',
      timeout: 60_000,
    });
    const [ms, counts] = await page.evaluate(() => {
      const el = document.querySelector('[data-testid="run-graph-count"]')!;
      return [performance.now(), Number(el.getAttribute('data-nodes')) + Number(el.getAttribute('data-edges'))] as const;
    });
    elements = counts;
    if (i > 0) {
      samples.push(ms);
      firstScreen.push(Number(answerAt));
    }
    await context.close();
  }
  return { samples, firstScreen, elements };
}
