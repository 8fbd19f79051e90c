/**
 * The concepts a graph's node kinds can mean, graph-independent: "Gene" and
 * "Gene/Protein" are both the gene concept. The relation-sense registry names
 * its ends by these.
 */
export const KIND_CONCEPTS = [
  'compound',
  'pharmacologicClass',
  'disease',
  'anatomy',
  'gene',
  'pathway',
  'biologicalProcess',
  'cellularComponent',
  'molecularFunction',
  'symptom',
  'sideEffect',
  'exposure',
] as const;

export type KindConcept = (typeof KIND_CONCEPTS)[number];
