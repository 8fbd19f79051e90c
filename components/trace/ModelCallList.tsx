import { z } from 'zod';
import { Badge } from '@/components/ui/Badge';
import type { ModelCallView } from '@/lib/runs/view';
import { formatCount, formatMs } from '@/components/runs/format';
import { JsonView, TextBlock } from './JsonView';

/** A stored call's messages (model_calls.messages), read through their shape. */
const MessagesSchema = z.array(z.object({ role: z.string(), content: z.unknown() }));

function messagesOf(value: unknown): z.infer<typeof MessagesSchema> {
  return MessagesSchema.safeParse(value).data ?? [];
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return JSON.stringify(content, null, 2);
}

/** A step's model calls: template and version, model, tokens, latency, then the rendered prompt, raw output and parsed JSON. */
export function ModelCallList({ calls }: { calls: readonly ModelCallView[] }) {
  if (!calls.length) return <p className="text-sm text-slate-600">This step made no model call itself (nested steps may have).</p>;
  return (
    <ol className="space-y-2" data-testid="model-calls">
      {calls.map((call, i) => (
        <li key={call.id}>
          <details
            className="group rounded-md border border-slate-200 bg-white"
            open={i === 0 && calls.length <= 3}
            data-testid="model-call"
            data-template={call.template}
          >
            <summary className="flex cursor-pointer flex-wrap items-center gap-2 px-3 py-2 text-xs select-none">
              <span aria-hidden className="transition-transform group-open:rotate-90">
                ▸
              </span>
              <span className="font-semibold text-slate-900">{call.role}</span>
              <span className="font-mono text-slate-700">
                {call.template}@v{call.templateVersion}
              </span>
              <span className="text-slate-600">{call.model}</span>
              <span className="tabular-nums text-slate-600">
                {call.tokensEstimated ? '≈' : ''}
                {formatCount(call.tokensIn)} in · {call.tokensEstimated ? '≈' : ''}
                {formatCount(call.tokensOut)} out{call.tokensEstimated ? ' (estimated)' : ''} · {formatMs(call.latencyMs)}
              </span>
              {call.cached ? <Badge tone="blue">cached</Badge> : null}
              {call.attempts > 1 ? <Badge tone="amber">{call.attempts} attempts</Badge> : null}
              {call.error ? <Badge tone="red">error</Badge> : null}
            </summary>
            <div className="space-y-2 border-t border-slate-100 px-3 py-2">
              {call.error ? (
                <p role="alert" className="text-xs break-words text-red-800">
                  {call.error}
                </p>
              ) : null}
              <h4 className="text-xs font-semibold text-slate-700">Rendered prompt</h4>
              {messagesOf(call.messages).map((m, j) => (
                <div key={j} className="space-y-0.5">
                  <p className="text-[11px] font-semibold tracking-wide text-slate-500 uppercase">{String(m.role ?? 'message')}</p>
                  <TextBlock text={contentText(m.content)} label={`Prompt message ${j + 1} (${String(m.role ?? '')})`} />
                </div>
              ))}
              <h4 className="text-xs font-semibold text-slate-700">Raw output</h4>
              <TextBlock text={call.output ?? '(no output)'} label="Raw model output" />
              <h4 className="text-xs font-semibold text-slate-700">Parsed JSON</h4>
              {call.parsed === null ? <p className="text-xs text-slate-600">Nothing parsed.</p> : <JsonView value={call.parsed} label="Parsed model output" />}
            </div>
          </details>
        </li>
      ))}
    </ol>
  );
}
