import { AIDS, type AidName, type AidUse } from '@/lib/channels/aid-names';
import { Channels } from '@/lib/channels';
import { ModelClient } from '@/lib/llm/client';
import { getMethod } from '@/lib/methods/registry';
import type { MethodAnswer } from '@/lib/methods/types';
import { GoldAnswerSchema, scoreAnswer } from '@/lib/eval/scoring';
import { isConnectionLoss } from '@/lib/db/connection-loss';
import { RunCancelledError, RunLeaseLostError, TraceRecorder } from '@/lib/trace/recorder';
import { errorMessage } from '@/lib/base/errors';
import { createBackend, createSimilarity, servableBackends, waitingFor } from './backend';
import { summariseCost } from './store/cost';
import { claimQueuedRun, queuedBackendKey, renewLease, storeEnded, succeededEnd, type ClaimedRun, type HeldRun, type RunOutcome } from './store/lease';
import { RunConfigSchema, RunInputSchema } from './schemas';
import { currentKgVersion } from '@/lib/kg/version';
import { loadMetagraph } from '@/lib/kg/loaded-metagraph';
import { readEnv } from '@/lib/config';

/** A running run's worker extends its lease this often. */
export const HEARTBEAT_MS = 2_000;

/**
 * How long a claim holds past the last heartbeat, per run (runs.lease_until, on
 * the database's clock): a dead worker's offline run is taken over within
 * seconds, while a model run's worker may stall (a long GC pause, a database
 * that hangs, a stopped process) for over a minute and still keep its run.
 */
export const LEASE_MS = { offline: 9_000, model: 75_000 } as const;

export function leaseMsFor(backendKey: string): number {
  return backendKey === 'offline' ? LEASE_MS.offline : LEASE_MS.model;
}

/**
 * Executes one run to the end: builds its channels and model client, calls the
 * method, then stores answer, scores and cost. A resumed run replays its
 * completed steps (see TraceRecorder). Never throws for a failed run: the run
 * ends as failed with the reason recorded. Returns the run's final status, or
 * null when this call did not end it: not claimed (another worker has it), or
 * interrupted by a lost database (left running; recovery resumes it).
 */
export async function executeRun(runId: string): Promise<'succeeded' | 'failed' | 'cancelled' | null> {
  // Only a queued run is claimed, and only by a process that serves the backend it needs: a running one belongs
  // to a live worker (recovery re-queues one whose lease ran out), another endpoint's waits for its own workers.
  const run = await claimRun(runId);
  if (!run) return null;
  const claimedAt = Date.now();
  // The claim is a lease: this worker's attempt number. Every write below is conditional on it (the trace's too),
  // and a heartbeat that finds the run no longer ours (taken over while this worker stalled) stops the run here.
  const ours: HeldRun = { id: runId, attempts: run.attempts };
  const leaseMs = leaseMsFor(run.backendKey);
  let owned = true;
  let heldAt = claimedAt;
  let failures = 0;
  const heartbeat = setInterval(() => {
    renewLease(ours, leaseMs)
      .then((held) => {
        if (!held) owned = false;
        heldAt = Date.now();
        failures = 0;
      })
      .catch((error) => {
        // Said, not swallowed: past the lease length without a heartbeat the run may be another worker's by now.
        failures++;
        console.error(`[runs] ${runId}: heartbeat failed (${failures} in a row): ${errorMessage(error)}`);
        if (Date.now() - heldAt > leaseMs) owned = false;
      });
  }, HEARTBEAT_MS);
  let trace: TraceRecorder | null = null;
  // The graph's version is read while the run works (once every few seconds it is a database read), not after its last call.
  const kgVersion = currentKgVersion();
  kgVersion.catch(() => undefined);
  try {
    const config = RunConfigSchema.parse(run.config);
    const input = RunInputSchema.parse(run.input);
    const method = getMethod(config.method);
    // The offline engine and the prompts read the graph's relations from its metagraph.
    await loadMetagraph();
    // A first attempt has no trace to resume.
    trace = await TraceRecorder.open(runId, {
      fresh: run.attempts === 1,
      stillOwned: () => owned,
      slowModel: config.backend.backend !== 'offline',
      // No step waits for its write: each would put a database round trip between calls.
      everyStepWaits: false,
      statusReadAt: claimedAt,
      lease: run.attempts,
    });
    const recorder = trace;
    // An embedding request is a model call of the step that asked for the similarity.
    const similarity = createSimilarity(config.backend, () => recorder.callRecorder(recorder.currentStep()));
    const model = new ModelClient(createBackend(config.backend), {
      citations: trace.citations,
      similarity,
      concurrency: readEnv().HOPSCOPE_MODEL_CONCURRENCY,
    });
    const channels = new Channels({
      switches: config.switches,
      kgShuffle: config.kgShuffle,
      question: { id: run.questionId, text: input.question },
      trace,
      model,
      documentIds: input.documentIds,
      documentOwner: run.ownerId,
      docBundle: input.docBundle,
      webBundle: input.webBundle,
    });
    const params = method.params.parse(config.params);
    const answered = await method.run({
      question: { text: input.question, options: input.options, answerType: input.answerType, documentIds: input.documentIds, questionId: run.questionId },
      params,
      channels,
      model,
      trace,
      backend: config.backend.backend,
    });
    const aids = aidsOf(channels.aids.used());
    const deviations = [...(method.deviations?.(params) ?? []), ...aidDeviations(config.switches.aids, aids)];
    const extra = { ...answered.extra, ...(deviations.length ? { deviations } : {}), ...(config.switches.aids ? { aids } : {}) };
    const answer = Object.keys(extra).length ? { ...answered, extra } : answered;
    // The trace's last write stores the run's end (a round trip less after the last call).
    await trace.seal(succeededEnd(ours, outcome(answer, input, await kgVersion)));
    return 'succeeded';
  } catch (error) {
    if (error instanceof RunLeaseLostError) {
      console.error(`[runs] ${runId}: lease lost (the run was cancelled, or taken over while this worker stalled); stopped without writing more`);
      return null;
    }
    // A lost database is an interruption, not the run's fault: the run stays `running` (its flushed
    // steps kept) and the recovery sweep resumes it once the database is back, even when this
    // worker could already write a failure now.
    if (isConnectionLoss(error)) {
      await trace?.flush().catch(() => undefined);
      console.error(`[runs] ${runId} interrupted: ${errorMessage(error)}`);
      return null;
    }
    // Skipped steps and rows of interrupted ones, before the cost is read from them.
    await trace?.seal().catch(() => undefined);
    const cancelled = error instanceof RunCancelledError;
    await storeEnded(ours, { status: cancelled ? 'cancelled' : 'failed', error: errorMessage(error), cost: await summariseCost(runId) });
    return cancelled ? 'cancelled' : 'failed';
  } finally {
    clearInterval(heartbeat);
  }
}

