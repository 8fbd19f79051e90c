import { FULL_SWITCHES, type Switches } from '@/lib/channels/switches';
import { attribute, configOf, type Attribution, type ConfigName } from '@/lib/methods/xr2/attribution';
import { NotFoundError } from '@/lib/base/errors';
import { RunConfigSchema } from './schemas';
import { finishedRunsOfQuestion, readRunQuestion } from './store/runs';

/** The switch grid X-R2's attribution reads, in display order. */
export const ATTRIBUTION_GRID: { name: ConfigName; switches: Switches }[] = [
  { name: 'full', switches: { ...FULL_SWITCHES } },
  { name: 'kg-off', switches: { ...FULL_SWITCHES, kg: false } },
  { name: 'entity-off', switches: { ...FULL_SWITCHES, entity: false } },
  { name: 'param-off', switches: { ...FULL_SWITCHES, param: false } },
  { name: 'doc-only', switches: { doc: true, entity: false, kg: false, param: false, web: false, aids: false } },
  { name: 'full+aids', switches: { ...FULL_SWITCHES, aids: true } },
];

export interface AttributionRunRef {
  id: string;
  shareId: string;
  status: string;
  correct: boolean | null;
}

export interface QuestionAttribution extends Attribution {
  method: string;
  /** Every finished run of this question and method behind each grid configuration (the latest counts). */
  grid: { name: ConfigName; run: AttributionRunRef | null }[];
  /** Whether any run of the question is scored against a gold answer. */
  scored: boolean;
}

/**
 * X-R2's attribution bucket for the question of a run, over every finished run
 * of the same question with the same method by the same owner (lib/methods/xr2/attribution.ts
 * labels them; this reads the runs).
 */
export async function questionAttribution(runId: string, { shared = false } = {}): Promise<QuestionAttribution> {
  const run = await readRunQuestion(runId);
  if (!run) throw new NotFoundError(`No run with id ${runId}`);
  // Only the run owner's own runs: another user's run of the same question is never read, named or shared here.
  const siblings = await finishedRunsOfQuestion(run);
  const candidates = siblings.flatMap((r) => {
    const config = RunConfigSchema.safeParse(r.config);
    return config.success
      ? [{ ref: { id: r.id, shareId: r.shareId, status: r.status, correct: r.correct }, switches: config.data.switches, kgShuffle: config.data.kgShuffle }]
      : [];
  });
  const attribution = attribute(candidates.map((c) => ({ id: c.ref.id, switches: c.switches, kgShuffle: c.kgShuffle, correct: c.ref.correct })));
  const byConfig = new Map<ConfigName, AttributionRunRef>();
  for (const c of candidates) {
    const name = configOf({ id: c.ref.id, switches: c.switches, kgShuffle: c.kgShuffle, correct: c.ref.correct });
    if (name) byConfig.set(name, c.ref);
  }
  const result: QuestionAttribution = {
    ...attribution,
    method: run.method,
    grid: ATTRIBUTION_GRID.map((g) => ({ name: g.name, run: byConfig.get(g.name) ?? null })),
    scored: candidates.some((c) => c.ref.correct !== null),
  };
  return shared ? byShareIds(result, new Map(candidates.map((c) => [c.ref.id, c.ref.shareId]))) : result;
}

/** The attribution behind a share link: every run named by its share id, never by its private id. */
function byShareIds(a: QuestionAttribution, shareOf: Map<string, string>): QuestionAttribution {
  const share = (id: string) => shareOf.get(id) ?? '';
  return {
    ...a,
    runIds: a.runIds.map(share),
    configs: Object.fromEntries(Object.entries(a.configs).map(([name, c]) => [name, c && { ...c, id: share(c.id) }])),
    grid: a.grid.map((g) => ({ ...g, run: g.run && { ...g.run, id: g.run.shareId } })),
  };
}
