import type { Anchor, QuestionReading } from '@/lib/llm/offline/types';

/** List and count questions want every answer, so unexamined candidates leave them incomplete. */
export function wantsAll(u: QuestionReading): boolean {
  return u.outputFormat === 'list' || u.outputFormat === 'count';
}

/** "DaG(multiple sclerosis)", "CtD(CbG(PPARG))": an anchor's chain as a relation term. */
export function chainTerm(a: Anchor): string {
  return a.chain.reduce((x, hop) => `${hop.edges.map((e) => e.metaedge).join('|')}(${x})`, a.entity.name);
}

/** "A", "A and B", "A, B and C". */
export function listed(names: string[]): string {
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
