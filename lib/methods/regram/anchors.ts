import { kindPlural } from '@/lib/llm/offline/metaedges';

/** "these genes", "these diseases": how a hop question points at an earlier hop's answers of a kind. */
export function thesePhrase(kind: string): RegExp {
  return new RegExp(`\\bthese\\s+${kindPlural(kind).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i');
}

/**
 * The hop question once per earlier answer, the answer's name in place of
 * "these <kind>" (or beside the question when it has no such phrase): Sim
 * then meets a triple about one anchor with the question about that anchor,
 * instead of a question diluted by every anchor's name at once.
 */
export function instantiate(question: string, anchors: { name: string; kind: string }[]): string[] {
  if (!anchors.length) return [question];
  return anchors.map((a) => {
    const phrase = thesePhrase(a.kind);
    return phrase.test(question) ? question.replace(phrase, a.name) : `${question} (${a.name})`;
  });
}
