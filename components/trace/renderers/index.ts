import { channelRenderers } from './channels';
import { eigen1Renderers } from './eigen1';
import { bioweaveRenderers } from './bioweave';
import { k2vRenderers } from './k2v';
import { regramRenderers } from './regram';
import { resolveRenderer } from './resolve';
import type { StepRenderer } from './types';
import { xr2Renderers } from './xr2';

/**
 * Kind-specific renderers, by step kind or kind prefix ('regram.'). A kind no
 * renderer claims gets the generic view (input and output as JSON), so a new
 * method's trace is readable before anyone writes a renderer for it.
 */
export const STEP_RENDERERS: Readonly<Record<string, StepRenderer>> = {
  ...channelRenderers,
  ...eigen1Renderers,
  ...xr2Renderers,
  ...regramRenderers,
  ...bioweaveRenderers,
  ...k2vRenderers,
};

export function rendererFor(kind: string): StepRenderer | null {
  return resolveRenderer(STEP_RENDERERS, kind);
}

export type { StepRenderer, TraceContext } from './types';
