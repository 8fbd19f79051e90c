import { ModelCallError } from './errors';
import type { ChatMessage, ModelBackend, ModelRequest, ModelResult, RoleTemplate } from './types';

/** What an offline rule may use besides its input. */
export interface OfflineRuleContext {
  /** For continuation requests: the text already written. */
  assistantPrefix?: string;
}

type OfflineRule = (input: never, ctx: OfflineRuleContext) => unknown;

const rules = new Map<string, OfflineRule>();

export const OFFLINE_MODEL = 'offline engine (no language model)';

/**
 * Declares how the offline engine fulfils a template, beside the template itself.
 * A rule sees only the role's input (the evidence the method retrieved), never the KG.
 */
export function offlineRule<I, O>(template: RoleTemplate<I, O>, rule: (input: I, ctx: OfflineRuleContext) => O | Promise<O>): void {
  rules.set(template.id, rule as OfflineRule);
}

const STREAM_CHUNK = 48;

/**
 * The deterministic engine that fulfils every role without a language model:
 * rules over the role input. Calls are recorded like model calls (rendered
 * prompt, output) so the trace shows what a model would have been asked.
 */
export class OfflineBackend implements ModelBackend {
  readonly name = 'offline' as const;

  describe() {
    return { backend: 'offline' as const, model: OFFLINE_MODEL };
  }

  async call<I, O>(req: ModelRequest<I, O>): Promise<ModelResult<O>> {
    const started = Date.now();
    const { template } = req;
    const messages: ChatMessage[] = [
      { role: 'system', content: template.system },
      { role: 'user', content: template.render(req.input) },
      ...(req.assistantPrefix ? [{ role: 'assistant' as const, content: req.assistantPrefix }] : []),
    ];
    const rule = rules.get(template.id);
    if (!rule)
      throw new ModelCallError('internal', `The offline engine has no rule for template '${template.id}'`, {
        backend: 'offline',
        model: OFFLINE_MODEL,
        messages,
      });
    let output: unknown;
    try {
      output = await (rule as (input: I, ctx: OfflineRuleContext) => unknown)(req.input, { assistantPrefix: req.assistantPrefix });
    } catch (e) {
      throw new ModelCallError('internal', `Offline rule for '${template.id}' failed: ${e instanceof Error ? e.message : String(e)}`, {
        backend: 'offline',
        model: OFFLINE_MODEL,
        messages,
      });
    }
    let parsed: O | null = null;
    if (template.outputSchema) {
      const check = template.outputSchema.safeParse(output);
      if (!check.success)
        throw new ModelCallError('internal', `Offline rule for '${template.id}' broke its schema: ${check.error.message}`, {
          backend: 'offline',
          model: OFFLINE_MODEL,
          messages,
        });
      parsed = check.data;
    }
    const fullText = typeof output === 'string' ? output : JSON.stringify(output);
    const { text, stopped } = await this.emit(fullText, req);
    return {
      text,
      parsed: stopped ? null : parsed,
      tokensIn: 0,
      tokensOut: 0,
      tokensEstimated: false,
      latencyMs: Date.now() - started,
      cached: false,
      attempts: 1,
      model: OFFLINE_MODEL,
      backend: 'offline',
      finishReason: stopped ? 'stopped' : 'stop',
      // The offline engine's rules are given the prefix and extend it.
      ...(req.assistantPrefix ? { continuation: 'continued' as const } : {}),
      messages,
    };
  }

  /** Streams the output in chunks so monitored generation works the same as with a server. */
  private async emit(fullText: string, req: ModelRequest<unknown, unknown>): Promise<{ text: string; stopped: boolean }> {
    const control = req.stream;
    if (!control) return { text: fullText, stopped: false };
    let sent = '';
    for (let i = 0; i < fullText.length; i += STREAM_CHUNK) {
      const delta = fullText.slice(i, i + STREAM_CHUNK);
      sent += delta;
      control.onDelta?.(delta);
      if (control.shouldStop && (await control.shouldStop(sent))) return { text: sent, stopped: sent.length < fullText.length };
    }
    return { text: sent, stopped: false };
  }
}
