import { z } from 'zod';
import { CHANNELS, type ChannelName } from '@/lib/trace/types';

/** Per-run knowledge switches: one per channel, all on by default. */
export type Switches = Record<ChannelName, boolean>;

export const FULL_SWITCHES: Switches = { doc: true, entity: true, kg: true, param: true, web: true };

export const SwitchesSchema = z
  .object({ doc: z.boolean(), entity: z.boolean(), kg: z.boolean(), param: z.boolean(), web: z.boolean() })
  .partial()
  .strict()
  .transform((partial): Switches => ({ ...FULL_SWITCHES, ...partial }));

/** X-R2's control: each KG read's triples replaced by as many drawn seeded from another question's retrieval (kg-shuffle.ts). */
export const KgShuffleSchema = z.object({ seed: z.number().int().default(17) });
export type KgShuffle = z.infer<typeof KgShuffleSchema>;

/**
 * Parses the CLI/eval form: "full", "kg=0,param=0", "doc-only", "-kg".
 * Unknown channel names are errors, so a typo never silently runs the full config.
 */
export function parseSwitchSpec(spec: string): Switches {
  const text = spec.trim();
  if (!text || text === 'full' || text === 'all') return { ...FULL_SWITCHES };
  const only = /^([a-z]+)-only$/.exec(text);
  if (only) {
    const channel = asChannel(only[1]);
    return Object.fromEntries(CHANNELS.map((c) => [c, c === channel])) as Switches;
  }
  const switches = { ...FULL_SWITCHES };
  for (const part of text.split(',')) {
    const m = /^\s*(-)?([a-z]+)\s*(?:=\s*(0|1|on|off|true|false))?\s*$/.exec(part);
    if (!m) throw new Error(`Bad switch "${part}": use channel=0|1 with channels ${CHANNELS.join(', ')}`);
    const channel = asChannel(m[2]);
    switches[channel] = m[1] ? false : m[3] === undefined ? true : ['1', 'on', 'true'].includes(m[3]);
  }
  return switches;
}

function asChannel(name: string): ChannelName {
  if ((CHANNELS as readonly string[]).includes(name)) return name as ChannelName;
  throw new Error(`Unknown channel "${name}": channels are ${CHANNELS.join(', ')}`);
}
