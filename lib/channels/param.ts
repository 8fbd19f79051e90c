import { offlineRule } from '@/lib/llm/offline-backend';
import { recallTemplate } from '@/lib/llm/templates/generic';
import type { ChannelAnswer, ChannelDeps, Parent } from './types';

/**
 * The parametric channel: a separate recall step asking the model for background
 * facts, kept as `claim` evidence with confidences and never merged with KG or
 * document evidence. The offline engine has no parametric memory: it recalls nothing.
 */
export class ParamChannel {
  constructor(private readonly deps: ChannelDeps) {}

  get enabled() {
    return this.deps.switches.param;
  }

  /** `entities`: the linked entities by name; `relations`: the relations asked about, each as written for the model (never mixed into the entities). */
  async recall(parent: Parent, question: string, entities: string[], relations: string[] = []): Promise<ChannelAnswer> {
    const { trace, model } = this.deps;
    const input = relations.length ? { question, entities, relations } : { question, entities };
    if (!this.enabled) {
      await trace.skipped(
        { kind: 'channel.param', label: 'Parametric recall', input, parent },
        'param switch is off: no recall step; prompts say not to use background knowledge',
      );
      return { enabled: false, items: [], note: 'param switch is off' };
    }
    const items = await trace.step({ kind: 'channel.param', label: 'Parametric recall', input, parent }, async (step) => {
      const result = await model.call(recallTemplate, input, { recorder: trace.callRecorder(step) });
      const claims = result.parsed?.claims ?? [];
      return trace.addEvidence(
        step,
        claims.map((c, i) => ({
          channel: 'param' as const,
          kind: 'claim' as const,
          ref: `claim:${step.ordinal}.${i}`,
          text: c.statement,
          scores: { confidence: c.confidence },
        })),
      );
    });
    return { enabled: true, items, note: items.length ? undefined : 'the model recalled no claims' };
  }
}

/** The offline engine has no parametric memory: its recall states no claim. */
offlineRule(recallTemplate, () => ({ claims: [] }));
