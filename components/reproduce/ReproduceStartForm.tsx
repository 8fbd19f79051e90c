'use client';

import Link from 'next/link';
import { useActionState } from 'react';
import { Button } from '@/components/ui/Button';
import type { ReproduceFormState } from '@/app/reproduce/actions';

export interface ReproduceStartFormProps {
  table: string;
  title: string;
  sets: { name: string; total: number }[];
  action: (prev: ReproduceFormState, form: FormData) => Promise<ReproduceFormState>;
}

/** The set (and an optional sample size) to run one table on, and the one button that starts it. */
export function ReproduceStartForm({ table, title, sets, action }: ReproduceStartFormProps) {
  const [state, submit, pending] = useActionState(action, { message: null });
  const id = (name: string) => `${table}-${name}`;
  return (
    <form action={submit} className="flex flex-wrap items-end gap-2" aria-label={`Run ${title}`}>
      <input type="hidden" name="table" value={table} />
      <label className="text-xs text-slate-700" htmlFor={id('set')}>
        Question set
        <select id={id('set')} name="set" className="mt-0.5 block h-8 rounded border border-slate-300 bg-white px-2 text-sm" defaultValue={sets[0]?.name}>
          {sets.map((s) => (
            <option key={s.name} value={s.name}>
              {s.name} ({s.total})
            </option>
          ))}
        </select>
      </label>
      <label className="text-xs text-slate-700" htmlFor={id('limit')}>
        Questions (sample)
        <input
          id={id('limit')}
          name="limit"
          type="number"
          min={1}
          placeholder="all"
          className="mt-0.5 block h-8 w-24 rounded border border-slate-300 px-2 text-sm"
        />
      </label>
      <label className="text-xs text-slate-700" htmlFor={id('backend')}>
        Backend
        <select id={id('backend')} name="backend" className="mt-0.5 block h-8 rounded border border-slate-300 bg-white px-2 text-sm" defaultValue="auto">
          <option value="auto">auto</option>
          <option value="offline">offline engine</option>
          <option value="openai">endpoint</option>
        </select>
      </label>
      <Button type="submit" size="sm" disabled={pending || !sets.length}>
        {pending ? 'Starting…' : 'Run this table'}
      </Button>
      {sets.length ? null : (
        <p className="w-full text-xs text-slate-700">
          No question set yet:{' '}
          <Link className="text-blue-700 underline" href="/eval#sets-heading">
            generate one (BioMedHop, from the loaded KG) or import one
          </Link>
          , then run this table on it.
        </p>
      )}
      {state.message ? (
        <p role="alert" className="w-full text-xs text-red-700">
          {state.message}
        </p>
      ) : null}
    </form>
  );
}
