import { z } from 'zod';
import { KNOWLEDGE_CHANNELS, type KnowledgeChannel } from '@/lib/trace/types';
import { FULL_SWITCHES, parseSwitchSpec, type Switches } from '@/lib/channels/switches';
import { InvalidInputError } from '@/lib/base/errors';

/**
 * The switch grid of an evaluation: which knowledge configurations every
 * question runs under. Written as a comma-separated list of configurations,
 * e.g. `full,kg=0,entity=0,param=0`; one configuration with several channels
 * off joins them with `+` (`kg=0+param=0`), `doc-only` keeps one channel on,
 * `shuffle` adds X-R2's KG-shuffle control (`full+shuffle`), and `aids=1` turns
 * Hopscope's aids on (the grid `full,aids=1` runs each question as the paper's
 * method and with the aids; docs/aids.md).
 * Two presets: `xr2` (X-R2's attribution grid: full, each of kg/entity/param
 * off, doc-only) and `single-off` (full and each channel off in turn).
 */
export interface GridConfig {
  /** Stable name, also the grid syntax for this configuration: "full", "kg=0+param=0", "doc-only", "full+shuffle". */
  key: string;
  switches: Switches;
  kgShuffle: boolean;
  /** Run parameters this configuration sets over the job's (a reproduction row's ablation: {"mmr": false}). */
  params?: Record<string, unknown>;
  /** How a reproduction table names the row ("w/o MMR"). */
  label?: string;
}

export const GridConfigSchema = z.object({
  key: z.string(),
  switches: z.object({ doc: z.boolean(), entity: z.boolean(), kg: z.boolean(), param: z.boolean(), web: z.boolean(), aids: z.boolean().default(false) }),
  kgShuffle: z.boolean(),
  params: z.record(z.string(), z.unknown()).optional(),
  label: z.string().optional(),
});

export const GRID_PRESETS: Record<string, string> = {
  xr2: 'full,kg=0,entity=0,param=0,doc-only',
  'single-off': ['full', ...KNOWLEDGE_CHANNELS.map((c) => `${c}=0`)].join(','),
};

/** Parses a grid (a string or a list of configuration specs) into distinct configurations, in the order given. */
export function parseGrid(spec: string | readonly string[]): GridConfig[] {
  const parts = (typeof spec === 'string' ? [spec] : spec)
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean)
    .flatMap((s) => (GRID_PRESETS[s] ? GRID_PRESETS[s].split(',') : [s]));
  if (!parts.length) throw new InvalidInputError('the switch grid is empty: give at least one configuration, e.g. full');
  const byKey = new Map<string, GridConfig>();
  for (const part of parts) {
    const config = parseConfig(part);
    if (!byKey.has(config.key)) byKey.set(config.key, config);
  }
  return [...byKey.values()];
}

function parseConfig(part: string): GridConfig {
  const tokens = part
    .split('+')
    .map((t) => t.trim())
    .filter(Boolean);
  const kgShuffle = tokens.some(isShuffle);
  const channelTokens = tokens.filter((t) => !isShuffle(t));
  let switches: Switches;
  try {
    switches = channelTokens.length ? parseSwitchSpec(channelTokens.join(',')) : { ...FULL_SWITCHES };
  } catch (e) {
    throw new InvalidInputError(`configuration "${part}": ${e instanceof Error ? e.message : String(e)}`);
  }
  return { key: configKey(switches, kgShuffle), switches, kgShuffle };
}

const isShuffle = (t: string) => t === 'shuffle' || t === 'kg-shuffle';

/** The canonical key: equal configurations get equal keys however they were written. */
export function configKey(switches: Switches, kgShuffle = false): string {
  const on = KNOWLEDGE_CHANNELS.filter((c) => switches[c]);
  const off = KNOWLEDGE_CHANNELS.filter((c) => !switches[c]);
  const base = !off.length ? 'full' : on.length === 1 ? `${on[0]}-only` : off.map((c) => `${c}=0`).join('+');
  return `${base}${switches.aids ? '+aids=1' : ''}${kgShuffle ? '+shuffle' : ''}`;
}
