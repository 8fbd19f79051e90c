import { readQuestion } from '@/lib/reading';
import { QuestionReadingSchema, type LinkedEntity, type QuestionReading } from '@/lib/llm/offline/types';

/** A mention as the linker gives it: its text, kind and node, and any other readings of the same span. */
export type Mention = [mention: string, kind: string, nodeId: string, also?: [string, string][]];

/** The links of mentions found in a question's text, as the linker gives them. */
export function linksIn(text: string, mentions: Mention[]): LinkedEntity[] {
  return mentions.map(([mention, kind, nodeId, also]) => {
    const start = text.indexOf(mention);
    if (start < 0) throw new Error(`'${mention}' not in '${text}'`);
    const readings = also?.map(([k, id]) => ({ nodeId: id, kind: k, name: mention }));
    return { nodeId, kind, name: mention, mention, start, end: start + mention.length, score: 1, ...(readings ? { readings } : {}) };
  });
}

/** The reading of a question whose entities are linked as given (each mention found in the text), checked against its schema. */
export function readLinked(text: string, ...mentions: Mention[]): QuestionReading {
  return QuestionReadingSchema.parse(readQuestion(text, { links: linksIn(text, mentions) }));
}
