import { ImportError } from '@/lib/kg/import/errors';
import { readText } from '@/lib/kg/import/lines';
import { SetImportError } from './errors';

/** The whole file as text (gunzipped when it ends in .gz); a missing or unreadable file is an import error. */
export function readSetFile(file: string): string {
  try {
    return readText(file);
  } catch (e) {
    if (e instanceof ImportError) throw new SetImportError([{ file, reason: e.reason }]);
    throw new SetImportError([{ file, reason: `cannot read: ${(e as Error).message}` }]);
  }
}

export function readJsonFile(file: string): unknown {
  const text = readSetFile(file);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new SetImportError([{ file, reason: `not JSON: ${(e as Error).message}` }]);
  }
}
