import { normaliseName } from '../normalise';

/**
 * Everyday names of conditions that WordNet (the general lexicon imported as
 * aliases, lib/kg/import/wordnet.ts) does not tie to the graph's names: each
 * with the name it means and where that reading comes from. Linking looks a
 * span up as the name too ("heart attack" → myocardial infarction); the name
 * must be one the loaded graph bears, or the term links nothing. Keep this
 * list to terms a general consumer-health source gives; a term WordNet
 * already reads belongs there, not here.
 */
export interface LayTerm {
  /** As people write it. */
  term: string;
  /** The name it means. */
  name: string;
  /** Where the reading is given. */
  source: 'MedlinePlus' | 'Disease Ontology synonym' | 'NCI dictionary';
}

export const LAY_TERMS: readonly LayTerm[] = [
  { term: 'heart attack', name: 'myocardial infarction', source: 'MedlinePlus' },
  { term: 'brittle bones', name: 'osteoporosis', source: 'MedlinePlus' },
  { term: 'brittle bone disease', name: 'osteogenesis imperfecta', source: 'MedlinePlus' },
  { term: 'sugar diabetes', name: 'diabetes mellitus', source: 'MedlinePlus' },
  { term: 'lupus', name: 'systemic lupus erythematosus', source: 'MedlinePlus' },
  { term: 'alcoholism', name: 'alcohol dependence', source: 'Disease Ontology synonym' },
  { term: 'wear-and-tear arthritis', name: 'osteoarthritis', source: 'MedlinePlus' },
  { term: 'eczema', name: 'atopic dermatitis', source: 'MedlinePlus' },
  { term: 'stroke', name: 'cerebrovascular accident', source: 'MedlinePlus' },
  { term: 'womb cancer', name: 'uterine cancer', source: 'NCI dictionary' },
  { term: 'bowel cancer', name: 'colorectal cancer', source: 'NCI dictionary' },
  { term: 'kidney failure', name: 'renal failure', source: 'MedlinePlus' },
  { term: "Lou Gehrig's disease", name: 'amyotrophic lateral sclerosis', source: 'MedlinePlus' },
  { term: 'underactive thyroid', name: 'hypothyroidism', source: 'MedlinePlus' },
  { term: 'overactive thyroid', name: 'hyperthyroidism', source: 'MedlinePlus' },
  { term: 'pink eye', name: 'conjunctivitis', source: 'MedlinePlus' },
  { term: 'blood clot', name: 'thrombosis', source: 'MedlinePlus' },
];

/** Lay term → the names it means, both normalised (normaliseName). */
export const LAY_NAMES: ReadonlyMap<string, readonly string[]> = LAY_TERMS.reduce((m, t) => {
  const term = normaliseName(t.term);
  return m.set(term, [...(m.get(term) ?? []), normaliseName(t.name)]);
}, new Map<string, string[]>());
