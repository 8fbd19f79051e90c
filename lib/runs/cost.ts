import { getPool } from '@/lib/db/client';

export interface StageCost {
  stage: string;
  steps: number;
  modelCalls: number;
  tokensIn: number;
  tokensOut: number;
  ms: number;
}

export interface RunCost {
  modelCalls: number;
  cachedCalls: number;
  tokensIn: number;
  tokensOut: number;
  wallMs: number;
  stages: StageCost[];
}

/** Model calls, tokens and time per run and per stage (top-level step kind). */
export async function summariseCost(runId: string): Promise<RunCost> {
  const pool = getPool();
  const [calls, stages, wall] = await Promise.all([
    pool.query<{ calls: string; cached: string; tin: string; tout: string }>(
      `select count(*) calls, count(*) filter (where cached) cached, coalesce(sum(tokens_in),0) tin, coalesce(sum(tokens_out),0) tout
         from model_calls where run_id = $1`,
      [runId],
    ),
    pool.query<{ stage: string; steps: string; ms: string; calls: string; tin: string; tout: string }>(
      `with st as (
         select kind, count(*) steps, sum(coalesce(duration_ms, 0)) ms, min(ordinal) o from steps where run_id = $1 group by kind),
       mc as (
         select s.kind, count(*) calls, sum(m.tokens_in) tin, sum(m.tokens_out) tout
           from model_calls m join steps s on s.id = m.step_id where m.run_id = $1 group by s.kind)
       select st.kind stage, st.steps, st.ms, coalesce(mc.calls, 0) calls, coalesce(mc.tin, 0) tin, coalesce(mc.tout, 0) tout
         from st left join mc on mc.kind = st.kind order by st.o`,
      [runId],
    ),
    pool.query<{ ms: string | null }>(
      `select extract(epoch from (coalesce(finished_at, now()) - started_at)) * 1000 ms from runs where id = $1`,
      [runId],
    ),
  ]);
  const c = calls.rows[0];
  return {
    modelCalls: Number(c.calls),
    cachedCalls: Number(c.cached),
    tokensIn: Number(c.tin),
    tokensOut: Number(c.tout),
    wallMs: Math.round(Number(wall.rows[0]?.ms ?? 0)),
    stages: stages.rows.map((s) => ({
      stage: s.stage,
      steps: Number(s.steps),
      modelCalls: Number(s.calls),
      tokensIn: Number(s.tin),
      tokensOut: Number(s.tout),
      ms: Number(s.ms),
    })),
  };
}
