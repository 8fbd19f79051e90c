import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@/lib/db/client';
import type { CallRecorder, ModelCallRecord } from '@/lib/llm/types';
import type { EvidenceInput, EvidenceRecord, StepHandle } from './types';

export class RunCancelledError extends Error {
  constructor() {
    super('The run was cancelled');
  }
}

interface StoredStep {
  id: string;
  ordinal: number;
  output: unknown;
}

interface StepSpec {
  kind: string;
  label: string;
  input?: unknown;
  parent?: StepHandle | null;
}

/**
 * Writes a run's trace to Postgres as it happens: steps (nested), evidence with
 * provenance, and model calls. A crash loses nothing already written.
 *
 * Resuming: a recorder opened on a run that already has succeeded steps replays
 * them: a step whose key (its position in the method's control flow) matches a
 * stored succeeded step returns the stored output instead of running again. Step
 * functions must therefore return JSON-serialisable values.
 */
export class TraceRecorder {
  private nextStep = 0;
  private nextEvidence = 0;
  private nextCall = 0;
  private occurrences = new Map<string, number>();
  private lastCancelCheck = 0;

  private constructor(
    private readonly prisma: PrismaClient,
    readonly runId: string,
    private readonly replay: Map<string, StoredStep>,
  ) {}

  /** Opens the trace of a run; on a resumed run, marks interrupted steps and prepares replay. */
  static async open(prisma: PrismaClient, runId: string): Promise<TraceRecorder> {
    const steps = await prisma.step.findMany({ where: { runId }, orderBy: { ordinal: 'asc' } });
    const interrupted = steps.filter((s) => s.status === 'running').map((s) => s.id);
    if (interrupted.length) {
      await prisma.step.updateMany({
        where: { id: { in: interrupted } },
        data: { status: 'failed', output: { error: 'interrupted: the server stopped during this step' } },
      });
      // Evidence of a step that never finished was never used; its model calls stay for cost accounting.
      await prisma.evidence.deleteMany({ where: { stepId: { in: interrupted } } });
    }
    const replay = new Map<string, StoredStep>();
    for (const s of steps) {
      const key = (s.input as { __key?: string } | null)?.__key;
      if (s.status === 'succeeded' && key) replay.set(key, { id: s.id, ordinal: s.ordinal, output: s.output });
    }
    const recorder = new TraceRecorder(prisma, runId, replay);
    const [maxEvidence, maxCall] = await Promise.all([
      prisma.evidence.aggregate({ where: { runId }, _max: { ordinal: true } }),
      prisma.modelCall.aggregate({ where: { runId }, _max: { ordinal: true } }),
    ]);
    recorder.nextStep = (steps.at(-1)?.ordinal ?? -1) + 1;
    recorder.nextEvidence = (maxEvidence._max.ordinal ?? -1) + 1;
    recorder.nextCall = (maxCall._max.ordinal ?? -1) + 1;
    return recorder;
  }

  /** Runs one stage of a method as a recorded step; its return value is the step's output. */
  async step<T>(spec: StepSpec, fn: (step: StepHandle) => Promise<T>): Promise<T> {
    const key = this.keyFor(spec);
    const stored = this.replay.get(key);
    if (stored) return stored.output as T;
    await this.throwIfCancelled();
    const ordinal = this.nextStep++;
    const startedAt = Date.now();
    const row = await this.prisma.step.create({
      data: {
        runId: this.runId,
        ordinal,
        parentStepId: spec.parent?.id ?? null,
        kind: spec.kind,
        label: spec.label,
        status: 'running',
        input: toJson({ ...(isPlainObject(spec.input) ? spec.input : { value: spec.input }), __key: key }),
      },
    });
    const handle: StepHandle = { id: row.id, ordinal, kind: spec.kind, label: spec.label, key };
    try {
      const output = await fn(handle);
      await this.prisma.step.update({
        where: { id: row.id },
        data: { status: 'succeeded', output: toJson(output), durationMs: Date.now() - startedAt },
      });
      return output;
    } catch (error) {
      await this.prisma.step.update({
        where: { id: row.id },
        data: { status: 'failed', output: { error: errorMessage(error) }, durationMs: Date.now() - startedAt },
      });
      throw error;
    }
  }

  /** A step that did not run, with the reason (a switched-off channel, a budget reached). */
  async skipped(spec: StepSpec, reason: string): Promise<void> {
    const key = this.keyFor(spec);
    if (this.replay.has(key)) return;
    await this.prisma.step.create({
      data: {
        runId: this.runId,
        ordinal: this.nextStep++,
        parentStepId: spec.parent?.id ?? null,
        kind: spec.kind,
        label: spec.label,
        status: 'skipped',
        input: toJson({ ...(isPlainObject(spec.input) ? spec.input : {}), __key: key }),
        output: { reason },
        durationMs: 0,
      },
    });
  }

  async addEvidence(step: StepHandle | null, items: EvidenceInput[]): Promise<EvidenceRecord[]> {
    if (!items.length) return [];
    const records: EvidenceRecord[] = items.map((item) => ({
      ...item,
      id: randomUUID(),
      ordinal: this.nextEvidence++,
      stepId: step?.id ?? null,
      selected: item.selected ?? false,
    }));
    await this.prisma.evidence.createMany({
      data: records.map((r) => ({
        id: r.id,
        runId: this.runId,
        stepId: r.stepId,
        ordinal: r.ordinal,
        channel: r.channel,
        kind: r.kind,
        ref: r.ref,
        text: r.text,
        data: r.data === undefined ? undefined : toJson(r.data),
        scores: r.scores === undefined ? undefined : toJson(r.scores),
        selected: r.selected,
      })),
    });
    return records;
  }

  /** Marks evidence the method chose to use (shown to the model or rule that answered). */
  async markSelected(ids: string[]): Promise<void> {
    if (ids.length) await this.prisma.evidence.updateMany({ where: { runId: this.runId, id: { in: ids } }, data: { selected: true } });
  }

  /** The model-call hook for calls made inside `step`. */
  callRecorder(step: StepHandle | null): CallRecorder {
    return async (record: ModelCallRecord) => {
      await this.prisma.modelCall.create({
        data: {
          runId: this.runId,
          stepId: step?.id ?? null,
          ordinal: this.nextCall++,
          role: record.role,
          backend: record.backend,
          model: record.model,
          template: record.template,
          templateVersion: record.templateVersion,
          messages: toJson(record.messages),
          output: record.output,
          parsed: record.parsed === null || record.parsed === undefined ? undefined : toJson(record.parsed),
          tokensIn: record.tokensIn,
          tokensOut: record.tokensOut,
          latencyMs: record.latencyMs,
          cached: record.cached,
          attempts: record.attempts,
          error: record.error,
        },
      });
    };
  }

  /** Key = parent key + kind + label + how many times that triple occurred before. */
  private keyFor(spec: StepSpec): string {
    const base = `${spec.parent?.key ?? ''}/${spec.kind}:${spec.label}`;
    const n = this.occurrences.get(base) ?? 0;
    this.occurrences.set(base, n + 1);
    return `${base}#${n}`;
  }

  private async throwIfCancelled() {
    // At most one status read every 250 ms: cancellation is checked between steps, cheaply.
    const now = Date.now();
    if (now - this.lastCancelCheck < 250) return;
    this.lastCancelCheck = now;
    const run = await this.prisma.run.findUnique({ where: { id: this.runId }, select: { status: true } });
    if (run?.status === 'cancelled') throw new RunCancelledError();
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** JSON columns take plain JSON: drop undefined, turn Dates into strings. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function toJson(value: unknown): any {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}
