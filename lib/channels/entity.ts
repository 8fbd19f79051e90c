import { explainLinks, nodeProfiles, type EntityLink } from '@/lib/kg';
import type { EvidenceInput } from '@/lib/trace/types';
import type { ChannelAnswer, ChannelDeps, Parent } from './types';
import { lookupsOf } from './lookups';

/**
 * The entity channel: alias, synonym and fuzzy linking plus entity profiles.
 * Off, mentions link by exact case-insensitive name only and no profile is read.
 */
export class EntityChannel {
  constructor(private readonly deps: ChannelDeps) {}

  get enabled() {
    return this.deps.switches.entity;
  }

  /**
   * Links the mentions in `text` to KG nodes. The step output records method
   * and score per link, the alternative readings of a mention (links on the
   * same span) and the candidates turned down with the reason.
   */
  async link(parent: Parent, text: string, label = 'Entity linking'): Promise<EntityLink[]> {
    const enabled = this.enabled;
    const report = await this.deps.trace.step(
      { kind: 'channel.entity', label, input: { text, mode: enabled ? 'exact+alias+fuzzy' : 'exact name only (entity switch off)' }, parent },
      async () => explainLinks(text, { aliases: enabled, fuzzy: enabled, lookups: this.deps.lookups }),
    );
    return report.links;
  }

  /**
   * Links the question's mentions and each option's (`Link option <key>`). The readings are independent, so they go
   * together: a question asked for the first time waits for the longest one's name lookups, not for all of them in turn.
   * The steps keep the order of one after another (each takes its place as it starts).
   */
  async linkQuestion(
    parent: Parent,
    question: string,
    options: Record<string, string> | null,
  ): Promise<{ entities: EntityLink[]; optionLinks: Record<string, EntityLink[]> }> {
    const keys = Object.keys(options ?? {});
    const [entities, ...links] = await Promise.all([
      this.link(parent, question, 'Link question entities'),
      ...keys.map((key) => this.link(parent, options![key], `Link option ${key}`)),
    ]);
    return { entities, optionLinks: Object.fromEntries(keys.map((key, i) => [key, links[i]])) };
  }

  /** Definitions and gene names of linked nodes, as profile evidence. */
  async profiles(parent: Parent, nodeIds: string[]): Promise<ChannelAnswer> {
    const { trace } = this.deps;
    if (!this.enabled) {
      await trace.skipped({ kind: 'channel.entity', label: 'Entity profiles', input: { nodeIds }, parent }, 'entity switch is off: no profiles, no aliases');
      return { enabled: false, items: [], note: 'entity switch is off' };
    }
    const items = await trace.step({ kind: 'channel.entity', label: 'Entity profiles', input: { nodeIds }, parent }, async (step) => {
      const byId = await lookupsOf(this.deps).byNode('profiles', nodeIds, nodeProfiles);
      const profiles = [...new Set(nodeIds)].map((id) => byId.get(id));
      const evidence: EvidenceInput[] = [];
      for (const p of profiles) {
        if (!p) continue;
        for (const prof of p.profiles) {
          evidence.push({
            channel: 'entity',
            kind: 'profile',
            ref: `node:${p.node.id}`,
            text: `${p.node.name} (${p.node.kind}): ${prof.text}`,
            data: { nodeId: p.node.id, source: prof.source, aliases: p.aliases.slice(0, 10).map((a) => a.alias) },
          });
        }
      }
      return trace.addEvidence(step, evidence);
    });
    return { enabled: true, items };
  }
}
