/**
 * The relation-sense registry: ONE record per meaning a KG relation can have.
 * A record says which metaedges it reads (by the metagraph's verb or display
 * relation, so Hetionet's "treats" and PrimeKG's "indication" are one sense),
 * how to say it from either end, ReGraM's category, and the English phrases
 * that name it in a question. Phrases are base forms: inflections ("treated",
 * "binds", "co-expressed") come from lemmatising the question, and a verb's
 * nominal forms ("regulation", "inhibitor", "treatment") are derived from it
 * (lib/reading/phrases.ts). Adding a relation sense is one record here.
 *
 * Records are checked with zod when the registry loads: an unknown concept,
 * category or Hetionet metaedge, a duplicate id, or a Hetionet metaedge the
 * record's verbs do not read, fails the load.
 */

import { z } from 'zod';
import { RELATION_CATEGORIES } from '@/lib/kg/metaedge-categories';
import { KIND_CONCEPTS, type KindConcept } from './concepts';

const Concept = z.enum(KIND_CONCEPTS);
const Concepts = z.array(Concept).min(1);

/** A phrase naming the sense: words in base form; `verb` phrases also match their nominal forms. */
export const PhraseSchema = z.object({
  text: z.string().regex(/^[a-z0-9]+(?: [a-z0-9]+)*$/, 'lower-case words in base form, one space apart'),
  pos: z.enum(['verb', 'noun']),
  /** 0 for the sense the phrase means first; a higher rank is a later reading of the same phrase. */
  rank: z.number().int().min(0).default(0),
  /** Only the sense's metaedges with an end of this concept ("inhibit": downregulation by a compound). */
  only: Concept.optional(),
  /** A loose linking word: when none of its metaedges joins the kinds at hand, any metaedge between them will do. */
  generic: z.boolean().default(false),
});
type Phrase = z.infer<typeof PhraseSchema>;

const Clause = z.string().includes('{x}');

export const SenseSchema = z
  .object({
    id: z.string().regex(/^[a-z][a-z-]*$/),
    /** Metagraph verbs or display relations that mean it (compared without case or underscores). */
    verbs: z.array(z.string().min(1)).min(1),
    /** Hetionet's metaedges it reads, checked against Hetionet's metagraph. */
    hetionet: z.array(z.string()),
    /** Only between these concepts (either order), when the verb alone is ambiguous ("interacts with" a pathway is participation). */
    ends: z.tuple([Concepts, Concepts]).optional(),
    /** The end that is the subject of the active clause; the metaedge's source when unset or when neither end is one. */
    agent: Concepts.optional(),
    /** Plural clauses, `{x}` the far end: with the agent as subject, and with the other end as subject (the first fitting case). */
    active: Clause,
    passive: z.union([Clause, z.array(z.object({ agent: Concepts.optional(), other: Concepts.optional(), clause: Clause })).min(1)]),
    /** The passive statement generated questions use (third person singular), where it differs from the clause. */
    statement: z.string().optional(),
    category: z.enum(RELATION_CATEGORIES).nullable(),
    /** The agent is a collection of the other end (a class includes compounds): a question may name it where it means its members. */
    collects: z.boolean().default(false),
    phrases: z.array(PhraseSchema),
  })
  .strict();
export type SenseRecord = z.infer<typeof SenseSchema>;
export type SenseInput = z.input<typeof SenseSchema>;

type PhraseInput = z.input<typeof PhraseSchema>;
const verbs = (...texts: string[]): PhraseInput[] => texts.map((text) => ({ text, pos: 'verb' }));
const nouns = (...texts: string[]): PhraseInput[] => texts.map((text) => ({ text, pos: 'noun' }));
/** Loose linking words: any relation between the kinds at hand when the sense's own does not fit. */
const loose = (phrases: PhraseInput[]): PhraseInput[] => phrases.map((p) => ({ ...p, generic: true }));
/** A later reading of phrases another sense claims first. */
const also = (rank: number, phrases: PhraseInput[], only?: KindConcept): PhraseInput[] => phrases.map((p) => ({ ...p, rank, only }));
/** Every "verb object" pair: ["increase", "raise"] × ["expression", "level"]. */
const pairs = (heads: string[], tails: string[]): PhraseInput[] => heads.flatMap((h) => tails.map((t) => ({ text: `${h} ${t}`, pos: 'noun' as const })));

