import { DocChannel } from './doc';
import { EntityChannel } from './entity';
import { KgChannel } from './kg';
import { ParamChannel } from './param';
import type { ChannelDeps } from './types';
import { WebChannel, type WebSearchProvider } from './web';

/**
 * The five knowledge channels of a run. Methods ask a channel; a switched-off
 * channel answers "disabled" and the trace records a skipped step, so no method
 * re-implements the switches.
 */
export class Channels {
  readonly doc: DocChannel;
  readonly entity: EntityChannel;
  readonly kg: KgChannel;
  readonly param: ParamChannel;
  readonly web: WebChannel;

  constructor(readonly deps: ChannelDeps, webProvider?: WebSearchProvider) {
    this.doc = new DocChannel(deps);
    this.entity = new EntityChannel(deps);
    this.kg = new KgChannel(deps);
    this.param = new ParamChannel(deps);
    this.web = new WebChannel(deps, webProvider);
  }

  get switches() {
    return this.deps.switches;
  }
}

export * from './switches';
export type { ChannelAnswer, ChannelDeps, WebRecord } from './types';
export type { WebSearchProvider } from './web';
