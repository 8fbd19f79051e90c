// `npm run hopscope -- verify --run <id> [--alpha 6] [--json]`: K2V checklist verification of a finished run.
import { ensureDatabase } from '../../lib/db/bootstrap';
import { readEnv } from '../../lib/config';
import { verifyRun } from '../../lib/runs/verify';
import type { K2vReport } from '../../lib/verify';
import { parseArgs, UsageError } from './args';

const USAGE = 'usage: npm run hopscope -- verify --run <run id> [--alpha <answer reward, default 6>] [--json]';

/** Exit code 0 when the verification was recorded; errors propagate to the CLI's one error mapping. */
export async function run(argv: string[]): Promise<number> {
  const { values, flags } = parseArgs(argv, { values: ['run', 'alpha'], flags: ['json'] });
  if (!values.run) throw new UsageError(USAGE);
  const alpha = values.alpha === undefined ? undefined : Number(values.alpha);
  if (alpha !== undefined && !Number.isFinite(alpha)) throw new UsageError(`--alpha must be a number: ${USAGE}`);
  const db = await ensureDatabase(readEnv());
  try {
    const report = await verifyRun(values.run, { alpha });
    console.log(flags.has('json') ? JSON.stringify(report, null, 2) : formatReport(report));
    return 0;
  } finally {
    await db.stop();
  }
}

/** The per-criterion grid and the rewards, as the run page shows them. */
export function formatReport(r: K2vReport): string {
  const fmt = (v: number | null) => (v === null ? 'n/a (no gold answer)' : v.toFixed(3));
  const rows = r.criteria.map((c) => {
    const flag = c.flaggedUnsupportedFacts.length ? `  ⚑ unsupported: ${c.flaggedUnsupportedFacts.join(', ')}` : '';
    return `${c.verdict === 'yes' ? '✓' : '✗'} ${c.id.padEnd(3)} [${c.source}] ${c.text}\n      ${c.reason}${flag}`;
  });
  return [
    `K2V checklist verification of run ${r.runId} (general criteria v${r.criteriaVersion}, ${r.verifier})`,
    ...rows,
    `Pass rate p = ${r.passRate.toFixed(3)} (${r.criteria.filter((c) => c.verdict === 'yes').length}/${r.criteria.length})   correct: ${r.correct ?? 'unknown'}   well-formed: ${r.wellFormed}`,
    `Rewards (α = ${r.alpha}): R_format ${r.rewards.format}, R_answer ${r.rewards.answer ?? 'n/a'}, R_reasoning ${r.rewards.reasoning.toFixed(3)}`,
    `  plain  R_format + α·1[correct] + p  = ${fmt(r.rewards.plain)}`,
    `  gated  R_format + 1[correct]·(α + p) = ${fmt(r.rewards.gated)}`,
  ].join('\n');
}