const GENE_SETS: KindConcept[] = ['pathway', 'biologicalProcess', 'cellularComponent', 'molecularFunction'];
const EXPRESSION = ['expression', 'level', 'transcription'];
const UPREGULATION_VERBS = ['increase', 'elevate', 'raise', 'enhance', 'induce', 'boost', 'higher'];
const DOWNREGULATION_VERBS = ['decrease', 'reduce', 'suppress', 'repress', 'diminish', 'silence', 'lower'];
/** Verbs of turning a level, said up or down with a particle ("dial down", "ramp up", "knock down"). */
const ADJUSTING = ['turn', 'dial', 'ramp', 'crank', 'scale', 'tone', 'switch', 'knock', 'bump', 'ratchet', 'wind'];
const adjusted = (particle: 'up' | 'down'): PhraseInput[] => verbs(...ADJUSTING.map((v) => `${v} ${particle}`));
/** Context kinds (a disease, a tissue) are the place of a regulation; a compound its cause. */
const regulatedBy = (verb: string) => [{ agent: ['compound' as const], clause: `are ${verb} by {x}` }, { clause: `are ${verb} in {x}` }];

/**
 * In this order: a metaedge takes the first sense whose verbs (and ends) match;
 * metaedges between the same two kinds are preferred in this order when a
 * question names no relation (a disease and a gene: associated first).
 */
