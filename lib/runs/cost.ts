import { z } from 'zod';
import { getPool } from '@/lib/db/client';

const StageCostSchema = z.object({ stage: z.string(), steps: z.number(), modelCalls: z.number(), tokensIn: z.number(), tokensOut: z.number(), ms: z.number() });
export type StageCost = z.infer<typeof StageCostSchema>;

/** A run's cost as `runs.cost` stores it. */
export const RunCostSchema = z.object({
  modelCalls: z.number(),
  cachedCalls: z.number(),
  tokensIn: z.number(),
  tokensOut: z.number(),
  wallMs: z.number(),
  stages: z.array(StageCostSchema),
});
export type RunCost = z.infer<typeof RunCostSchema>;

/** Model calls, tokens and time per run and per stage (top-level step kind). */
export async function summariseCost(runId: string): Promise<RunCost> {
  // One round trip: totals, per-stage rows (as JSON) and wall time.
  const { rows } = await getPool().query<{
    calls: string;
    cached: string;
    tin: string;
    tout: string;
    ms: string | null;
    stages: { stage: string; steps: number; ms: number; calls: number; tin: number; tout: number }[] | null;
  }>(
    `with st as (
       select kind, count(*) steps, sum(coalesce(duration_ms, 0)) ms, min(ordinal) o from steps where run_id = $1 group by kind),
     mc as (
       select s.kind, count(*) calls, sum(m.tokens_in) tin, sum(m.tokens_out) tout
         from model_calls m join steps s on s.id = m.step_id where m.run_id = $1 group by s.kind)
     select count(*) calls, count(*) filter (where cached) cached, coalesce(sum(tokens_in),0) tin, coalesce(sum(tokens_out),0) tout,
            (select extract(epoch from (coalesce(finished_at, now()) - started_at)) * 1000 from runs where id = $1) ms,
            (select json_agg(json_build_object('stage', st.kind, 'steps', st.steps, 'ms', st.ms, 'calls', coalesce(mc.calls, 0),
                                               'tin', coalesce(mc.tin, 0), 'tout', coalesce(mc.tout, 0)) order by st.o)
               from st left join mc on mc.kind = st.kind) stages
       from model_calls where run_id = $1`,
    [runId],
  );
  const c = rows[0];
  return {
    modelCalls: Number(c.calls),
    cachedCalls: Number(c.cached),
    tokensIn: Number(c.tin),
    tokensOut: Number(c.tout),
    wallMs: Math.round(Number(c.ms ?? 0)),
    stages: (c.stages ?? []).map((s) => ({
      stage: s.stage,
      steps: Number(s.steps),
      modelCalls: Number(s.calls),
      tokensIn: Number(s.tin),
      tokensOut: Number(s.tout),
      ms: Number(s.ms),
    })),
  };
}
