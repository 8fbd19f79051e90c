'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { mapError } from '@/lib/api/errors';
import { createEvalJob } from '@/lib/eval/jobs';
import { evalRequestFromForm, type EvalFormState } from '@/lib/eval/jobs/form';

/** The start form: store the job (the server's eval workers pick it up) and open its page. */
export async function startEvaluationAction(_prev: EvalFormState, form: FormData): Promise<EvalFormState> {
  let id: string;
  try {
    ({ id } = await createEvalJob(evalRequestFromForm(form)));
  } catch (error) {
    // The same mapping as the JSON routes: invalid input names its fields, anything unexpected stays in the log.
    const mapped = mapError(error);
    if (mapped.internal) {
      console.error('[action] starting the evaluation failed:', error);
      return { message: 'Starting the evaluation failed: the server could not finish the request. Check that the database is up, then try again.', fieldErrors: {} };
    }
    const fieldErrors: Record<string, string> = {};
    for (const issue of mapped.body.issues ?? []) fieldErrors[issue.path.split('.')[0] || 'form'] ??= issue.message;
    return { message: mapped.body.error, fieldErrors };
  }
  revalidatePath('/eval');
  redirect(`/eval/${id}`);
}
