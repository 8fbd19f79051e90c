import type { ComponentType } from 'react';
import type { EvidenceView, RunView, StepDetail } from '@/lib/runs/view';
import type { StepNode } from '../tree';

/** What a kind-specific renderer can reach besides its step: the run, its evidence and the page's selection handlers. */
export interface TraceContext {
  run: RunView;
  evidenceById: ReadonlyMap<string, EvidenceView>;
  /** The step's place in the tree (its children, for renderers that summarise them). */
  node: StepNode;
  selectEvidence(id: string): void;
  selectNode(id: string): void;
  selectStep(ordinal: number): void;
}

export interface StepRendererProps {
  detail: StepDetail;
  ctx: TraceContext;
}

/**
 * A renderer for a family of step kinds: it replaces the generic output view
 * (the raw input and output stay available below it).
 */
export interface StepRenderer {
  /** Heading of the rendered output ("Reasoning stream", "Candidate table"). */
  title: string;
  Output: ComponentType<StepRendererProps>;
}
