import { AidsChannel } from './aids';
import { lookupsOf } from './lookups';
import { DocChannel } from './doc';
import { EntityChannel } from './entity';
import { KgChannel } from './kg';
import { ParamChannel } from './param';
import type { ChannelDeps } from './types';
import { WebChannel, type WebSearchProvider } from './web';

/**
 * The five knowledge channels of a run, and the aids channel. Methods ask a
 * channel; a switched-off channel answers "disabled" and the trace records a
 * skipped step (the aids, off by default, answer "no aid" and record nothing),
 * so no method re-implements the switches.
 */
export class Channels {
  readonly doc: DocChannel;
  readonly entity: EntityChannel;
  readonly kg: KgChannel;
  readonly param: ParamChannel;
  readonly web: WebChannel;
  readonly aids: AidsChannel;

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
    this.aids = new AidsChannel(shared, this.kg);
  }

  get switches() {
    return this.deps.switches;
  }
}

export * from './switches';
export type { ChannelAnswer, ChannelDeps } from './types';
export type { WebSearchProvider } from './web';
