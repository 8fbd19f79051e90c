import type { SearchMatch } from '@/lib/kg';

const ALIAS_SOURCES: Record<string, string> = {
  'ncbi-symbol': 'NCBI symbol',
  'ncbi-synonym': 'NCBI synonym',
  'ncbi-full-name': 'NCBI full name',
  'ncbi-other-designation': 'NCBI designation',
  'do-name': 'Disease Ontology',
};

/**
 * Why a suggestion matched, in a few words: "name", "start of name", "symbol
 * IL6", "alias “interleukin 6” (NCBI synonym)", "id Gene::3569", "similar name".
 * A name that matched is already on screen, so only how it matched is said.
 */
export function matchReason(match: SearchMatch): string {
  const start = match.how === 'prefix' ? 'start of ' : '';
  switch (match.field) {
    case 'id':
      return `id ${match.text}`;
    case 'name':
      return match.how === 'similar' ? 'similar name' : `${start}name`;
    case 'symbol':
      return `${start}symbol ${match.text}`;
    case 'alias': {
      const source = match.source ? (ALIAS_SOURCES[match.source] ?? match.source) : null;
      return `${start}alias “${match.text}”${source ? ` (${source})` : ''}`;
    }
  }
}
