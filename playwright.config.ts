import { defineConfig, devices } from '@playwright/test';

/**
 * Browser tests. By default Playwright starts the app with `npm run start:test`
 * (build if needed, test database with the KG loaded, port 3100 or HOPSCOPE_E2E_PORT) or reuses one
 * already serving there. With E2E_BASE_URL set, the tests run against that server
 * and none is started.
 *
 * Playwright's own browser download is impossible here: Debian's chromium is used.
 */
const E2E_PORT = process.env.HOPSCOPE_E2E_PORT ?? '3100';
const DEFAULT_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
const externalServer = process.env.E2E_BASE_URL;
const baseURL = externalServer ?? DEFAULT_BASE_URL;

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1440, height: 900 },
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
  webServer: externalServer
    ? undefined
    : {
        command: 'npm run start:test',
        url: `${DEFAULT_BASE_URL}/api/health`,
        reuseExistingServer: true,
        timeout: 600_000,
        stdout: 'pipe',
        stderr: 'pipe',
      },
});
