/**
 * The one reading of a question (docs/reading.md): anchors from the entity
 * linker with their spans, the answer variable and its kind, per anchor the
 * relation chain to the answer over the loaded metagraph (any metaedge, either
 * direction, up to three hops), exclusions, yes/no claims on given pairs, and
 * the operator; multiple-choice options are candidates, never anchors. Every
 * method's offline rules and the answer-set prompts read questions only
 * through here. Relation senses come from the registry (./senses.ts).
 */

export { readQuestion, readingOf, seedEntities, candidateEntities, type FramedQuestion } from './read';
export { registerSense, senses, type SenseInput } from './senses';
