import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { QuestionSetSummary } from '@/lib/eval/sets';
import type { SetUpload } from './formats';
import { importQuestionSet } from './index';

export { MAX_UPLOAD_BYTES, SetUploadSchema, type SetUpload } from './formats';

/**
 * Imports an uploaded file through the same readers as `sets import`: the
 * bytes go to a private temporary folder under the file's own name (so a
 * `.gz` is unpacked and problems name the file the user chose), and the
 * folder is removed afterwards whatever happens.
 */
export async function importUploadedSet(request: SetUpload, upload: { fileName: string; bytes: Uint8Array }): Promise<QuestionSetSummary> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hopscope-upload-'));
  try {
    // A private temporary file, never part of the app: kept out of the build's file tracing.
    const file = path.join(/* turbopackIgnore: true */ dir, path.basename(upload.fileName).replace(/[^\w.-]+/g, '_') || 'upload');
    await fs.writeFile(file, upload.bytes, { mode: 0o600 });
    return await importQuestionSet({ format: request.format, file, name: request.name, limit: request.limit });
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
