import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { QuestionSetSummary } from '@/lib/eval/sets';
import { importQuestionSet, SET_FORMATS } from './index';

/** Largest question-set file the web form takes (the MIRAGE benchmark is about 1 MB gzipped). */
export const MAX_UPLOAD_BYTES = 32 * 1024 * 1024;

/** The `/eval` import form's fields besides the file; the CLI's `sets import` takes the same ones. */
export const SetUploadSchema = z.object({
  format: z.enum(SET_FORMATS, { message: `the format is one of ${SET_FORMATS.join(', ')}` }),
  name: z.string().trim().min(1, { message: 'a set needs a name' }).max(120),
  limit: z.coerce.number({ message: 'the limit is a number' }).int().positive().optional(),
});
export type SetUpload = z.infer<typeof SetUploadSchema>;

/**
 * Imports an uploaded file through the same readers as `sets import`: the
 * bytes go to a private temporary folder under the file's own name (so a
 * `.gz` is unpacked and problems name the file the user chose), and the
 * folder is removed afterwards whatever happens.
 */
export async function importUploadedSet(request: SetUpload, upload: { fileName: string; bytes: Uint8Array }): Promise<QuestionSetSummary> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hopscope-upload-'));
  try {
    const file = path.join(dir, path.basename(upload.fileName).replace(/[^\w.-]+/g, '_') || 'upload');
    await fs.writeFile(file, upload.bytes, { mode: 0o600 });
    return await importQuestionSet({ format: request.format, file, name: request.name, limit: request.limit });
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
