/** The options asked for something no generator can do (an unknown family, a rendering no chosen family has). */
export class InvalidGenerationOptions extends Error {
  name = 'InvalidGenerationOptions';
}

/** The loaded KG could not supply a question (it lacks the metaedges a family needs, or every attempt failed validation). */
export class GenerationError extends Error {
  name = 'GenerationError';
}

export const MAX_QUESTIONS = 5_000;

export function assertQuestionCount(count: number): void {
  if (!Number.isInteger(count) || count < 1 || count > MAX_QUESTIONS) throw new InvalidGenerationOptions(`count must be an integer from 1 to ${MAX_QUESTIONS}`);
}
