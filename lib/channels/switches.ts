import { z } from 'zod';
import { CHANNELS, KNOWLEDGE_CHANNELS, type ChannelName, type KnowledgeChannel } from '@/lib/trace/types';

/** Per-run switches: one per knowledge channel (all on by default) and `aids` (off by default: the paper's method). */
export type Switches = Record<ChannelName, boolean>;

/** Every knowledge channel on and no aid: the configuration every table calls "full". */
export const FULL_SWITCHES: Switches = { doc: true, entity: true, kg: true, param: true, web: true, aids: false };

export const SwitchesSchema = z
  .object({ doc: z.boolean(), entity: z.boolean(), kg: z.boolean(), param: z.boolean(), web: z.boolean(), aids: z.boolean() })
  .partial()
  .strict()
  .transform((partial): Switches => ({ ...FULL_SWITCHES, ...partial }));

/** X-R2's control: each KG read's triples replaced by as many drawn seeded from another question's retrieval (kg-shuffle.ts). */
export const KgShuffleSchema = z.object({ seed: z.number().int().default(17) });
export type KgShuffle = z.infer<typeof KgShuffleSchema>;

/**
 * Parses the CLI/eval form: "full", "kg=0,param=0", "doc-only", "-kg",
 * "aids=1", "full,aids=1". `full` and `<channel>-only` set the knowledge
 * channels and leave the aids as they are; parts apply in order.
 * Unknown channel names are errors, so a typo never silently runs the full config.
 */
export function parseSwitchSpec(spec: string): Switches {
  const switches = { ...FULL_SWITCHES };
  const text = spec.trim();
  if (!text) return switches;
  for (const part of text.split(',')) {
    const token = part.trim();
    if (token === 'full' || token === 'all') {
      for (const c of KNOWLEDGE_CHANNELS) switches[c] = true;
      continue;
    }
    const only = /^([a-z]+)-only$/.exec(token);
    if (only) {
      const channel = asKnowledgeChannel(only[1]);
      for (const c of KNOWLEDGE_CHANNELS) switches[c] = c === channel;
      continue;
    }
    const m = /^(-)?([a-z]+)\s*(?:=\s*(0|1|on|off|true|false))?$/.exec(token);
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

function asKnowledgeChannel(name: string): KnowledgeChannel {
  if ((KNOWLEDGE_CHANNELS as readonly string[]).includes(name)) return name as KnowledgeChannel;
  throw new Error(`"${name}-only" names no knowledge channel: channels are ${KNOWLEDGE_CHANNELS.join(', ')}`);
}
