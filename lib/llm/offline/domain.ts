/**
 * ReGraM's domain typing without a model: the domain whose relations the
 * question uses (its column of relation weights), INTEGRATED when it mixes
 * domains, and the answer kind's domain when no relation was read.
 */

import { KIND, sameKind } from './metaedges';
import type { QuestionReading } from './types';

export type Domain = 'GENE_PROTEIN' | 'DRUG_THERAPY' | 'DISEASE_SYMPTOM' | 'PATHWAY_METABOLISM' | 'INTEGRATED';

const METAEDGE_DOMAIN: Record<string, Domain> = {
  GiG: 'GENE_PROTEIN',
  GcG: 'GENE_PROTEIN',
  'Gr>G': 'GENE_PROTEIN',
  AeG: 'GENE_PROTEIN',
  AuG: 'GENE_PROTEIN',
  AdG: 'GENE_PROTEIN',
  CtD: 'DRUG_THERAPY',
  CpD: 'DRUG_THERAPY',
  CbG: 'DRUG_THERAPY',
  CuG: 'DRUG_THERAPY',
  CdG: 'DRUG_THERAPY',
  CrC: 'DRUG_THERAPY',
  PCiC: 'DRUG_THERAPY',
  CcSE: 'DISEASE_SYMPTOM',
  DaG: 'DISEASE_SYMPTOM',
  DuG: 'DISEASE_SYMPTOM',
  DdG: 'DISEASE_SYMPTOM',
  DpS: 'DISEASE_SYMPTOM',
  DlA: 'DISEASE_SYMPTOM',
  DrD: 'DISEASE_SYMPTOM',
  GpPW: 'PATHWAY_METABOLISM',
  GpBP: 'PATHWAY_METABOLISM',
  GpCC: 'PATHWAY_METABOLISM',
  GpMF: 'PATHWAY_METABOLISM',
};

const KIND_DOMAIN: [string, Domain][] = [
  [KIND.gene, 'GENE_PROTEIN'],
  [KIND.compound, 'DRUG_THERAPY'],
  [KIND.pharmacologicClass, 'DRUG_THERAPY'],
  [KIND.disease, 'DISEASE_SYMPTOM'],
  [KIND.symptom, 'DISEASE_SYMPTOM'],
  [KIND.sideEffect, 'DISEASE_SYMPTOM'],
  [KIND.anatomy, 'DISEASE_SYMPTOM'],
  [KIND.pathway, 'PATHWAY_METABOLISM'],
  [KIND.biologicalProcess, 'PATHWAY_METABOLISM'],
  [KIND.cellularComponent, 'PATHWAY_METABOLISM'],
  [KIND.molecularFunction, 'PATHWAY_METABOLISM'],
];

export function domainOf(u: QuestionReading): Domain {
  const hops = [...u.anchors.flatMap((a) => a.chain), ...u.propositions.map((p) => p.hop)];
  const domains = new Set(hops.map((h) => METAEDGE_DOMAIN[h.edges[0]?.metaedge]).filter(Boolean));
  if (domains.size === 1) return [...domains][0];
  if (domains.size > 1) return 'INTEGRATED';
  const kind = u.answerKind;
  return (kind && KIND_DOMAIN.find(([k]) => sameKind(k, kind))?.[1]) || 'INTEGRATED';
}
