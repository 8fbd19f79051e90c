'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { mapError } from '@/lib/api/errors';
import { ownerOf } from '@/lib/auth/access';
import { viewerFor, type Viewer } from '@/lib/auth/viewer';
import { HttpError } from '@/lib/api/errors';
import { assertSafeForm } from '@/lib/api/input';
import { InvalidInputError } from '@/lib/base/errors';
import { GenerateRequestSchema, GenerationError, generateQuestionSet, InvalidGenerationOptions } from '@/lib/eval/generate';
import { SetImportError } from '@/lib/eval/import';
import { importUploadedSet, MAX_UPLOAD_BYTES, SetUploadSchema } from '@/lib/eval/import/upload';
import { createEvalJob } from '@/lib/eval/jobs';
import { evalRequestFromForm, type EvalFormState } from '@/lib/eval/jobs/form';
import { SetNameTaken, type QuestionSetSummary } from '@/lib/eval/sets';
import { EMPTY_SET_FORM, setNameFromFile, type SetFormState } from '@/lib/eval/set-form';

/** The start form: store the job (the server's eval workers pick it up) and open its page. */
export async function startEvaluationAction(_prev: EvalFormState, form: FormData): Promise<EvalFormState> {
  let id: string;
  try {
    ({ id } = await createEvalJob(evalRequestFromForm(form), { ownerId: ownerOf(await viewerFor()) }));
  } catch (error) {
    // The same mapping as the JSON routes: invalid input names its fields, anything unexpected stays in the log.
    const mapped = mapError(error);
    if (mapped.internal) {
      console.error('[action] starting the evaluation failed:', error);
      return {
        message: 'Starting the evaluation failed: the server could not finish the request. Check that the database is up, then try again.',
        fieldErrors: {},
      };
    }
    const fieldErrors: Record<string, string> = {};
    for (const issue of mapped.body.issues ?? []) fieldErrors[issue.path.split('.')[0] || 'form'] ??= issue.message;
    return { message: mapped.body.error, fieldErrors };
  }
  revalidatePath('/eval');
  redirect(`/eval/${id}`);
}

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
};

/** Generate a BioMedHop or K2V set from the loaded KG (the same request as `hopscope generate`). */
export async function generateSetAction(_prev: SetFormState, form: FormData): Promise<SetFormState> {
  const viewer = await signedIn();
  if (!('auth' in viewer)) return viewer;
  const unsafe = unsafeField(form);
  if (unsafe) return unsafe;
  const families = form.getAll('families').filter((f): f is string => typeof f === 'string');
  const renderings = form.getAll('renderings').filter((r): r is string => typeof r === 'string');
  const sources = form.getAll('sources').filter((r): r is string => typeof r === 'string');
  const generator = text(form, 'generator');
  const parsed = GenerateRequestSchema.safeParse({
    generator,
    // An unnamed set takes the name the form suggests: "biomedhop-20".
    name: text(form, 'name') ?? `${generator}-${text(form, 'count') ?? 50}`,
    seed: text(form, 'seed'),
    count: text(form, 'count'),
    // Families and renderings are BioMedHop's; an empty choice means all of them.
    ...(generator === 'biomedhop' && families.length ? { families } : {}),
    ...(generator === 'biomedhop' && renderings.length ? { renderings } : {}),
    ...(generator === 'biomedhop' && sources.length ? { sources } : {}),
    ...(generator === 'biomedhop' && text(form, 'coverage') ? { coverage: text(form, 'coverage') } : {}),
  });
  if (!parsed.success) return invalid(parsed.error.issues);
  return storeSet(() => generateQuestionSet(parsed.data, { ownerId: ownerOf(viewer) }));
}

