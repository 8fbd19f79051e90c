'use client';

import { useRouter } from 'next/navigation';
import { useActionState, useEffect, useId, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/Button';
import { cn } from '@/components/ui/cn';
import { EMPTY_SET_FORM, setNameFromFile, type SetFormState } from '@/lib/eval/set-form';

type SetAction = (state: SetFormState, form: FormData) => Promise<SetFormState>;

interface QuestionSetFormsProps {
  generate: SetAction;
  importFile: SetAction;
  families: readonly string[];
  renderings: readonly string[];
  /** BioMedHop's evidence sources (the source condition each question's bundles are built for). */
  sources: readonly string[];
  formats: readonly string[];
  maxQuestions: number;
  maxUploadMb: number;
}

const field = 'w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-blue-600';

const FORMAT_HELP: Record<string, string> = {
  jsonl: 'one question per line: {"question", "answer", "options"?, "answer_type"?, "documents"?, "gold_nodes"?, "family"?, "id"?, "meta"?}',
  mirage: 'benchmark.json of MIRAGE (plain or .gz)',
  medddx: 'MedDDx JSON of KGARevion (plain or .gz)',
  pubmedqa: 'ori_pqal.json of PubMedQA (PQA-L); abstracts are attached as documents',
};

/**
 * Getting a question set without the command line: generate one from the
 * loaded KG (BioMedHop families or K2V masked paths) or import a file. A
 * stored set is selected in the start form through the URL (`?set=`).
 */
export function QuestionSetForms(props: QuestionSetFormsProps) {
  const [tab, setTab] = useState<'generate' | 'import'>('generate');
  const tabs: { id: 'generate' | 'import'; label: string }[] = [
    { id: 'generate', label: 'Generate from the KG' },
    { id: 'import', label: 'Import a file' },
  ];
  return (
    <div className="space-y-3">
      <div role="tablist" aria-label="Add a question set" className="flex gap-1 border-b border-slate-200">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`set-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`set-panel-${t.id}`}
            onClick={() => setTab(t.id)}
            className={cn(
              '-mb-px border-b-2 px-3 py-1.5 text-sm font-medium',
              tab === t.id ? 'border-blue-700 text-blue-800' : 'border-transparent text-slate-600 hover:text-slate-900',
            )}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`set-panel-${tab}`} aria-labelledby={`set-tab-${tab}`}>
        {tab === 'generate' ? <GenerateForm {...props} /> : <ImportForm {...props} />}
      </div>
    </div>
  );
}

function useSetForm(action: SetAction) {
  const [state, submit, pending] = useActionState(action, EMPTY_SET_FORM);
  const router = useRouter();
  useEffect(() => {
    // The new set becomes the start form's choice, and stays so on reload.
    if (state.created) router.replace(`/eval?set=${encodeURIComponent(state.created.name)}`, { scroll: false });
  }, [state.created, router]);
  return { state, submit, pending };
}

function GenerateForm({ generate, families, renderings, sources, maxQuestions }: QuestionSetFormsProps) {
  const { state, submit, pending } = useSetForm(generate);
  const [generator, setGenerator] = useState<'biomedhop' | 'k2v'>('biomedhop');
  const [count, setCount] = useState('20');
  const [name, setName] = useState('');
  const suggested = `${generator}-${count || 'n'}`;
  return (
    <form action={submit} className="space-y-3" aria-label="Generate a question set" data-testid="set-generate-form">
      <fieldset className="space-y-1">
        <legend className="text-sm font-medium text-slate-900">Generator</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-800">
          <label className="inline-flex items-center gap-1.5">
            <input type="radio" name="generator" value="biomedhop" checked={generator === 'biomedhop'} onChange={() => setGenerator('biomedhop')} />
            BioMedHop (multi-hop questions over the KG)
          </label>
          <label className="inline-flex items-center gap-1.5">
            <input type="radio" name="generator" value="k2v" checked={generator === 'k2v'} onChange={() => setGenerator('k2v')} />
            K2V (fill in the masked entity of a 2-hop path)
          </label>
        </div>
      </fieldset>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        <Field label="Name" htmlFor="set-gen-name" error={state.fieldErrors.name} className="col-span-2 sm:col-span-1">
          <input id="set-gen-name" name="name" className={field} value={name} placeholder={suggested} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label="Questions" htmlFor="set-gen-count" error={state.fieldErrors.count}>
          <input
            id="set-gen-count"
            name="count"
            type="number"
            min={1}
            max={maxQuestions}
            className={field}
            value={count}
            onChange={(e) => setCount(e.target.value)}
          />
        </Field>
        <Field label="Seed" htmlFor="set-gen-seed" error={state.fieldErrors.seed}>
          <input id="set-gen-seed" name="seed" defaultValue="1" className={field} />
        </Field>
      </div>
      {generator === 'biomedhop' ? (
        <div className="grid gap-3 sm:grid-cols-2">
          <Choices legend="Families" name="families" values={families} error={state.fieldErrors.families} />
          <Choices legend="Renderings" name="renderings" values={renderings} error={state.fieldErrors.renderings} />
          <Choices legend="Evidence sources (condition)" name="sources" values={sources} error={state.fieldErrors.sources} />
          <label className="inline-flex items-center gap-1.5 self-end text-sm text-slate-800">
            <input type="checkbox" name="coverage" value="require" />
            Require each text source to state a hop (redraws the rest)
          </label>
        </div>
      ) : null}
      <p className="text-xs text-slate-600">The same seed and count on the same graph give the same set; generating again under a name replaces that set.</p>
      <Outcome state={state} />
      <Button type="submit" variant="primary" disabled={pending} data-testid="set-generate-submit">
        {pending ? 'Generating…' : 'Generate set'}
      </Button>
    </form>
  );
}

function ImportForm({ importFile, formats, maxUploadMb }: QuestionSetFormsProps) {
  const { state, submit, pending } = useSetForm(importFile);
  const [format, setFormat] = useState(formats[0]);
  const [fileName, setFileName] = useState('');
  const helpId = useId();
  return (
    <form action={submit} className="space-y-3" aria-label="Import a question set" data-testid="set-import-form">
      <div className="grid grid-cols-2 gap-3">
        <Field label="Format" htmlFor="set-import-format" error={state.fieldErrors.format}>
          <select id="set-import-format" name="format" className={field} value={format} onChange={(e) => setFormat(e.target.value)} aria-describedby={helpId}>
            {formats.map((f) => (
              <option key={f} value={f}>
                {f === 'jsonl' ? 'JSONL' : f === 'mirage' ? 'MIRAGE' : f === 'medddx' ? 'MedDDx' : 'PubMedQA'}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Name" htmlFor="set-import-name" error={state.fieldErrors.name}>
          <input id="set-import-name" name="name" className={field} placeholder={setNameFromFile(fileName) || 'the file name'} />
        </Field>
      </div>
      <p id={helpId} className="text-xs break-words text-slate-600">
        {FORMAT_HELP[format]}
      </p>
      <Field label={`File (up to ${maxUploadMb} MB)`} htmlFor="set-import-file" error={state.fieldErrors.file}>
        <input
          id="set-import-file"
          name="file"
          type="file"
          accept=".jsonl,.json,.gz,.txt"
          className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-2.5 file:py-1 file:text-sm file:font-medium hover:file:bg-slate-50"
          onChange={(e) => setFileName(e.target.files?.[0]?.name ?? '')}
        />
      </Field>
      <Field label="First N per family (optional)" htmlFor="set-import-limit" error={state.fieldErrors.limit}>
        <input id="set-import-limit" name="limit" type="number" min={1} placeholder="all" className={cn(field, 'max-w-40')} />
      </Field>
      <Outcome state={state} />
      <Button type="submit" variant="primary" disabled={pending} data-testid="set-import-submit">
        {pending ? 'Importing…' : 'Import set'}
      </Button>
    </form>
  );
}

function Field({ label, htmlFor, error, className, children }: { label: string; htmlFor: string; error?: string; className?: string; children: ReactNode }) {
  return (
    <div className={cn('space-y-1', className)}>
      <label htmlFor={htmlFor} className="text-sm font-medium text-slate-900">
        {label}
      </label>
      {children}
      {error ? <p className="text-xs text-red-800">{error}</p> : null}
    </div>
  );
}

function Choices({ legend, name, values, error }: { legend: string; name: string; values: readonly string[]; error?: string }) {
  return (
    <fieldset className="space-y-1">
      <legend className="text-sm font-medium text-slate-900">{legend}</legend>
      <div className="flex flex-wrap gap-x-3 gap-y-1 text-sm text-slate-800">
        {values.map((v) => (
          <label key={v} className="inline-flex items-center gap-1.5">
            <input type="checkbox" name={name} value={v} defaultChecked />
            {v.replace(/_/g, ' ')}
          </label>
        ))}
      </div>
      {error ? <p className="text-xs text-red-800">{error}</p> : null}
    </fieldset>
  );
}

function Outcome({ state }: { state: SetFormState }) {
  if (state.created) {
    return (
      <p role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900" data-testid="set-created">
        Stored <strong>{state.created.name}</strong> ({state.created.source}, {state.created.total} questions). It is selected in the start form.
      </p>
    );
  }
  if (!state.message) return null;
  return (
    <div role="alert" className="space-y-1 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900" data-testid="set-form-error">
      <p>{state.message}</p>
      {state.issues.length ? (
        <ul className="list-disc space-y-0.5 pl-5 font-mono text-xs break-words" data-testid="set-form-issues">
          {state.issues.map((issue, i) => (
            <li key={i}>{issue}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