const RECORDS: SenseInput[] = [
  {
    id: 'treat',
    verbs: ['treats', 'indication'],
    hetionet: ['CtD'],
    agent: ['compound'],
    active: 'treat {x}',
    passive: 'are treated by {x}',
    category: 'Treats',
    phrases: [
      ...verbs(
        'treat',
        'cure',
        'prescribe for',
        'prescribe',
        'use to treat',
        'use for',
        'use against',
        'indicate for',
        'indicate in',
        'indicate',
        'approve for',
        'approve to treat',
      ),
      ...nouns('therapy', 'therapeutic', 'therapeutically', 'tx', 'remedy', 'first line', 'use in treatment of', 'use in management of', 'use in therapy of'),
      ...nouns('effective against', 'effective for', 'effective in'),
      ...loose(verbs('help with', 'help against', 'help in')),
      ...verbs('manage'),
    ],
  },
  {
    id: 'palliate',
    verbs: ['palliates'],
    hetionet: ['CpD'],
    agent: ['compound'],
    active: 'palliate {x}',
    passive: 'are palliated by {x}',
    category: 'Treats',
    phrases: [
      ...verbs('palliate', 'relieve', 'alleviate', 'soothe', 'ease'),
      ...nouns('palliative', 'palliatively', 'relief', 'relief of', 'relief from', 'symptom relief', 'symptomatic relief', 'symptomatic treatment'),
      ...also(1, verbs('manage')),
    ],
  },
  {
    id: 'off-label',
    verbs: ['off-label use', 'off label'],
    hetionet: [],
    agent: ['compound'],
    active: 'are used off-label for {x}',
    passive: 'are treated off-label with {x}',
    category: 'Treats',
    phrases: nouns('off label'),
  },
  {
    id: 'bind',
    verbs: ['binds', 'target'],
    hetionet: ['CbG'],
    agent: ['compound'],
    active: 'bind {x}',
    passive: 'are bound by {x}',
    category: 'Targets',
    phrases: [
      ...verbs('bind', 'target', 'inhibit', 'antagonize', 'block', 'act on', 'act upon', 'modulate', 'activate'),
      ...nouns('antagonist', 'agonist', 'antagonism', 'blockade', 'ligand'),
      ...also(1, verbs('interact')),
    ],
  },
  {
    id: 'associate',
    verbs: ['associates', 'associated with', 'linked to'],
    hetionet: ['DaG'],
    active: 'are associated with {x}',
    passive: 'are associated with {x}',
    category: 'Associated_with',
    phrases: [
      ...loose(verbs('associate', 'link', 'implicate', 'relate', 'connect', 'correlate', 'contribute to', 'underlie')),
      ...loose(nouns('assoc', 'assocd', 'linkage', 'underlying', 'relationship to', 'relationship with', 'relationship between')),
      ...also(1, loose(verbs('involve'))),
      ...nouns(
        'risk gene',
        'risk locus',
        'risk loci',
        'risk factor',
        'risk allele',
        'risk variant',
        'susceptibility',
        'susceptibility gene',
        'susceptibility locus',
        'susceptibility loci',
      ),
      ...verbs('predispose', 'mutate'),
      ...nouns(
        'predisposition',
        'mutation',
        'causal gene',
        'disease gene',
        'gwas',
        'genetic basis',
        'genetic cause',
        'genetic factor',
        'genetic risk',
        'genetic association',
        'genetic link',
      ),
      ...nouns('genetic architecture', 'genetic determinant'),
      ...also(1, verbs('cause')),
    ],
  },
  {
    id: 'express',
    verbs: ['expresses', 'expression present'],
    hetionet: ['AeG'],
    agent: ['anatomy'],
    active: 'express {x}',
    passive: 'are expressed in {x}',
    category: 'Expressed_in',
    phrases: [...verbs('express'), ...also(1, loose(verbs('find in')))],
  },
  {
    id: 'upregulate',
    verbs: ['upregulates'],
    hetionet: ['AuG', 'CuG', 'DuG'],
    active: 'upregulate {x}',
    passive: regulatedBy('upregulated'),
    category: 'Regulates',
    phrases: [
      ...verbs('upregulate', 'overexpress', 'switch on', 'turn on'),
      ...adjusted('up'),
      ...pairs(UPREGULATION_VERBS, EXPRESSION),
      ...pairs(EXPRESSION, ['upregulate', 'increase', 'elevate', 'raise', 'up']),
      ...also(1, verbs('regulate')),
      ...also(1, verbs('induce', 'activate'), 'compound'),
      // "raise TNF expression", "does X increase IL6": with a gene at one end, the bare verb is enough.
      ...also(1, verbs(...UPREGULATION_VERBS), 'gene'),
    ],
  },
  {
    id: 'downregulate',
    verbs: ['downregulates'],
    hetionet: ['AdG', 'CdG', 'DdG'],
    active: 'downregulate {x}',
    passive: regulatedBy('downregulated'),
    category: 'Regulates',
    phrases: [
      ...verbs('downregulate', 'underexpress', 'switch off', 'turn off'),
      ...adjusted('down'),
      ...pairs(DOWNREGULATION_VERBS, EXPRESSION),
      ...pairs(EXPRESSION, ['downregulate', 'decrease', 'reduce', 'lower', 'down']),
      ...also(1, verbs('regulate')),
      ...also(0, verbs('suppress', 'repress'), 'compound'),
      ...also(1, verbs('inhibit'), 'compound'),
      ...also(1, verbs(...DOWNREGULATION_VERBS), 'gene'),
    ],
  },
  {
    id: 'cause',
    verbs: ['causes', 'side effect'],
    hetionet: ['CcSE'],
    agent: ['compound'],
    active: 'cause {x}',
    passive: 'are caused by {x}',
    category: 'Causes',
    phrases: [
      ...verbs('cause', 'induce'),
      ...nouns('side effect', 'adverse effect', 'adverse event', 'adverse reaction', 'adverse drug reaction', 'ae', 'adr', 'toxicity', 'causative'),
      ...loose(verbs('lead to', 'result in', 'trigger', 'provoke')),
      ...also(1, loose(verbs('exhibit', 'experience'))),
    ],
  },
  {
    id: 'present',
    verbs: ['presents', 'phenotype present'],
    hetionet: ['DpS'],
    agent: ['disease'],
    active: 'present with {x}',
    passive: 'occur in {x}',
    category: 'Associated_with',
    phrases: [
      ...nouns('symptom', 'symptomatic', 'sx', 'presentation', 'sign', 'sign and symptom', 'clinical feature', 'clinical finding', 'clinical sign'),
      ...verbs('present', 'present with', 'present as', 'manifest', 'characterize by', 'complain of'),
      ...loose(verbs('exhibit', 'experience')),
    ],
  },
  {
    id: 'localize',
    verbs: ['localizes', 'localises'],
    hetionet: ['DlA'],
    agent: ['disease'],
    active: 'localize to {x}',
    passive: 'are affected by {x}',
    statement: 'is a site of',
    category: 'Occurs_in',
    phrases: [...verbs('localize'), ...loose(verbs('affect', 'occur in', 'find in')), ...nouns('site', 'site of'), ...verbs('locate in', 'locate at')],
  },
  {
    id: 'resemble',
    verbs: ['resembles'],
    hetionet: ['CrC', 'DrD'],
    active: 'resemble {x}',
    passive: 'resemble {x}',
    category: 'Associated_with',
    phrases: [
      ...also(0, [...verbs('resemble'), ...nouns('resemblance', 'similar', 'similarity', 'alike', 'comparable to')], 'disease'),
      ...also(1, [...verbs('resemble'), ...nouns('resemblance', 'similar', 'similarity', 'alike', 'comparable to')], 'compound'),
      ...also(0, nouns('analog', 'analogue', 'structurally similar', 'structurally related'), 'compound'),
    ],
  },
  {
    id: 'include',
    verbs: ['includes'],
    hetionet: ['PCiC'],
    agent: ['pharmacologicClass'],
    active: 'include {x}',
    passive: 'are included in {x}',
    statement: 'belongs to',
    category: 'Associated_with',
    collects: true,
    phrases: [
      ...nouns('pharmacologic class', 'pharmacological class', 'drug class', 'therapeutic class', 'chemical class', 'class of', 'category', 'drug family'),
      ...verbs('classify', 'class as', 'categorize'),
      ...loose(verbs('include')),
      ...also(1, nouns('member', 'member of')),
      ...verbs('belong to'),
    ],
  },
  {
    id: 'interact',
    verbs: ['interacts', 'interacts with', 'ppi', 'synergistic interaction'],
    hetionet: ['GiG'],
    active: 'interact with {x}',
    passive: 'interact with {x}',
    category: 'Interacts_with',
    phrases: [
      ...verbs('interact', 'complex with'),
      ...nouns('binding partner', 'interaction partner', 'interacting partner', 'partner'),
      ...also(1, verbs('bind')),
    ],
  },
  {
    id: 'covary',
    verbs: ['covaries', 'covary'],
    hetionet: ['GcG'],
    active: 'covary with {x}',
    passive: 'covary with {x}',
    category: 'Interacts_with',
    phrases: [
      ...verbs('covary', 'coexpress'),
      ...nouns('covariance', 'correlated expression', 'coexpression'),
      // Two genes "correlated" covary; other kinds read the word as association.
      ...also(1, loose(verbs('correlate'))),
    ],
  },
  {
    id: 'regulate',
    verbs: ['regulates'],
    hetionet: ['Gr>G'],
    active: 'regulate {x}',
    passive: 'are regulated by {x}',
    category: 'Regulates',
    phrases: [
      ...verbs('regulate'),
      ...nouns('regulatory', 'transcriptional target', 'transcriptional regulator', 'control expression', 'control transcription'),
      ...also(1, verbs('upregulate', 'downregulate')),
      ...also(1, verbs('modulate', 'activate', 'suppress', 'repress')),
    ],
  },
  {
    id: 'participate',
    verbs: ['participates', 'interacts with'],
    hetionet: ['GpBP', 'GpCC', 'GpMF', 'GpPW'],
    ends: [['gene'], GENE_SETS],
    agent: ['gene'],
    active: 'participate in {x}',
    // A pathway or a compartment contains its genes; a process or a function involves them.
    passive: [{ other: ['pathway', 'cellularComponent'], clause: 'contain {x}' }, { clause: 'involve {x}' }],
    statement: 'involves',
    category: 'Occurs_in',
    phrases: [
      ...verbs('participate', 'contain'),
      ...also(0, [...nouns('pathway', 'member', 'member of'), ...loose([...verbs('involve'), ...nouns('part of')])], 'pathway'),
      ...also(1, [...loose(nouns('part of')), ...verbs('locate in', 'locate at')], 'cellularComponent'),
      ...also(1, verbs('belong to'), 'pathway'),
    ],
  },
  {
    id: 'contraindicate',
    verbs: ['contraindication'],
    hetionet: [],
    agent: ['compound'],
    active: 'are contraindicated in {x}',
    passive: 'are contraindications for {x}',
    category: null,
    phrases: verbs('contraindicate'),
  },
  {
    id: 'express-absent',
    verbs: ['expression absent'],
    hetionet: [],
    agent: ['anatomy'],
    active: 'lack expression of {x}',
    passive: 'are not expressed in {x}',
    category: null,
    phrases: [],
  },
  {
    id: 'phenotype-absent',
    verbs: ['phenotype absent'],
    hetionet: [],
    agent: ['disease'],
    active: 'lack {x}',
    passive: 'are absent in {x}',
    category: null,
    phrases: [],
  },
  {
    id: 'hierarchy',
    verbs: ['parent-child', 'is a', 'subclass', 'subclass of'],
    hetionet: [],
    active: 'are hierarchically related to {x}',
    passive: 'are hierarchically related to {x}',
    category: null,
    phrases: [],
  },
];

