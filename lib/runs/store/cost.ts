import { z } from 'zod';
import { getPool } from '@/lib/db/client';
import type { RunCost } from '../cost';

/** A count or sum as PostgreSQL returns it: bigint and numeric come back as text. */
const num = z.union([z.string(), z.number()]).transform(Number);

const CostRowSchema = z.object({
  calls: num,
  cached: num,
  tin: num,
  tout: num,
  ms: num.nullable(),
  stages: z.array(z.object({ stage: z.string(), steps: num, ms: num, calls: num, tin: num, tout: num })).nullable(),
});

/** Model calls, tokens and time per run and per stage (top-level step kind), read from its steps and model calls. */
export async function summariseCost(runId: string): Promise<RunCost> {
  // One round trip: totals, per-stage rows (as JSON) and wall time.
  const { rows } = await getPool().query(
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
  const c = CostRowSchema.parse(rows[0]);
  return {
    modelCalls: c.calls,
    cachedCalls: c.cached,
    tokensIn: c.tin,
    tokensOut: c.tout,
    wallMs: Math.round(c.ms ?? 0),
    stages: (c.stages ?? []).map((s) => ({ stage: s.stage, steps: s.steps, modelCalls: s.calls, tokensIn: s.tin, tokensOut: s.tout, ms: s.ms })),
  };
}
