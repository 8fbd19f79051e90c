'use client';

import { useActionState, useState } from 'react';
import { Button } from '@/components/ui/Button';
import type { EvalFormState } from '@/lib/eval/jobs/form';

export interface SetChoice {
  name: string;
  source: string;
  total: number;
}

interface EvalStartFormProps {
  sets: SetChoice[];
  /** The set chosen first (`?set=`, e.g. one just generated); the first set otherwise. */
  selected?: string;
  methods: { id: string; name: string }[];
  presets: Record<string, string>;
  action: (state: EvalFormState, form: FormData) => Promise<EvalFormState>;
}

const field = 'w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-blue-600';

/** The start form: set, methods, switch grid, sample, concurrency, backend. Problems come back per field. */
export function EvalStartForm({ sets, selected, methods, presets, action }: EvalStartFormProps) {
  const [state, submit, pending] = useActionState(action, { message: null, fieldErrors: {} });
  const [grid, setGrid] = useState('full,kg=0,entity=0,param=0');
  const error = (name: string) =>
    state.fieldErrors[name] ? (
      <p className="text-xs text-red-800" id={`${name}-error`}>
        {state.fieldErrors[name]}
      </p>
    ) : null;
  if (!sets.length) {
    return (
      <p className="text-sm text-slate-700" data-testid="eval-no-sets">
        No question sets yet: generate one from the KG or import a file under{' '}
        <a href="#sets-heading" className="text-blue-800 underline">
          Add a question set
        </a>
        .
      </p>
    );
  }
  return (
    <form action={submit} className="space-y-4" aria-label="Start an evaluation" data-testid="eval-start-form">
      <div className="space-y-1">
        <label htmlFor="eval-set" className="text-sm font-medium text-slate-900">
          Question set
        </label>
        <select
          key={selected}
          id="eval-set"
          name="set"
          className={field}
          defaultValue={selected && sets.some((s) => s.name === selected) ? selected : sets[0].name}
          aria-describedby={state.fieldErrors.set ? 'set-error' : undefined}
        >
          {sets.map((s) => (
            <option key={s.name} value={s.name}>
              {s.name} ({s.source}, {s.total} questions)
            </option>
          ))}
        </select>
        {error('set')}
      </div>
      <fieldset className="space-y-1">
        <legend className="text-sm font-medium text-slate-900">Methods</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-1">
          {methods.map((m) => (
            <label key={m.id} className="inline-flex items-center gap-1.5 text-sm text-slate-800">
              <input type="checkbox" name="methods" value={m.id} defaultChecked={m.id === methods[0]?.id} />
              {m.name}
            </label>
          ))}
        </div>
        {error('methods')}
      </fieldset>
      <div className="space-y-1">
        <label htmlFor="eval-switches" className="text-sm font-medium text-slate-900">
          Switch configurations
        </label>
        <input
          id="eval-switches"
          name="switches"
          className={`${field} font-mono`}
          value={grid}
          onChange={(e) => setGrid(e.target.value)}
          aria-describedby="switches-help"
        />
        <p id="switches-help" className="text-xs text-slate-600">
          Comma-separated; several channels off in one configuration: <code>kg=0+param=0</code>; one channel only: <code>doc-only</code>; KG shuffle control:{' '}
          <code>full+shuffle</code>.
        </p>
        <div className="flex flex-wrap gap-2">
          {Object.entries(presets).map(([name, spec]) => (
            <Button key={name} size="sm" variant="ghost" onClick={() => setGrid(spec)} title={spec}>
              {name === 'xr2' ? 'X-R2 attribution grid' : name}
            </Button>
          ))}
        </div>
        {error('switches')}
      </div>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <div className="space-y-1">
          <label htmlFor="eval-limit" className="text-sm font-medium text-slate-900">
            Sample size
          </label>
          <input id="eval-limit" name="limit" type="number" min={1} placeholder="all" className={field} />
          {error('limit')}
        </div>
        <div className="space-y-1">
          <label htmlFor="eval-seed" className="text-sm font-medium text-slate-900">
            Seed
          </label>
          <input id="eval-seed" name="seed" defaultValue="1" className={field} />
          {error('seed')}
        </div>
        <div className="space-y-1">
          <label htmlFor="eval-concurrency" className="text-sm font-medium text-slate-900">
            Runs at a time
          </label>
          <input id="eval-concurrency" name="concurrency" type="number" min={1} max={64} defaultValue={4} className={field} />
          {error('concurrency')}
        </div>
        <div className="space-y-1">
          <label htmlFor="eval-backend" className="text-sm font-medium text-slate-900">
            Backend
          </label>
          <select id="eval-backend" name="backend" defaultValue="auto" className={field}>
            <option value="auto">auto</option>
            <option value="offline">offline engine</option>
            <option value="openai">model endpoint</option>
          </select>
          {error('backend')}
        </div>
      </div>
      {state.message ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          {state.message}
        </p>
      ) : null}
      <Button type="submit" variant="primary" disabled={pending}>
        {pending ? 'Starting…' : 'Start evaluation'}
      </Button>
    </form>
  );
}