/** Hetionet v1.0's 24 metaedges, the reference the records' `hetionet` lists are checked against. */
const HETIONET: Readonly<Record<string, { source: KindConcept; verb: string; target: KindConcept }>> = {
  AdG: { source: 'anatomy', verb: 'downregulates', target: 'gene' },
  AeG: { source: 'anatomy', verb: 'expresses', target: 'gene' },
  AuG: { source: 'anatomy', verb: 'upregulates', target: 'gene' },
  CbG: { source: 'compound', verb: 'binds', target: 'gene' },
  CcSE: { source: 'compound', verb: 'causes', target: 'sideEffect' },
  CdG: { source: 'compound', verb: 'downregulates', target: 'gene' },
  CpD: { source: 'compound', verb: 'palliates', target: 'disease' },
  CrC: { source: 'compound', verb: 'resembles', target: 'compound' },
  CtD: { source: 'compound', verb: 'treats', target: 'disease' },
  CuG: { source: 'compound', verb: 'upregulates', target: 'gene' },
  DaG: { source: 'disease', verb: 'associates', target: 'gene' },
  DdG: { source: 'disease', verb: 'downregulates', target: 'gene' },
  DlA: { source: 'disease', verb: 'localizes', target: 'anatomy' },
  DpS: { source: 'disease', verb: 'presents', target: 'symptom' },
  DrD: { source: 'disease', verb: 'resembles', target: 'disease' },
  DuG: { source: 'disease', verb: 'upregulates', target: 'gene' },
  GcG: { source: 'gene', verb: 'covaries', target: 'gene' },
  GiG: { source: 'gene', verb: 'interacts', target: 'gene' },
  GpBP: { source: 'gene', verb: 'participates', target: 'biologicalProcess' },
  GpCC: { source: 'gene', verb: 'participates', target: 'cellularComponent' },
  GpMF: { source: 'gene', verb: 'participates', target: 'molecularFunction' },
  GpPW: { source: 'gene', verb: 'participates', target: 'pathway' },
  'Gr>G': { source: 'gene', verb: 'regulates', target: 'gene' },
  PCiC: { source: 'pharmacologicClass', verb: 'includes', target: 'compound' },
};

