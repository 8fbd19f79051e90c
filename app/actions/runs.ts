'use server';

import { revalidatePath } from 'next/cache';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { mapError } from '@/lib/api/errors';
import { assertRunAccess, ownerOf } from '@/lib/auth/access';
import { viewerFor } from '@/lib/auth/viewer';
import { describeMethods } from '@/lib/methods/descriptors';
import { ATTRIBUTION_GRID, questionAttribution } from '@/lib/runs/attribution';
import { InvalidInputError } from '@/lib/base/errors';
import { BROWSER_RUNS_COOKIE, BROWSER_RUNS_MAX_AGE_S, rememberRun } from '@/lib/runs/browser-runs';
import { rerunRequestFromForm, runRequestFromForm } from '@/lib/runs/form';
import { getRunMethod } from '@/lib/runs/view';
import { cancelRun, createRun, rerun } from '@/lib/runs/service';
import { verifyRun } from '@/lib/runs/verify';

/** What a run form shows after a failed submission: a message and the fields it concerns. */
export interface ActionState {
  message: string | null;
  fieldErrors: Record<string, string>;
}

const RunIdSchema = z.string().min(1).max(64);

/** Errors become a form state through the same mapping as the JSON routes (lib/api/errors). */
function failed(error: unknown, what: string): ActionState {
  const mapped = mapError(error);
  if (mapped.internal) {
    console.error(`[action] ${what} failed:`, error);
    return {
      message: `${what} failed: the server could not finish the request. Check that the database and the run queue are up, then try again.`,
      fieldErrors: {},
    };
  }
  const fieldErrors: Record<string, string> = {};
  for (const issue of mapped.body.issues ?? []) fieldErrors[issue.path || 'form'] ??= issue.message;
  return { message: mapped.body.error, fieldErrors };
}

/** "Recent runs" on the ask page lists the runs this browser started: remember this one. */
async function rememberInBrowser(id: string): Promise<void> {
  const jar = await cookies();
  jar.set(BROWSER_RUNS_COOKIE, rememberRun(jar.get(BROWSER_RUNS_COOKIE)?.value, id), {
    path: '/',
    sameSite: 'lax',
    httpOnly: true,
    maxAge: BROWSER_RUNS_MAX_AGE_S,
  });
}

function paramsOf(methodId: unknown) {
  return describeMethods().find((m) => m.id === methodId)?.params ?? [];
}

/** The ask form: start a run and open its page. */
export async function startRunAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  let id: string;
  try {
    const viewer = await viewerFor();
    ({ id } = await createRun(runRequestFromForm(form, paramsOf(form.get('method'))), { ownerId: ownerOf(viewer) }));
  } catch (error) {
    return failed(error, 'Starting the run');
  }
  await rememberInBrowser(id);
  revalidatePath('/');
  redirect(`/runs/${id}`);
}

/** The rerun form of a run page: the same question with flipped switches or changed parameters. */
export async function rerunAction(parentId: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  let id: string;
  try {
    const viewer = await viewerFor();
    await assertRunAccess(viewer, RunIdSchema.parse(parentId));
    const method = await getRunMethod(parentId);
    ({ id } = await rerun(parentId, rerunRequestFromForm(form, paramsOf(method)), { ownerId: ownerOf(viewer) }));
  } catch (error) {
    return failed(error, 'Starting the rerun');
  }
  await rememberInBrowser(id);
  revalidatePath(`/runs/${parentId}`);
  redirect(`/runs/${id}`);
}

export async function cancelRunAction(runId: string): Promise<ActionState> {
  try {
    await assertRunAccess(await viewerFor(), RunIdSchema.parse(runId));
    await cancelRun(runId);
  } catch (error) {
    return failed(error, 'Cancelling the run');
  }
  revalidatePath(`/runs/${runId}`);
  return { message: null, fieldErrors: {} };
}

/** K2V checklist verification of a finished run, recorded as the run's next verification (the run itself is unchanged). */
export async function verifyRunAction(runId: string): Promise<ActionState> {
  try {
    await assertRunAccess(await viewerFor(), RunIdSchema.parse(runId));
    await verifyRun(runId);
  } catch (error) {
    return failed(error, 'Verifying the run');
  }
  revalidatePath(`/runs/${runId}`);
  return { message: null, fieldErrors: {} };
}

/**
 * Runs the configurations of X-R2's attribution grid (full, kg / entity /
 * param off, doc only) that the run's question has not been run under yet,
 * as reruns of this run.
 */
export async function runAttributionGridAction(runId: string): Promise<ActionState> {
  try {
    const id = RunIdSchema.parse(runId);
    const viewer = await viewerFor();
    await assertRunAccess(viewer, id);
    const attribution = await questionAttribution(id);
    for (const slot of attribution.grid) {
      if (slot.run) continue;
      const switches = ATTRIBUTION_GRID.find((g) => g.name === slot.name)!.switches;
      try {
        await rerun(id, { switches, kgShuffle: false }, { ownerId: ownerOf(viewer) });
      } catch (error) {
        // This run already is that configuration.
        if (!(error instanceof InvalidInputError)) throw error;
      }
    }
  } catch (error) {
    return failed(error, 'Running the attribution grid');
  }
  revalidatePath('/compare', 'layout');
  return { message: null, fieldErrors: {} };
}
