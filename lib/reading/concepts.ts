/**
 * The concepts a graph's node kinds can mean, graph-independent: "Gene" and
 * "Gene/Protein" are both the gene concept. The relation-sense registry names
 * its ends by these; each concept's record lists the nouns that name it in a
 * question ("medications", "illnesses", "body parts"), in base form: plurals
 * and spellings come from lemmatising the question (lib/reading/phrases.ts),
 * so a noun is written once.
 */

import { z } from 'zod';

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

const Words = z.array(z.string().regex(/^[a-z0-9]+(?: [a-z0-9]+)*$/, 'lower-case words in base form, one space apart'));

const KindNounsSchema = z
  .object({
    /** Nouns naming an entity of the kind ("genes", "drug targets", "targets of"); a phrase's head is its first noun before "of". */
    nouns: Words.min(1),
    /** Adverbs and adjectives that hint at the kind but name no entity ("genetically"). */
    hints: Words.default([]),
  })
  .strict();
export type KindNouns = z.infer<typeof KindNounsSchema>;

const KIND_NOUNS: Record<KindConcept, z.input<typeof KindNounsSchema>> = {
  pharmacologicClass: {
    nouns: [
      'pharmacologic class',
      'pharmacological class',
      'drug class',
      'therapeutic class',
      'chemical class',
      'class of drug',
      'class of compound',
      'class of medication',
      'drug family',
    ],
  },
  sideEffect: {
    nouns: ['side effect', 'adverse effect', 'adverse event', 'adverse reaction', 'adverse drug reaction', 'undesirable effect', 'ae', 'adr', 'se'],
  },
  gene: {
    nouns: [
      'gene',
      'protein',
      'gene product',
      'drug target',
      'protein target',
      'molecular target',
      'target of',
      'receptor',
      'enzyme',
      'transporter',
      'kinase',
      'locus',
      'loci',
    ],
    hints: ['genetic', 'genetics', 'genetically'],
  },
  compound: {
    nouns: [
      'drug',
      'compound',
      'cpd',
      'medication',
      'medicine',
      'med',
      'pharmaceutical',
      'small molecule',
      'molecule',
      'chemical',
      'agent',
      'substance',
      'therapeutic',
      'treatment',
      'therapy',
      'tx',
      'inhibitor',
      'antagonist',
      'agonist',
    ],
    hints: ['pharmacologic', 'pharmacological', 'pharmacologically'],
  },
  disease: {
    nouns: ['disease', 'condition', 'disorder', 'illness', 'syndrome', 'cancer', 'tumor', 'malignancy', 'diagnosis', 'pathology', 'indication', 'dx', 'dz'],
  },
  symptom: { nouns: ['symptom', 'sx', 'sign', 'clinical feature', 'clinical sign', 'clinical manifestation', 'manifestation', 'phenotype', 'complaint'] },
  pathway: { nouns: ['pathway', 'signal cascade'] },
  anatomy: {
    nouns: [
      'tissue',
      'organ',
      'anatomy',
      'anatomical structure',
      'anatomical site',
      'anatomical entity',
      'anatomical location',
      'anatomical part',
      'anatomical region',
      'body part',
      'body site',
      'body structure',
      'body region',
      'body area',
      'part of body',
      'gland',
    ],
  },
  biologicalProcess: { nouns: ['biological process'] },
  cellularComponent: { nouns: ['cellular component', 'subcellular compartment', 'compartment', 'organelle'] },
  molecularFunction: { nouns: ['molecular function'] },
  exposure: { nouns: ['exposure', 'environmental exposure', 'environmental factor', 'environmental agent', 'toxicant', 'pollutant'] },
};

/** Each concept's kind nouns, checked when the module loads. */
export const KIND_WORDS: Readonly<Record<KindConcept, KindNouns>> = Object.fromEntries(
  KIND_CONCEPTS.map((concept) => {
    const result = KindNounsSchema.safeParse(KIND_NOUNS[concept]);
    if (!result.success) throw new Error(`kind nouns of '${concept}' are malformed: ${z.prettifyError(result.error)}`);
    return [concept, result.data];
  }),
) as Record<KindConcept, KindNouns>;