/** A metagraph verb as compared: "expression_present", "Expression present" and "expressions present" are one; "treats" is "treat". */
export function verbKey(verb: string): string {
  return verb
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ')
    .replace(/(?:(?<=ss|sh|ch|x)es|(?<=[^aeiou])ies|(?<!s)s)(?=$| )/g, (m) => (m === 'ies' ? 'y' : ''));
}

function check(records: readonly SenseRecord[]): void {
  const ids = new Set<string>();
  for (const r of records) {
    if (ids.has(r.id)) throw new Error(`relation sense '${r.id}' is registered twice`);
    ids.add(r.id);
    for (const abbr of r.hetionet) {
      const m = HETIONET[abbr];
      if (!m) throw new Error(`relation sense '${r.id}' names '${abbr}', which is no Hetionet metaedge`);
      if (!r.verbs.some((v) => verbKey(v) === verbKey(m.verb)))
        throw new Error(`relation sense '${r.id}' names ${abbr}, but none of its verbs reads '${m.verb}'`);
      if (r.ends && !(r.ends[0].includes(m.source) && r.ends[1].includes(m.target)) && !(r.ends[1].includes(m.source) && r.ends[0].includes(m.target))) {
        throw new Error(`relation sense '${r.id}' names ${abbr}, which does not join its ends`);
      }
    }
  }
}

let registry: readonly SenseRecord[] = load(RECORDS);
let version = 0;

function load(records: readonly SenseInput[]): SenseRecord[] {
  const parsed = records.map((r) => {
    const result = SenseSchema.safeParse(r);
    if (!result.success) throw new Error(`relation sense '${(r as { id?: string }).id ?? '?'}' is malformed: ${z.prettifyError(result.error)}`);
    return result.data;
  });
  check(parsed);
  return parsed;
}

/** Every registered sense, in preference order. */
export function senses(): readonly SenseRecord[] {
  return registry;
}

/** Bumped by every change to the registry, so what is derived from it (phrase index, metaedge readings) can be rebuilt. */
export function registryVersion(): number {
  return version;
}

export function senseById(id: string): SenseRecord {
  const sense = registry.find((s) => s.id === id);
  if (!sense) throw new Error(`unknown relation sense '${id}'`);
  return sense;
}

/**
 * Registers one more sense (after the others, or before the sense `before`),
 * checked as the built-in ones are; returns a function that removes it again.
 * Re-read the metagraph (setMetagraph) for metaedges to take it up.
 */
export function registerSense(record: SenseInput, options: { before?: string } = {}): () => void {
  const [parsed] = load([record]);
  const at = options.before ? registry.findIndex((s) => s.id === senseById(options.before!).id) : registry.length;
  const next = [...registry.slice(0, at), parsed, ...registry.slice(at)];
  check(next);
  registry = next;
  version++;
  return () => {
    registry = registry.filter((s) => s !== parsed);
    version++;
  };
}
