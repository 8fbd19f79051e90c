/** Loading knowledge into the database: graphs, entity profiles and aliases, documents. */
export { ImportError } from './errors';
export type { ImportProgress, ProgressListener } from './progress';
export type { ImportOptions } from './options';
export type { ImportRecord } from './records';
export type { GraphImportSummary } from './graph-writer';
export { importHetionet, type HetionetFiles } from './hetionet';
export { importTriples, type TriplesOptions } from './triples';
export { importPrimeKg, type PrimeKgOptions } from './primekg';
export type { EntityImportSummary } from './entity-writer';
export { importDiseaseOntology } from './disease-ontology';
export { importGeneInfo } from './gene-info';
export type { DocumentImportSummary } from './document-writer';
export { importPubmedqa } from './pubmedqa';
export { loadDemoGraph } from './demo';
export { loadDefaultKnowledge, defaultDataFiles, describeKnowledge, type KnowledgeSummary } from './default-knowledge';
