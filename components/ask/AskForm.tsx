'use client';

import { useActionState, useState, type ChangeEvent, type ReactNode } from 'react';
import { useFormStatus } from 'react-dom';
import { startRunAction, type ActionState } from '@/app/actions/runs';
import { Button } from '@/components/ui/Button';
import { cn } from '@/components/ui/cn';
import type { MethodDescriptor } from '@/lib/methods/descriptors';
import { ParamFields, defaultParamValues, type ParamValues } from './ParamFields';
import { QuestionSetPicker, type PickedQuestion } from './QuestionSetPicker';
import { SwitchFields, type SwitchState } from './SwitchFields';
import type { QuestionSetChoice } from '@/lib/eval/question-picker';
import { QUESTION_MAX_CHARS } from '@/lib/runs/schemas';
import { FULL_SWITCHES } from '@/lib/channels/switches';

const OPTION_KEYS = ['A', 'B', 'C', 'D', 'E'] as const;
const INITIAL: ActionState = { message: null, fieldErrors: {} };
const MAX_DOCUMENT_BYTES = 200_000;

export interface AskFormProps {
  methods: readonly MethodDescriptor[];
  /** What "auto" resolves to here ("offline engine (no language model)" without an endpoint). */
  autoBackend: string;
  openaiAvailable: boolean;
  sets: readonly QuestionSetChoice[];
  /** Rendered in the side column under the question sets (the recent runs). */
  aside?: ReactNode;
}

function Submit() {
  const { pending } = useFormStatus();
  return (
    <Button type="submit" variant="primary" disabled={pending} data-testid="ask-submit">
      {pending ? 'Starting…' : 'Run'}
    </Button>
  );
}

/**
 * The ask form: a question (typed, or picked from a question set so its gold
 * answer scores the run), optional MCQ options and an attached document, the
 * method with its parameters at the paper defaults, and the knowledge switches.
 * Submits through a server action that starts the run and opens its page.
 */
