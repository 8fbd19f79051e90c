/** Loading knowledge into the database: graphs, entity profiles and aliases, documents. */
export { ImportError } from './errors';
export type { GraphImportSummary } from './graph-writer';
export { importHetionet, type HetionetFiles } from './hetionet';
export { importTriples } from './triples';
export { importPrimeKg } from './primekg';
export { importDiseaseOntology } from './disease-ontology';
export { importGeneInfo } from './gene-info';
export { importPubmedqa } from './pubmedqa';
export { loadDemoGraph } from './demo';
export { loadDefaultKnowledge, defaultDataFiles, describeKnowledge } from './default-knowledge';
