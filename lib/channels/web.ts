import type { EvidenceInput } from '@/lib/trace/types';
import type { ChannelAnswer, ChannelDeps, Parent, WebRecord } from './types';
import { lexicalOverlap } from './overlap';

/** A pluggable web search provider. */
export interface WebSearchProvider {
  readonly name: string;
  search(query: string, k: number): Promise<WebRecord[]>;
}

/**
 * Offline, the web channel serves a recorded evidence bundle (carried by the
 * question, e.g. from an imported benchmark); it never invents results.
 */
export class RecordedBundleProvider implements WebSearchProvider {
  readonly name = 'recorded bundle (offline)';
  constructor(private readonly bundle: WebRecord[]) {}

  async search(query: string, k: number): Promise<WebRecord[]> {
    return this.bundle
      .map((record) => ({ record, score: lexicalOverlap(query, `${record.title} ${record.snippet}`) }))
      .filter((r) => r.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, k)
      .map((r) => r.record);
  }
}

export class WebChannel {
  private readonly provider: WebSearchProvider;

  constructor(
    private readonly deps: ChannelDeps,
    provider?: WebSearchProvider,
  ) {
    this.provider = provider ?? new RecordedBundleProvider(deps.webBundle ?? []);
  }

  get enabled() {
    return this.deps.switches.web;
  }

  async search(parent: Parent, query: string, k = 5): Promise<ChannelAnswer> {
    const { trace } = this.deps;
    const input = { query, k, provider: this.provider.name };
    if (!this.enabled) {
      await trace.skipped({ kind: 'channel.web', label: 'Web search', input, parent }, 'web switch is off: no web step');
      return { enabled: false, items: [], note: 'web switch is off' };
    }
    const items = await trace.step({ kind: 'channel.web', label: 'Web search', input, parent }, async (step) => {
      const found = await this.provider.search(query, k);
      const evidence: EvidenceInput[] = found.map((r) => ({
        channel: 'web',
        kind: 'web',
        ref: `web:${r.id}`,
        text: `${r.title}: ${r.snippet}`,
        data: { url: r.url ?? null, title: r.title, provider: this.provider.name },
      }));
      return trace.addEvidence(step, evidence);
    });
    return { enabled: true, items, note: items.length ? undefined : `no results from ${this.provider.name}` };
  }
}
