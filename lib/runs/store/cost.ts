import { z } from 'zod';
import { getPool } from '@/lib/db/client';
import { queryRow } from '@/lib/db/rows';
import { RunCostSchema, type RunCost } from '../cost';

/**
 * A run's cost as `runs.cost` stores it (RunCost), computed in SQL from its steps and model calls ($1: the run id):
 * model calls, tokens, wall time, and per stage (top-level step kind, in order of first step) steps, calls, tokens
 * and step time. An expression over the run's steps (`steps`: a relation with their id, kind, duration_ms and ordinal) and
 * model calls (`calls`: step_id, cached, tokens_in, tokens_out), so that the statement ending a run can store it
 * from the trace as that same statement leaves it (lib/runs/store/lease.ts).
 */
export function runCostSql(steps: string, calls: string): string {
  return `(
  with st as (
    select kind, count(*) steps, sum(coalesce(duration_ms, 0)) ms, min(ordinal) o from ${steps} s group by kind),
  mc as (
    select s.kind, count(*) calls, sum(m.tokens_in) tin, sum(m.tokens_out) tout
      from ${calls} m join ${steps} s on s.id = m.step_id group by s.kind)
  select jsonb_build_object(
           'modelCalls', count(*), 'cachedCalls', count(*) filter (where cached),
           'tokensIn', coalesce(sum(tokens_in), 0), 'tokensOut', coalesce(sum(tokens_out), 0),
           'wallMs', round(coalesce((select extract(epoch from (coalesce(finished_at, now()) - started_at)) * 1000 from runs where id = $1), 0)),
           'stages', coalesce((select jsonb_agg(jsonb_build_object('stage', st.kind, 'steps', st.steps, 'modelCalls', coalesce(mc.calls, 0),
                                                                   'tokensIn', coalesce(mc.tin, 0), 'tokensOut', coalesce(mc.tout, 0), 'ms', st.ms) order by st.o)
                                 from st left join mc on mc.kind = st.kind), '[]'::jsonb))
    from ${calls} c)`;
}

/** The run's cost from its stored steps and model calls. */
const RUN_COST_SQL = runCostSql(
  '(select id, kind, duration_ms, ordinal from steps where run_id = $1)',
  '(select step_id, cached, tokens_in, tokens_out from model_calls where run_id = $1)',
);

/** Model calls, tokens and time per run and per stage (top-level step kind), read from its steps and model calls, in one round trip. */
export async function summariseCost(runId: string): Promise<RunCost> {
  const row = await queryRow(getPool(), z.object({ cost: RunCostSchema }), `select ${RUN_COST_SQL} cost`, [runId]);
  return row!.cost;
}