/** What a succeeded run stores: its answer, scores against the gold answer (or grounding), and the graph it read. */
function outcome(answer: MethodAnswer, input: ReturnType<typeof RunInputSchema.parse>, kgVersion: string | null): RunOutcome {
  const gold = input.gold ? GoldAnswerSchema.safeParse(input.gold) : null;
  const score = gold?.success ? scoreAnswer(input.answerType, gold.data, answer, input.options) : null;
  const scores = score ?? { grounding: answer.claims.length ? answer.claims.filter((c) => c.evidenceIds.length).length / answer.claims.length : null };
  return { answer, correct: score ? score.correct : null, scores, kgVersion };
}

/**
 * Claims a queued run this process can serve (status → running, one more
 * attempt, a lease of the run's length) and returns what executing it needs, in
 * one statement. A run for a backend this process lacks stays queued.
 */
async function claimRun(runId: string): Promise<ClaimedRun | null> {
  const claimed = await claimQueuedRun(runId, servableBackends(), LEASE_MS);
  if (!claimed) {
    const waiting = await queuedBackendKey(runId);
    if (waiting) console.error(`[runs] ${runId} left queued: it waits for ${waitingFor(waiting)}`);
  }
  return claimed;
}

/** The aids that acted in a run, once each, with every evidence record they added (answer.extra.aids). */
function aidsOf(uses: AidUse[]): AidUse[] {
  // One set per aid, added to: EIGEN-1 notes an aid's use per retrieval and generation (dozens a run), and copying
  // the ids gathered so far at each use made the merge quadratic.
  const byAid = new Map<AidName, Set<string>>();
  for (const u of uses) {
    const ids = byAid.get(u.aid) ?? new Set<string>();
    byAid.set(u.aid, ids);
    for (const id of u.evidenceIds) ids.add(id);
  }
  return [...byAid].map(([aid, ids]) => ({ aid, evidenceIds: [...ids] }));
}

/** The aids a run had on, as its declared deviations: each that acted, or that none did. */
function aidDeviations(on: boolean, aids: AidUse[]): string[] {
  if (!on) return [];
  if (!aids.length) return ['Hopscope aids on (not in the paper): none acted in this run'];
  return aids.map((a) => `Hopscope aid on (not in the paper): ${a.aid}: ${AIDS[a.aid]}`);
}
