/**
 * ReGraM's relation categories and their weights per question domain
 * (METHODS.md §3, the paper's Table 7). A metaedge's category comes from its
 * verb (lib/kg/relations.ts: "treats" and "indication" are both Treats).
 * ReGraM ranks region candidates by MMR × w_r, so these numbers steer which
 * facts a hub node keeps; keep them exactly as published.
 */

export const RELATION_DOMAINS = ['GENE_PROTEIN', 'DRUG_THERAPY', 'DISEASE_SYMPTOM', 'PATHWAY_METABOLISM', 'INTEGRATED'] as const;
export type RelationDomain = (typeof RELATION_DOMAINS)[number];

export const RELATION_CATEGORIES = ['Interacts_with', 'Targets', 'Treats', 'Causes', 'Expressed_in', 'Associated_with', 'Regulates', 'Occurs_in'] as const;
export type RelationCategory = (typeof RELATION_CATEGORIES)[number];

export const RELATION_WEIGHTS: Readonly<Record<RelationCategory, Readonly<Record<RelationDomain, number>>>> = {
  Interacts_with: { GENE_PROTEIN: 1.5, DRUG_THERAPY: 0.8, DISEASE_SYMPTOM: 0.6, PATHWAY_METABOLISM: 1.0, INTEGRATED: 1.2 },
  Targets: { GENE_PROTEIN: 0.8, DRUG_THERAPY: 1.5, DISEASE_SYMPTOM: 0.8, PATHWAY_METABOLISM: 1.0, INTEGRATED: 1.3 },
  Treats: { GENE_PROTEIN: 0.6, DRUG_THERAPY: 1.5, DISEASE_SYMPTOM: 1.2, PATHWAY_METABOLISM: 0.8, INTEGRATED: 1.1 },
  Causes: { GENE_PROTEIN: 0.5, DRUG_THERAPY: 0.7, DISEASE_SYMPTOM: 1.5, PATHWAY_METABOLISM: 0.8, INTEGRATED: 1.0 },
  Expressed_in: { GENE_PROTEIN: 1.3, DRUG_THERAPY: 0.7, DISEASE_SYMPTOM: 0.5, PATHWAY_METABOLISM: 1.0, INTEGRATED: 1.1 },
  Associated_with: { GENE_PROTEIN: 1.0, DRUG_THERAPY: 1.0, DISEASE_SYMPTOM: 1.3, PATHWAY_METABOLISM: 0.9, INTEGRATED: 1.2 },
  Regulates: { GENE_PROTEIN: 1.4, DRUG_THERAPY: 0.8, DISEASE_SYMPTOM: 0.7, PATHWAY_METABOLISM: 1.5, INTEGRATED: 1.3 },
  Occurs_in: { GENE_PROTEIN: 0.9, DRUG_THERAPY: 0.8, DISEASE_SYMPTOM: 1.0, PATHWAY_METABOLISM: 1.2, INTEGRATED: 1.1 },
};

/** w_r for a relation category in a domain; 1 (neutral) for uncategorised relations, which the table does not rank. */
export function categoryWeight(category: RelationCategory | null, domain: RelationDomain): number {
  return category ? RELATION_WEIGHTS[category][domain] : 1;
}
