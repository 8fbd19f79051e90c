import { lookupsOf } from './lookups';
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

  /** What the channels share: the run's switches, trace and model, and the process's name lookups. */
  readonly deps: ChannelDeps;

  constructor(deps: ChannelDeps, webProvider?: WebSearchProvider) {
    const shared = { ...deps, lookups: lookupsOf(deps) };
    this.deps = shared;
    this.doc = new DocChannel(shared);
    this.entity = new EntityChannel(shared);
    this.kg = new KgChannel(shared);
    this.param = new ParamChannel(shared);
    this.web = new WebChannel(shared, webProvider);
  }

  get switches() {
    return this.deps.switches;
  }
}

export * from './switches';
export type { ChannelAnswer, ChannelDeps, WebRecord } from './types';
export type { WebSearchProvider } from './web';
