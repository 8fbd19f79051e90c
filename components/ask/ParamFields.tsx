'use client';

import type { ParamDescriptor } from '@/lib/methods/descriptors';

export type ParamValues = Record<string, string | boolean>;

/** Form values of a method's parameters at their defaults (numbers as text, so a field can be blank). */
export function defaultParamValues(params: readonly ParamDescriptor[], current: Record<string, unknown> = {}): ParamValues {
  return Object.fromEntries(
    params.map((p) => {
      const v = p.name in current ? current[p.name] : p.default;
      if (p.type === 'boolean') return [p.name, v === true];
      if (p.type === 'json') return [p.name, v === undefined ? '' : JSON.stringify(v)];
      return [p.name, v === undefined || v === null ? '' : String(v)];
    }),
  );
}

function showDefault(p: ParamDescriptor): string {
  if (p.default === undefined) return 'no default';
  return typeof p.default === 'object' ? JSON.stringify(p.default) : String(p.default);
}

/**
 * A method's run parameters, read from its zod schema, each with the paper's
 * default shown beside it (fields `param.<name>`; see lib/runs/form.ts).
 */
export function ParamFields({
  params,
  values,
  onChange,
  errors = {},
  idPrefix,
}: {
  params: readonly ParamDescriptor[];
  values: ParamValues;
  onChange: (next: ParamValues) => void;
  errors?: Record<string, string>;
  idPrefix: string;
}) {
  if (!params.length) return <p className="text-sm text-slate-600">This method has no parameters.</p>;
  const changed = params.filter((p) => String(values[p.name]) !== String(defaultParamValues([p])[p.name]));
  return (
    <div className="space-y-2">
      <div className="grid gap-x-4 gap-y-2 sm:grid-cols-2">
        {params.map((p) => {
          const id = `${idPrefix}-param-${p.name}`;
          const error = errors[`params.${p.name}`] ?? errors[p.name];
          const range = p.min !== undefined || p.max !== undefined ? ` · ${p.min ?? '−∞'}…${p.max ?? '∞'}` : '';
          return (
            <div key={p.name} className="space-y-0.5">
              {p.type === 'boolean' ? (
                <label htmlFor={id} className="flex items-center gap-2 text-sm">
                  <input type="hidden" name={`param.${p.name}.shown`} value="1" />
                  <input
                    id={id}
                    type="checkbox"
                    name={`param.${p.name}`}
                    checked={values[p.name] === true}
                    onChange={(e) => onChange({ ...values, [p.name]: e.target.checked })}
                    className="size-4"
                  />
                  <span className="font-mono text-slate-900">{p.name}</span>
                  <span className="text-xs text-slate-500">default {showDefault(p)}</span>
                </label>
              ) : (
                <>
                  <label htmlFor={id} className="flex items-baseline justify-between gap-2 text-sm">
                    <span className="font-mono text-slate-900">{p.name}</span>
                    <span className="text-xs text-slate-500">
                      default {showDefault(p)}
                      {range}
                    </span>
                  </label>
                  {p.type === 'enum' ? (
                    <select
                      id={id}
                      name={`param.${p.name}`}
                      value={String(values[p.name] ?? '')}
                      onChange={(e) => onChange({ ...values, [p.name]: e.target.value })}
                      className="h-8 w-full rounded-md border border-slate-300 bg-white px-2 text-sm"
                    >
                      {p.options?.map((o) => (
                        <option key={o} value={o}>
                          {o}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <input
                      id={id}
                      name={`param.${p.name}`}
                      type={p.type === 'integer' || p.type === 'number' ? 'number' : 'text'}
                      step={p.type === 'integer' ? 1 : 'any'}
                      min={p.min}
                      max={p.max}
                      value={String(values[p.name] ?? '')}
                      onChange={(e) => onChange({ ...values, [p.name]: e.target.value })}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? `${id}-error` : undefined}
                      className="h-8 w-full rounded-md border border-slate-300 px-2 font-mono text-sm aria-invalid:border-red-500"
                    />
                  )}
                </>
              )}
              {p.description ? <p className="text-xs text-slate-600">{p.description}</p> : null}
              {error ? (
                <p id={`${id}-error`} className="text-xs text-red-800">
                  {error}
                </p>
              ) : null}
            </div>
          );
        })}
      </div>
      <p className="text-xs text-slate-600">
        {changed.length ? `Changed from the paper defaults: ${changed.map((p) => p.name).join(', ')}.` : 'All parameters at the paper defaults.'}
      </p>
    </div>
  );
}
