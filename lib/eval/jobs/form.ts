/** What the start form shows after a failed submission: a message and the fields it concerns. */
export interface EvalFormState {
  message: string | null;
  fieldErrors: Record<string, string>;
}

/** The start form's fields as the request EvalJobRequestSchema validates; empty fields take the defaults. */
export function evalRequestFromForm(form: FormData): Record<string, unknown> {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === 'string' && v.trim() ? v.trim() : undefined;
  };
  return {
    set: text('set') ?? '',
    methods: form.getAll('methods').filter((m): m is string => typeof m === 'string'),
    switches: text('switches'),
    limit: text('limit'),
    seed: text('seed'),
    concurrency: text('concurrency'),
    backend: text('backend'),
  };
}
