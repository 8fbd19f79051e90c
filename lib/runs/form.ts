import { CHANNELS } from '@/lib/trace/types';
import type { ParamDescriptor } from '@/lib/methods/descriptors';
import { OPTION_KEYS } from './schemas';

/**
 * The ask form and the rerun form post HTML form fields; these turn them into
 * the JSON bodies the run service validates (RunRequestSchema / RerunRequestSchema).
 * Nothing is validated here beyond typing the fields: the service says what is wrong.
 *
 * Fields: question | questionId, method, backend, option.A–E, document.title,
 * document.text, switch.<channel> (checkboxes; the form posts `switches=1` so an
 * unticked box reads as off), kgShuffle + kgShuffleSeed, param.<name>.
 */
export interface FormFields {
  get(name: string): FormDataEntryValue | null;
  has(name: string): boolean;
}

const text = (form: FormFields, name: string): string => {
  const v = form.get(name);
  return typeof v === 'string' ? v : '';
};

export function readSwitches(form: FormFields): Record<string, boolean> | undefined {
  if (!form.has('switches')) return undefined;
  return Object.fromEntries(CHANNELS.map((c) => [c, form.has(`switch.${c}`)]));
}

export function readKgShuffle(form: FormFields): false | { seed: number } | undefined {
  if (!form.has('switches')) return undefined;
  if (!form.has('kgShuffle')) return false;
  const seed = Number(text(form, 'kgShuffleSeed') || 17);
  return { seed: Number.isFinite(seed) ? Math.trunc(seed) : 17 };
}

/** Typed parameter values; a blank number field is left out (the default applies). */
export function readParams(form: FormFields, params: readonly ParamDescriptor[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of params) {
    const field = `param.${p.name}`;
    if (p.type === 'boolean') {
      if (form.has(`${field}.shown`)) out[p.name] = form.has(field);
      continue;
    }
    if (!form.has(field)) continue;
    const raw = text(form, field).trim();
    if (raw === '') continue;
    if (p.type === 'integer' || p.type === 'number') out[p.name] = Number(raw);
    else if (p.type === 'json') {
      try {
        out[p.name] = JSON.parse(raw);
      } catch {
        out[p.name] = raw; // the schema names the problem
      }
    } else out[p.name] = raw;
  }
  return out;
}

/** The ask form → a RunRequest body. */
export function runRequestFromForm(form: FormFields, params: readonly ParamDescriptor[]) {
  const questionId = text(form, 'questionId').trim();
  const options = Object.fromEntries(OPTION_KEYS.map((k) => [k, text(form, `option.${k}`).trim()]).filter(([, v]) => v));
  const docText = text(form, 'document.text').trim();
  const docTitle = text(form, 'document.title').trim();
  const kgShuffle = readKgShuffle(form);
  return {
    method: text(form, 'method'),
    ...(questionId ? { questionId } : { question: text(form, 'question') }),
    ...(!questionId && Object.keys(options).length ? { options } : {}),
    ...(!questionId && docText ? { documents: [{ text: docText, ...(docTitle ? { title: docTitle } : {}) }] } : {}),
    ...(readSwitches(form) ? { switches: readSwitches(form) } : {}),
    ...(kgShuffle ? { kgShuffle } : {}),
    params: readParams(form, params),
    backend: text(form, 'backend') || 'auto',
  };
}

/** The rerun form → a RerunRequest body (only what it carries). */
export function rerunRequestFromForm(form: FormFields, params: readonly ParamDescriptor[]) {
  const kgShuffle = readKgShuffle(form);
  return {
    ...(readSwitches(form) ? { switches: readSwitches(form) } : {}),
    ...(kgShuffle !== undefined ? { kgShuffle } : {}),
    params: readParams(form, params),
  };
}
