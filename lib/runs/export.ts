import { getRunRecord } from './read';
import { redactForClient } from '@/lib/base/redact';

export const RUN_EXPORT_FORMAT = 'hopscope.run/v1';

/**
 * The whole frozen run as one JSON document (config, steps with inputs and
 * outputs, evidence, model calls with rendered prompts and raw outputs, answer,
 * scores, cost), with every credential removed.
 */
export async function exportRun(where: { id: string } | { shareId: string }) {
  const record = await getRunRecord(where);
  return redactForClient({ format: RUN_EXPORT_FORMAT, exportedAt: new Date().toISOString(), run: record });
}
