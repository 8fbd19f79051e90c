import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { QuestionSetSummary, SaveSetOptions } from '@/lib/eval/sets';
import type { SetUpload } from './formats';
import { importQuestionSet } from './index';
import { InvalidInputError } from '@/lib/base/errors';

export { MAX_UPLOAD_BYTES, SetUploadSchema, type SetUpload } from './formats';

/**
 * Imports an uploaded file through the same readers as `sets import`: the
 * bytes go to a private temporary folder under the file's own name (so a
 * `.gz` is unpacked and problems name the file the user chose), and the
 * folder is removed afterwards whatever happens.
 */
export async function importUploadedSet(
  request: SetUpload,
  upload: { fileName: string; bytes: Uint8Array },
  save: SaveSetOptions = {},
): Promise<QuestionSetSummary> {
  const name = uploadName(upload.fileName);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hopscope-upload-'));
  try {
    // A private temporary file, never part of the app: kept out of the build's file tracing.
    const file = path.join(/* turbopackIgnore: true */ dir, name);
    await fs.writeFile(file, upload.bytes, { mode: 0o600 });
    return await importQuestionSet({ format: request.format, file, name: request.name, limit: request.limit }, save);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * The uploaded file's name as the temporary file's: a browser sends a bare
 * name, so one that is a path or a path step (`..`, a slash) or holds control
 * characters is refused (400), never resolved; anything else is kept to
 * letters, digits, `_`, `.` and `-`.
 */
export function uploadName(fileName: string): string {
  const refuse = (why: string) => new InvalidInputError(`file: the file name ${why}; rename the file`, [{ path: 'file', message: `the file name ${why}` }]);
  if (/[/\\]/.test(fileName)) throw refuse('holds a slash');
  if (/\p{Cc}/u.test(fileName)) throw refuse('holds a control character');
  if (/^\.+$/.test(fileName.trim())) throw refuse('is a path step (".", "..")');
  const safe = fileName.replace(/[^\w.-]+/g, '_').replace(/^\.+/, '');
  if (!safe || safe.length > 200) throw refuse(safe ? 'is longer than 200 characters' : 'is empty');
  return safe;
}
