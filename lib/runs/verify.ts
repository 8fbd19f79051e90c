import { CitationIndex } from '@/lib/channels/citations';
import { ModelClient } from '@/lib/llm/client';
import { MethodAnswerSchema } from '@/lib/trace/steps/common';
import { GoldAnswerSchema } from '@/lib/eval/scoring';
import { ConflictError } from '@/lib/base/errors';
import { loadMetagraph } from '@/lib/kg/loaded-metagraph';
import { readEnv } from '@/lib/config';
import { verify, verifyOptions, type GoldView, type K2vReport, type VerifyOptions } from '@/lib/verify';
import { saveVerification } from '@/lib/verify/store';
import { createBackend } from './backend';
import { getRunRecord } from './read';
import { RunConfigSchema, RunInputSchema, type RunInput } from './schemas';

/**
 * K2V verification of any finished run (lib/verify), with the run's own backend:
 * recorded as the run's next versioned `Verification` (stages and model calls
 * included); the run, frozen when it finished, is never changed.
 */
export async function verifyRun(runId: string, options: VerifyOptions = {}): Promise<K2vReport> {
  verifyOptions(options);
  const [record] = await Promise.all([getRunRecord({ id: runId }), loadMetagraph()]); // the offline reading needs the graph's relations
  if (record.status !== 'succeeded' && record.status !== 'failed')
    throw new ConflictError(`Run ${runId} is ${record.status}: only a finished run can be verified`);
  const input = RunInputSchema.parse(record.input);
  const config = RunConfigSchema.parse(record.config);
  // The run's citation ids (K3, D1, …): the judge reads the evidence under the ids the trace's model outputs cite, not record ids.
  const citations = new CitationIndex();
  citations.register(record.evidence.map((e) => ({ ...e, channel: e.channel as never, kind: e.kind as never })));
  const model = new ModelClient(createBackend(config.backend), { citations, concurrency: readEnv().HOPSCOPE_MODEL_CONCURRENCY });
  const labels = new Map(record.steps.map((s) => [s.id, s.label]));
  const { report, stages, durationMs } = await verify(
    {
      id: runId,
      status: record.status,
      question: { text: input.question, options: input.options, answerType: input.answerType },
      gold: goldView(input),
      answer: MethodAnswerSchema.safeParse(record.answer).data ?? null,
      correct: record.correct,
      evidence: record.evidence,
      calls: record.modelCalls.map((c) => ({ step: labels.get(c.stepId ?? '') ?? '(run)', role: c.role, output: c.output })),
    },
    model,
    options,
  );
  return saveVerification(report, stages, durationMs);
}

/** The gold answer as the checklist and the judge read it: its text (the option's text for a key), key and count. */
function goldView(input: RunInput): GoldView | null {
  const parsed = input.gold ? GoldAnswerSchema.safeParse(input.gold) : null;
  if (!parsed?.success) return null;
  const g = parsed.data;
  const key = g.key?.toUpperCase() ?? null;
  return { text: g.text || (key ? (input.options?.[key] ?? '') : '') || (g.count !== undefined ? String(g.count) : ''), key, count: g.count ?? null };
}
