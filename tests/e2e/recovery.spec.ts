import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { TEST_PG_DIR } from '../support/test-db';

/**
 * Recovery without a person: the embedded PostgreSQL of the running app
 * (started by `npm run start:test`, the launcher) is killed outright while runs
 * are in flight. The launcher restarts it, the web server and the workers
 * reconnect, and every run ends — succeeded, or failed with a recorded
 * reason other than the restart itself — with nobody stepping in.
 */
test.skip(!!process.env.E2E_BASE_URL, 'needs the app started by the launcher beside its embedded database');

const FINISHED = ['succeeded', 'failed', 'cancelled'];

/** The pid postmaster.pid names, or null while the file is missing or being rewritten. */
function runningPostmaster(): number | null {
  try {
    const pid = Number(fs.readFileSync(path.join(TEST_PG_DIR, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

test('killing the database mid-run: the app serves again and every run finishes or fails with its reason', async ({ request, page }) => {
  test.setTimeout(180_000);
  // A retry may start while an earlier attempt's restart is still under way.
  await expect.poll(async () => (await request.get('/api/health')).status(), { timeout: 60_000, intervals: [500] }).toBe(200);
  const ids: string[] = [];
  const submitRuns = async () => {
    for (const method of ['eigen1', 'bioweave', 'regram', 'xr2', 'eigen1', 'bioweave', 'kg-rag', 'regram']) {
      const response = await request.post('/api/runs', { data: { method, question: 'Which diseases does metformin treat?', backend: 'offline' } });
      expect(response.status()).toBe(201);
      ids.push((await response.json()).id);
    }
  };
  await submitRuns();
  // A run the API acknowledged that the restarted database no longer holds reads as 'missing'.
  const statuses = async () =>
    Promise.all(
      ids.map(async (id) => {
        const response = await request.get(`/api/runs/${id}`);
        return response.status() === 404 ? 'missing' : ((await response.json()).status as string);
      }),
    );
  // The kill must land while a run is in flight. Offline runs take tens of milliseconds, so all eight can end
  // before a poll sees one running: then another eight go in (at most 40 runs in all).
  await expect
    .poll(
      async () => {
        if ((await statuses()).includes('running')) return true;
        if (ids.length < 40) await submitRuns();
        return false;
      },
      { timeout: 30_000, intervals: [50] },
    )
    .toBe(true);

  // kill -9 the postmaster: its pid is the first line of postmaster.pid.
  const postmaster = runningPostmaster();
  expect(postmaster).not.toBeNull();
  process.kill(postmaster!, 'SIGKILL');
  const killedAt = Date.now();

  // The app answers again once the launcher has restarted the database. The
  // old server's backends can still answer for a moment after the kill, so a
  // 200 counts only once a new postmaster has taken over.
  await expect
    .poll(
      async () => {
        const now = runningPostmaster();
        if (now === null || now === postmaster) return 'the old postmaster, or none yet';
        return (await request.get('/api/health')).status();
      },
      { timeout: 60_000, intervals: [500] },
    )
    .toBe(200);

  // Every run ends, none is left running or queued.
  await expect.poll(async () => (await statuses()).every((s) => [...FINISHED, 'missing'].includes(s)), { timeout: 90_000, intervals: [1_000] }).toBe(true);
  expect(await statuses(), 'a run the API acknowledged before the kill was lost with it').not.toContain('missing');
  for (const id of ids) {
    const run = await (await request.get(`/api/runs/${id}`)).json();
    if (run.status === 'succeeded') expect(run.answer).toBeTruthy();
    else expect(run.error, `run ${id} ${run.status} without a reason`).toBeTruthy();
    // A lost database interrupts a run; it is resumed, never failed for the database's sake.
    expect(run.error ?? '', `run ${id} failed for a restart it should have survived`).not.toMatch(/ECONNREFUSED|terminating connection|Can't reach database/);
  }
  console.log(`[recovery] all ${ids.length} runs finished ${Math.round((Date.now() - killedAt) / 1000)} s after the kill: ${(await statuses()).join(', ')}`);

  // Pages render again, and a new run goes through.
  await page.goto(`/runs/${ids[0]}`);
  await expect(page.getByTestId('run-page')).toBeVisible();
  const after = await request.post('/api/runs', { data: { method: 'kg-rag', question: 'Which diseases does metformin treat?', backend: 'offline' } });
  const { id } = await after.json();
  await expect.poll(async () => (await (await request.get(`/api/runs/${id}`)).json()).status, { timeout: 60_000 }).toBe('succeeded');
});
