'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import { mapError } from '@/lib/api/errors';
import { ownerOf } from '@/lib/auth/access';
import { viewerFor } from '@/lib/auth/viewer';
import { startReproduction } from '@/lib/reproduce';

export interface ReproduceFormState {
  message: string | null;
}

const ReproduceFormSchema = z.object({
  table: z.string().trim().min(1),
  set: z.string().trim().min(1, 'choose a question set'),
  limit: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.coerce.number().int().min(1).max(100_000).optional()),
  backend: z.enum(['auto', 'offline', 'openai']).default('auto'),
});

/** One click: the table's rows on the chosen set, as an evaluation job the server's eval workers drive; then its table page. */
export async function startReproductionAction(_prev: ReproduceFormState, form: FormData): Promise<ReproduceFormState> {
  const parsed = ReproduceFormSchema.safeParse(Object.fromEntries(form.entries()));
  if (!parsed.success) return { message: parsed.error.issues.map((i) => i.message).join('; ') };
  let id: string;
  try {
    const ownerId = ownerOf(await viewerFor());
    ({ id } = await startReproduction(parsed.data.table, { set: parsed.data.set, limit: parsed.data.limit, backend: parsed.data.backend, ownerId }));
  } catch (error) {
    const mapped = mapError(error);
    if (mapped.internal) console.error('[action] starting the reproduction failed:', error);
    return { message: mapped.internal ? 'Starting the reproduction failed: the server could not finish the request.' : mapped.body.error };
  }
  redirect(`/reproduce/${id}`);
}
