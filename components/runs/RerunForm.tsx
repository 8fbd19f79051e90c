'use client';

import { useActionState, useMemo, useState } from 'react';
import { useFormStatus } from 'react-dom';
import { rerunAction, type ActionState } from '@/app/actions/runs';
import { ParamFields, defaultParamValues, type ParamValues } from '@/components/ask/ParamFields';
import { SwitchFields, type SwitchState } from '@/components/ask/SwitchFields';
import { Button } from '@/components/ui/Button';
import type { ParamDescriptor } from '@/lib/methods/descriptors';
import type { RunView } from '@/lib/runs/view';
import { FULL_SWITCHES } from '@/lib/channels/switches';

const INITIAL: ActionState = { message: null, fieldErrors: {} };

function initialSwitches(run: RunView): SwitchState {
  const c = run.config;
  return {
    switches: c ? { ...c.switches } : { ...FULL_SWITCHES },
    kgShuffle: !!c?.kgShuffle,
    kgShuffleSeed: c?.kgShuffle?.seed ?? 17,
  };
}

function Submit() {
  const { pending } = useFormStatus();
  return (
    <Button type="submit" variant="primary" disabled={pending} data-testid="rerun-submit">
      {pending ? 'Starting the rerun…' : 'Rerun with these settings'}
    </Button>
  );
}

/**
 * Flip switches or change parameters and run the same question again (a
 * server action). The new run records this one as its parent and the change,
 * and its page offers the comparison.
 */
export function RerunForm({ run, params }: { run: RunView; params: readonly ParamDescriptor[] }) {
  const [state, formAction] = useActionState(rerunAction.bind(null, run.id), INITIAL);
  const [switches, setSwitches] = useState<SwitchState>(() => initialSwitches(run));
  const [values, setValues] = useState<ParamValues>(() => defaultParamValues(params, run.config?.params ?? {}));
  const original = useMemo(() => initialSwitches(run), [run]);
  const flipped = (Object.keys(switches.switches) as (keyof SwitchState['switches'])[]).filter((c) => switches.switches[c] !== original.switches[c]);
  return (
    <section aria-labelledby="rerun-heading" className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <header className="border-b border-slate-200 px-4 py-2">
        <h2 id="rerun-heading" className="text-sm font-semibold text-slate-900">
          Rerun with other switches or parameters
        </h2>
      </header>
      <form action={formAction} className="space-y-4 px-4 py-3" data-testid="rerun-form">
        <SwitchFields value={switches} onChange={setSwitches} idPrefix="rerun" />
        <details>
          <summary className="cursor-pointer text-sm font-semibold text-slate-900 select-none">Method parameters ({run.methodName})</summary>
          <div className="mt-2">
            <ParamFields params={params} values={values} onChange={setValues} errors={state.fieldErrors} idPrefix="rerun" />
          </div>
        </details>
        {state.message ? (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
            {state.message}
          </p>
        ) : null}
        <div className="flex flex-wrap items-center gap-3">
          <Submit />
          <p className="text-xs text-slate-600">
            {flipped.length ? `Switching ${flipped.map((c) => `${c} ${switches.switches[c] ? 'on' : 'off'}`).join(', ')}. ` : ''}
            The new run links back to this one and offers the comparison.
          </p>
        </div>
      </form>
    </section>
  );
}
