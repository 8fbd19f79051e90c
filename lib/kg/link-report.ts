import type { EntityLink, LinkRejection, LinkReport } from './types';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * An entity-linking step's output read back: a LinkReport, or the bare link
 * list runs recorded before rejections were kept. null when it is neither.
 */
export function readLinkReport(output: unknown): LinkReport | null {
  const links = Array.isArray(output) ? output : isObject(output) && Array.isArray(output.links) ? output.links : null;
  if (!links || !links.every((l) => isObject(l) && typeof l.nodeId === 'string' && 'mention' in l)) return null;
  const rejected =
    isObject(output) && Array.isArray(output.rejected) ? output.rejected.filter((r): r is LinkRejection => isObject(r) && typeof r.reason === 'string') : [];
  return { links: links as EntityLink[], rejected };
}
