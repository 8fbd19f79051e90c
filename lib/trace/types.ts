import { z } from 'zod';
import { Channel } from '@/lib/db/generated/enums';

/** The knowledge channels of METHODS.md §0: each one a switch, all on by default. */
export const KNOWLEDGE_CHANNELS = [Channel.doc, Channel.entity, Channel.kg, Channel.param, Channel.web] as const;
export type KnowledgeChannel = (typeof KNOWLEDGE_CHANNELS)[number];
/**
 * Every source evidence comes from: the knowledge channels and `aids`, what
 * Hopscope adds beyond a paper's method (docs/aids.md). `aids` is a switch like
 * the channels, off by default, so a run is the paper's method unless it says so.
 */
export const CHANNELS = Object.values(Channel);
/** The schema's own `Channel` enum (prisma/schema.prisma), never a copy. */
export type ChannelName = Channel;

/**
 * `set`: the complete answer set of a set or count question, one record with its exact size.
 * `check`: a pair's own edges read whole and found absent ("no edge of these metaedges between A and B"): what a yes/no "no" rests on.
 */
export const EVIDENCE_KINDS = ['triple', 'path', 'passage', 'profile', 'claim', 'web', 'hypothesis', 'unit', 'set', 'check'] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

/** A step as the method sees it while it runs. */
export interface StepHandle {
  id: string;
  ordinal: number;
  kind: string;
  label: string;
  /** Replay key: the position of this step in the method's control flow. */
  key: string;
}

/** Structured payload of a KG triple: both ends named so a view never needs the KG again. */
export const TripleDataSchema = z.object({
  edgeId: z.number().int(),
  sourceId: z.string(),
  sourceName: z.string(),
  sourceKind: z.string(),
  metaedge: z.string(),
  verb: z.string(),
  targetId: z.string(),
  targetName: z.string(),
  targetKind: z.string(),
});
export type TripleData = z.infer<typeof TripleDataSchema>;

export interface EvidenceInput {
  channel: ChannelName;
  kind: EvidenceKind;
  /** Stable reference: `edge:123`, `passage:<id>:<start>-<end>`, `node:Gene::1`, `web:<id>`, `claim:<n>`. */
  ref: string;
  /** Exactly the text a model (or rule) is shown. */
  text: string;
  data?: unknown;
  /** Named scores, e.g. {mmr: 0.42, sim: 0.61, weight: 1.5}. */
  scores?: Record<string, number | null>;
  selected?: boolean;
}

export interface EvidenceRecord extends EvidenceInput {
  id: string;
  ordinal: number;
  stepId: string | null;
  selected: boolean;
}