/** Import an uploaded JSONL / MIRAGE / MedDDx / PubMedQA file (the same readers as `hopscope sets import`). */
export async function importSetAction(_prev: SetFormState, form: FormData): Promise<SetFormState> {
  const viewer = await signedIn();
  if (!('auth' in viewer)) return viewer;
  const unsafe = unsafeField(form);
  if (unsafe) return unsafe;
  const file = form.get('file');
  if (!(file instanceof File) || file.size === 0)
    return { ...EMPTY_SET_FORM, message: 'Choose a file to import.', fieldErrors: { file: 'no file chosen (or the file is empty)' } };
  if (file.size > MAX_UPLOAD_BYTES)
    return {
      ...EMPTY_SET_FORM,
      message: `The file is ${Math.ceil(file.size / 1e6)} MB; the form takes up to ${MAX_UPLOAD_BYTES / 1024 / 1024} MB (use \`npm run hopscope -- sets import\` for larger ones).`,
      fieldErrors: { file: 'too large' },
    };
  const parsed = SetUploadSchema.safeParse({
    format: text(form, 'format'),
    name: text(form, 'name') ?? setNameFromFile(file.name),
    limit: text(form, 'limit'),
  });
  if (!parsed.success) return invalid(parsed.error.issues);
  const bytes = new Uint8Array(await file.arrayBuffer());
  return storeSet(() => importUploadedSet(parsed.data, { fileName: file.name, bytes }, { ownerId: ownerOf(viewer) }));
}

/**
 * Who submits the form, from a verified session (lib/auth/viewer; never the
 * mere presence of a cookie), or the form's answer when nobody is signed in.
 */
async function signedIn(): Promise<Viewer | SetFormState> {
  try {
    return await viewerFor();
  } catch (error) {
    if (error instanceof HttpError) return { ...EMPTY_SET_FORM, message: error.message };
    throw error;
  }
}

/** A text field holding a NUL byte or a lone surrogate: refused like any invalid field. */
function unsafeField(form: FormData): SetFormState | null {
  try {
    assertSafeForm(form);
    return null;
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    return invalid(error.issues.map((i) => ({ path: i.path.split('.').slice(0, 1), message: i.message })));
  }
}

function invalid(issues: readonly { path: PropertyKey[]; message: string }[]): SetFormState {
  const fieldErrors: Record<string, string> = {};
  for (const issue of issues) fieldErrors[String(issue.path[0] ?? 'form')] ??= issue.message;
  return {
    ...EMPTY_SET_FORM,
    message: `Check the form: ${issues.map((i) => (i.path.length ? `${String(i.path[0])}: ${i.message}` : i.message)).join('; ')}`,
    fieldErrors,
  };
}

/** Runs a generation or import; each failure class becomes a message the form shows, nothing unexpected leaks. */
async function storeSet(store: () => Promise<QuestionSetSummary>): Promise<SetFormState> {
  let set: QuestionSetSummary;
  try {
    set = await store();
  } catch (error) {
    if (error instanceof SetImportError) {
      const n = error.issues.length;
      const issues = error.issues.slice(0, 12).map((i) => `${i.at ? `${i.at}: ` : ''}${i.reason}`);
      if (n > issues.length) issues.push(`… and ${n - issues.length} more`);
      return { ...EMPTY_SET_FORM, message: `${n} problem${n === 1 ? '' : 's'} found in the file; nothing was imported.`, issues };
    }
    if (error instanceof InvalidInputError)
      return error.issues.length ? invalid(error.issues.map((i) => ({ path: [i.path], message: i.message }))) : { ...EMPTY_SET_FORM, message: error.message };
    if (error instanceof SetNameTaken) return { ...EMPTY_SET_FORM, message: error.message, fieldErrors: { name: error.message } };
    if (error instanceof InvalidGenerationOptions || error instanceof GenerationError) return { ...EMPTY_SET_FORM, message: error.message };
    console.error('[action] storing the question set failed:', error);
    return {
      ...EMPTY_SET_FORM,
      message: 'Storing the question set failed: the server could not finish the request. Check that the database is up, then try again.',
    };
  }
  revalidatePath('/eval');
  return { ...EMPTY_SET_FORM, created: { name: set.name, source: set.source, total: set.counts.total } };
}
