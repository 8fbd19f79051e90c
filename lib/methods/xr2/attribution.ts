import { KNOWLEDGE_CHANNELS, type KnowledgeChannel } from '@/lib/trace/types';
import type { Switches } from '@/lib/channels/switches';

/**
 * X-R2's attribution buckets (xr2.txt §6.5; METHODS.md §2): one question run
 * under the full configuration and with single channels switched off. The
 * question needs a channel when the full run is correct and the run without
 * that channel is wrong (priority KG > Entity > Parametric); it is
 * doc-sufficient when the doc-only run is correct; otherwise unresolved.
 * The buckets read the paper's configurations (aids off); a full run with
 * Hopscope's aids on is read beside them, as what the aids change.
 */

export type Bucket = 'needs-KG' | 'needs-Entity' | 'needs-Parametric' | 'doc-sufficient' | 'unresolved';

export interface AttributionRun {
  id: string;
  switches: Switches;
  /** Shuffled-KG runs are a control, never one of the configurations. */
  kgShuffle?: unknown;
  /** Scored correctness; null when the run has no gold answer or did not finish. */
  correct: boolean | null;
}

export type ConfigName = 'full' | 'kg-off' | 'entity-off' | 'param-off' | 'doc-only' | 'full+aids';

/** What the aids change on this question: the full run with aids on against the paper's full run. */
export type AidsEffect = 'aids-help' | 'aids-hurt' | 'aids-same' | 'not-run';

export interface Attribution {
  bucket: Bucket;
  /** The runs the label rests on. */
  runIds: string[];
  reason: string;
  /** The run used for each configuration present. */
  configs: Partial<Record<ConfigName, { id: string; correct: boolean | null }>>;
  aids: AidsEffect;
}

const SINGLE_OFF: [ConfigName, KnowledgeChannel, Bucket][] = [
  ['kg-off', 'kg', 'needs-KG'],
  ['entity-off', 'entity', 'needs-Entity'],
  ['param-off', 'param', 'needs-Parametric'],
];

/** Which configuration a run is: every channel on; exactly one of kg/entity/param off; only doc on (all with aids off); every channel on with aids. */
export function configOf(run: AttributionRun): ConfigName | null {
  if (run.kgShuffle) return null;
  const off = KNOWLEDGE_CHANNELS.filter((c) => !run.switches[c]);
  if (run.switches.aids) return off.length ? null : 'full+aids';
  if (!off.length) return 'full';
  if (off.length === 1) return SINGLE_OFF.find(([, channel]) => channel === off[0])?.[0] ?? null;
  return KNOWLEDGE_CHANNELS.every((c) => run.switches[c] === (c === 'doc')) ? 'doc-only' : null;
}

function aidsEffect(configs: Attribution['configs']): AidsEffect {
  const [full, aided] = [configs.full?.correct, configs['full+aids']?.correct];
  if (full == null || aided == null) return 'not-run';
  return aided === full ? 'aids-same' : aided ? 'aids-help' : 'aids-hurt';
}

/** The label for one question's runs; when a configuration was run more than once, the last run given counts. */
export function attribute(runs: AttributionRun[]): Attribution {
  const configs: Attribution['configs'] = {};
  for (const run of runs) {
    const name = configOf(run);
    if (name) configs[name] = { id: run.id, correct: run.correct };
  }
  const aids = aidsEffect(configs);
  const full = configs.full;
  if (full?.correct) {
    for (const [name, channel, bucket] of SINGLE_OFF) {
      const off = configs[name];
      if (off?.correct === false) return { bucket, runIds: [full.id, off.id], reason: `full is correct and ${channel} off is not`, configs, aids };
    }
  }
  const docOnly = configs['doc-only'];
  if (docOnly?.correct) return { bucket: 'doc-sufficient', runIds: [docOnly.id], reason: 'the doc-only run is correct', configs, aids };
  return { bucket: 'unresolved', runIds: Object.values(configs).map((c) => c.id), reason: unresolvedReason(configs), configs, aids };
}

function unresolvedReason(configs: Attribution['configs']): string {
  if (!configs.full) return 'no full run';
  if (configs.full.correct === null) return 'the full run is not scored';
  if (!configs.full.correct) return 'the full run is not correct (wrong or abstained) and no doc-only run is correct';
  const missing = SINGLE_OFF.filter(([name]) => !configs[name]).map(([name]) => name);
  return missing.length
    ? `no single-channel-off run failed to be correct (not run: ${missing.join(', ')}), and no doc-only run is correct`
    : 'every single-channel-off run is still correct, and no doc-only run is correct';
}
