import type { TraceRecorder } from '@/lib/trace/recorder';
import type { EvidenceRecord, StepHandle } from '@/lib/trace/types';
import type { ModelClient } from '@/lib/llm/client';
import type { KnowledgeLookups } from '@/lib/kg/query/lookups';
import type { KgShuffle, Switches } from './switches';

/** What a channel answers: evidence records already written to the trace, or why it could not. */
export interface ChannelAnswer<T = EvidenceRecord> {
  enabled: boolean;
  items: T[];
  /** Why nothing came back: "kg switch is off", "no recorded web bundle for this query". */
  note?: string;
}

export interface ChannelDeps {
  switches: Switches;
  kgShuffle: KgShuffle | null;
  trace: TraceRecorder;
  model: ModelClient;
  /** The run's question, for kgShuffle's donor draw (another question of its set). */
  question?: { id: string | null; text: string };
  /** Documents attached to the question (ids of Document rows). */
  documentIds: string[];
  /** The run's owner: a corpus search reads everyone's corpus and this owner's attached documents, never another user's. */
  documentOwner?: string | null;
  /**
   * The question's document bundle (passage ids), when it carries one (BioMedHop's
   * source-conditioned evidence): document search serves these passages and no
   * other; null or absent, it searches the whole corpus.
   */
  docBundle?: string[] | null;
  /** A recorded web evidence bundle carried by the question, if any. */
  webBundle?: WebRecord[];
  /** Name lookups made before, shared by the channels that link text (Channels takes the process's when absent). */
  lookups?: KnowledgeLookups;
}

export interface WebRecord {
  id: string;
  url?: string;
  title: string;
  snippet: string;
}

export type Parent = StepHandle | null;