export function AskForm({ methods, autoBackend, openaiAvailable, sets, aside }: AskFormProps) {
  const [state, formAction] = useActionState(startRunAction, INITIAL);
  const preferred = methods.find((m) => m.id === 'kg-rag') ?? methods[0];
  const [methodId, setMethodId] = useState<string>(preferred?.id ?? '');
  const method = methods.find((m) => m.id === methodId);
  const [question, setQuestion] = useState('');
  const [picked, setPicked] = useState<PickedQuestion | null>(null);
  const [mcq, setMcq] = useState(false);
  const [options, setOptions] = useState<Record<string, string>>({});
  const [attach, setAttach] = useState(false);
  const [docTitle, setDocTitle] = useState('');
  const [docText, setDocText] = useState('');
  const [fileNote, setFileNote] = useState<string | null>(null);
  const [switches, setSwitches] = useState<SwitchState>({ switches: { ...FULL_SWITCHES }, kgShuffle: false, kgShuffleSeed: 17 });
  const [paramValues, setParamValues] = useState<ParamValues>(() => defaultParamValues(method?.params ?? []));
  const [backend, setBackend] = useState('auto');
  const errors = state.fieldErrors;

  const chooseMethod = (id: string) => {
    setMethodId(id);
    setParamValues(defaultParamValues(methods.find((m) => m.id === id)?.params ?? []));
  };
  const pick = (q: PickedQuestion) => {
    setPicked(q);
    setQuestion(q.question.text);
  };
  const readFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (!file) return;
    if (file.size > MAX_DOCUMENT_BYTES) {
      setFileNote(`${file.name} is larger than 200 kB; paste the relevant part instead.`);
      return;
    }
    setDocText(await file.text());
    if (!docTitle) setDocTitle(file.name.replace(/\.[^.]+$/, ''));
    setFileNote(`Read ${file.name} as plain text.`);
  };

  if (!methods.length) {
    return <p className="text-sm text-slate-700">No reasoning method is registered in this build.</p>;
  }

  return (
    <div className="grid items-start gap-6 lg:grid-cols-12">
      <form
        action={formAction}
        className="space-y-5 rounded-lg border border-slate-200 bg-white p-4 shadow-sm lg:col-span-7"
        data-testid="ask-form"
        aria-describedby={state.message ? 'ask-error' : undefined}
      >
        <div className="space-y-1.5">
          <label htmlFor="ask-question" className="text-sm font-semibold text-slate-900">
            Question
          </label>
          {picked ? (
            <div className="space-y-1 rounded-md border border-blue-200 bg-blue-50 px-3 py-2 text-sm" data-testid="picked-question">
              <input type="hidden" name="questionId" value={picked.question.id} />
              <p className="text-slate-900">{picked.question.text}</p>
              {picked.question.options ? (
                <ol className="text-xs text-slate-700">
                  {Object.entries(picked.question.options).map(([k, v]) => (
                    <li key={k}>
                      {k}. {v}
                    </li>
                  ))}
                </ol>
              ) : null}
              <p className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
                From {picked.setName} #{picked.question.ordinal + 1} · {picked.question.answerType}
                {picked.question.hasGold ? ' · the gold answer will score the run' : ''}
                <button type="button" className="font-medium text-blue-800 underline" onClick={() => setPicked(null)}>
                  Type my own question instead
                </button>
              </p>
            </div>
          ) : (
            <textarea
              id="ask-question"
              name="question"
              required
              minLength={3}
              rows={3}
              value={question}
              onChange={(e) => setQuestion(e.target.value)}
              placeholder="e.g. Which disease is treated by metformin and is associated with the gene PPARG?"
              aria-invalid={errors.question ? true : undefined}
              aria-describedby={errors.question ? 'ask-question-error ask-question-length' : 'ask-question-length'}
              className="w-full rounded-md border border-slate-300 px-3 py-2 text-sm text-slate-900 focus:border-blue-600 focus:ring-2 focus:ring-blue-600/30 focus:outline-none aria-invalid:border-red-500"
            />
          )}
          {!picked ? <QuestionLength length={question.trim().length} /> : null}
          {errors.question ? (
            <p id="ask-question-error" className="text-xs text-red-800" data-testid="ask-question-error">
              {errors.question}
            </p>
          ) : null}
        </div>

        {!picked ? (
          <div className="space-y-3">
            <label className="flex items-center gap-2 text-sm text-slate-800">
              <input type="checkbox" checked={mcq} onChange={(e) => setMcq(e.target.checked)} className="size-4" />
              Multiple choice (options A–E)
            </label>
            {mcq ? (
              <fieldset className="grid gap-2 sm:grid-cols-2">
                <legend className="sr-only">Answer options</legend>
                {OPTION_KEYS.map((k) => (
                  <label key={k} className="flex items-center gap-2 text-sm">
                    <span className="w-4 font-semibold text-slate-700">{k}</span>
                    <input
                      name={`option.${k}`}
                      value={options[k] ?? ''}
                      onChange={(e) => setOptions({ ...options, [k]: e.target.value })}
                      maxLength={1000}
                      className="h-8 flex-1 rounded-md border border-slate-300 px-2"
                      placeholder={k <= 'B' ? 'required' : 'optional'}
                    />
                  </label>
                ))}
                {errors.options ? <p className="text-xs text-red-800 sm:col-span-2">{errors.options}</p> : null}
              </fieldset>
            ) : null}
            <label className="flex items-center gap-2 text-sm text-slate-800">
              <input type="checkbox" checked={attach} onChange={(e) => setAttach(e.target.checked)} className="size-4" />
              Attach a document (the doc channel reads it)
            </label>
            {attach ? (
              <div className="space-y-2 rounded-md border border-slate-200 p-3">
                <label className="block text-sm">
                  <span className="text-slate-700">Title</span>
                  <input
                    name="document.title"
                    value={docTitle}
                    onChange={(e) => setDocTitle(e.target.value)}
                    maxLength={500}
                    className="mt-0.5 h-8 w-full rounded-md border border-slate-300 px-2"
                  />
                </label>
                <label className="block text-sm">
                  <span className="text-slate-700">Text</span>
                  <textarea
                    name="document.text"
                    value={docText}
                    onChange={(e) => setDocText(e.target.value)}
                    rows={5}
                    maxLength={200_000}
                    className="mt-0.5 w-full rounded-md border border-slate-300 px-2 py-1 font-mono text-xs"
                    data-testid="document-text-input"
                  />
                </label>
                <label className="block text-xs text-slate-700">
                  Or read a plain-text file: <input type="file" accept=".txt,.md,text/plain" onChange={readFile} className="text-xs" />
                </label>
                {fileNote ? <p className="text-xs text-slate-600">{fileNote}</p> : null}
                {errors['documents.0.text'] ? <p className="text-xs text-red-800">{errors['documents.0.text']}</p> : null}
              </div>
            ) : null}
          </div>
        ) : null}

        <fieldset className="space-y-2">
          <legend className="text-sm font-semibold text-slate-900">Method</legend>
          <div className="grid gap-2 sm:grid-cols-2" role="radiogroup" aria-label="Method">
            {methods.map((m) => (
              <label
                key={m.id}
                className={cn(
                  'flex cursor-pointer gap-2 rounded-md border px-3 py-2 text-sm',
                  m.id === methodId ? 'border-blue-500 bg-blue-50' : 'border-slate-200 hover:bg-slate-50',
                )}
              >
                <input type="radio" name="method" value={m.id} checked={m.id === methodId} onChange={() => chooseMethod(m.id)} className="mt-1 size-4" />
                <span>
                  <span className="font-semibold text-slate-900">{m.name}</span> <span className="text-xs text-slate-500">{m.source}</span>
                  <span className="mt-0.5 line-clamp-2 block text-xs text-slate-600" title={m.description}>
                    {m.description}
                  </span>
                </span>
              </label>
            ))}
          </div>
          {errors.method ? <p className="text-xs text-red-800">{errors.method}</p> : null}
        </fieldset>

        <SwitchFields value={switches} onChange={setSwitches} idPrefix="ask" />

        {method ? (
          <details className="rounded-md border border-slate-200 px-3 py-2" data-testid="method-params">
            <summary className="cursor-pointer text-sm font-semibold text-slate-900 select-none">
              {method.name} parameters <span className="font-normal text-slate-600">(paper defaults shown)</span>
            </summary>
            <div className="mt-2">
              <ParamFields key={method.id} params={method.params} values={paramValues} onChange={setParamValues} errors={errors} idPrefix="ask" />
            </div>
          </details>
        ) : null}

        <div className="flex flex-wrap items-center gap-3">
          <label htmlFor="ask-backend" className="text-sm text-slate-700">
            Model backend
          </label>
          <select
            id="ask-backend"
            name="backend"
            value={backend}
            onChange={(e) => setBackend(e.target.value)}
            className="h-8 rounded-md border border-slate-300 bg-white px-2 text-sm"
          >
            <option value="auto">auto: {autoBackend}</option>
            <option value="offline">offline engine (no language model)</option>
            <option value="openai" disabled={!openaiAvailable}>
              OpenAI-compatible endpoint{openaiAvailable ? '' : ' (none configured)'}
            </option>
          </select>
        </div>

        {state.message ? (
          <p id="ask-error" role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900" data-testid="ask-error">
            {state.message}
          </p>
        ) : null}
        <div className="flex items-center gap-3">
          <Submit />
          <p className="text-xs text-slate-600">The run page opens at once and fills in as the method works.</p>
        </div>
      </form>
      <aside className="space-y-6 lg:col-span-5">
        <QuestionSetPicker sets={sets} onPick={pick} />
        {aside}
      </aside>
    </div>
  );
}

/** The question's length against the limit, shown while typing: a longer question is refused on submit, never cut. */
function QuestionLength({ length }: { length: number }) {
  const over = length > QUESTION_MAX_CHARS;
  return (
    <p
      id="ask-question-length"
      className={over ? 'text-xs font-medium text-red-800' : 'text-xs text-slate-500'}
      data-testid="question-length"
      data-over={over ? 'true' : 'false'}
    >
      {length.toLocaleString('en-US')} / {QUESTION_MAX_CHARS.toLocaleString('en-US')} characters
      {over ? ` — ${(length - QUESTION_MAX_CHARS).toLocaleString('en-US')} too many: shorten the question (it is not cut, the run is refused)` : ''}
    </p>
  );
}
