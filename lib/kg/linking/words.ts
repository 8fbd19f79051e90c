import type { Token } from '../query/tokens';

/**
 * Clinical shorthand and chat abbreviations that are question words, never
 * entities on their own ("What SE does X have?", "tx for PCOS", "MOA", "y/n"),
 * whatever gene synonym they spell (SE is an alias of SQLE and FUT2, TX of
 * CASP4, PT of F2). Written as a gene ("the SE gene") they still link.
 */
export const CLINICAL_SHORTHAND: ReadonlySet<string> = new Set(
  `se ses ae aes ade ades adr adrs sae saes moa moas tx txs rx rxs dx ddx sx hx fx px pt pts dz abx med meds rxn
   yn bid tid qid qd qod qhs prn po iv im sc sq subq hrs wk wks yr yrs yo mo vs wrt eg ie etc approx info pls plz thx
   imo imho fyi btw aka`
    .split(/\s+/)
    .filter(Boolean),
);

/** Words next to a symbol that say a gene or its product is meant ("the SE gene", "SE protein", "expression of SE"). */
const GENE_CONTEXT: ReadonlySet<string> = new Set(
  `gene genes protein proteins symbol locus allele alleles mutation mutations mutant variant variants polymorphism polymorphisms
   knockout knockdown isoform isoforms transcript transcripts mrna expression overexpression encoding encoded encodes enzyme receptor`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * Verbs whose object or subject is a gene's product ("does doxazosin bind HERG", "HERG is upregulated"): enough for a short
 * alias, not for shorthand. Those a drug does to a gene (bind, inhibit, up-/downregulate) join a gene to another kind; those
 * a gene does to a gene (interact, regulate, phosphorylate) may join two genes.
 */
const DRUG_GENE_VERBS: ReadonlySet<string> = new Set(
  `bind binds bound binding inhibit inhibits inhibited inhibiting target targets targeted targeting upregulate upregulates upregulated
   upregulating downregulate downregulates downregulated downregulating knock`
    .split(/\s+/)
    .filter(Boolean),
);
const GENE_GENE_VERBS: ReadonlySet<string> = new Set(
  `interact interacts interacting phosphorylate phosphorylates encode encodes regulate regulates regulated regulating covary covaries coexpressed`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * True when a word right next to the span is a verb whose object or subject is a gene's product. In a question that asks
 * for genes ("Which genes does AMP bind?") a verb that joins a gene to another kind speaks of the asked genes, not of the
 * span: only a verb that may join two genes ("Which genes does HERG interact with?") then says the span is one.
 */
export function geneVerbNext(tokens: Token[], first: number, last: number): boolean {
  const next = [tokens[first - 1]?.norm ?? '', tokens[last + 1]?.norm ?? ''];
  if (next.some((n) => GENE_GENE_VERBS.has(n))) return true;
  return !asksForGenes(tokens) && next.some((n) => DRUG_GENE_VERBS.has(n));
}

/** Words that open what a question asks for, and the nouns of genes it may ask ("which genes", "how many proteins", "list the genes"). */
const ASKING = new Set(['which', 'what', 'many', 'list', 'name', 'find', 'show']);
const GENE_NOUNS = new Set(['gene', 'genes', 'protein', 'proteins']);

/** Whether the question asks for genes: a word of asking followed, within three words, by a noun of genes. */
export function asksForGenes(tokens: Token[]): boolean {
  return tokens.some((t, i) => ASKING.has(t.norm) && tokens.slice(i + 1, i + 4).some((n) => GENE_NOUNS.has(n.norm)));
}

/** Words that say a disease is spoken of: strong ones ("treat MS", "patients with PCOS"), and weak ones ("associated with"). */
const STRONG_DISEASE_CUES: ReadonlySet<string> = new Set(
  `treat treats treated treating treatment treatments therapy therapies symptom symptoms present presents presenting diagnosed diagnosis
   patient patients palliate palliates palliated cure cures suffer suffers suffering prognosis onset similar resemble resembles disease
   diseases disorder disorders syndrome comorbid comorbidity tx dx ddx sx dz pt pts`
    .split(/\s+/)
    .filter(Boolean),
);
const WEAK_DISEASE_CUES: ReadonlySet<string> = new Set([
  'associated',
  'association',
  'risk',
  'linked',
  'localize',
  'localizes',
  'localized',
  'affected',
  'affects',
]);
/** Words either side a disease cue is looked for. */
const CUE_REACH = 2;
/** Words that speak of symptoms, and how far either side they are looked for ("Is ACS among the sx presented by …"). */
const SYMPTOM_CUES: ReadonlySet<string> = new Set(['symptom', 'symptoms', 'sx', 'sign', 'signs', 'present', 'presents', 'presented', 'presenting']);
const SYMPTOM_REACH = 3;

/** Whether words near token `at` speak of symptoms. */
export function symptomCue(tokens: Token[], at: number): boolean {
  return tokens.slice(Math.max(0, at - SYMPTOM_REACH), at + SYMPTOM_REACH + 1).some((t) => SYMPTOM_CUES.has(t.norm));
}

/**
 * Whether words near token `at` speak of a disease, and how strongly. A weak cue in a question that asks for genes is a
 * strong one ("What genes are associated with CAD?"): genes of a gene are asked with a verb of two genes, not "associated".
 */
export function diseaseCue(tokens: Token[], at: number): 'strong' | 'weak' | null {
  const near = tokens.slice(Math.max(0, at - CUE_REACH), at + CUE_REACH + 1).map((t) => t.norm);
  if (near.some((n) => STRONG_DISEASE_CUES.has(n))) return 'strong';
  if (!near.some((n) => WEAK_DISEASE_CUES.has(n))) return null;
  return asksForGenes(tokens) ? 'strong' : 'weak';
}

/** Words between a gene-context word and the symbol it points at ("expression of SE", "the gene for SE"). */
const LINKING = new Set(['of', 'for', 'the', 'encoding']);

/** True when a word right next to the span (or "expression of" before it) says a gene is meant. */
export function geneContext(tokens: Token[], first: number, last: number): boolean {
  const after = tokens[last + 1]?.norm;
  const before = tokens[first - 1]?.norm;
  if ((after && GENE_CONTEXT.has(after)) || (before && GENE_CONTEXT.has(before))) return true;
  return !!before && LINKING.has(before) && GENE_CONTEXT.has(tokens[first - 2]?.norm ?? '');
}

/**
 * Clinical abbreviations written for words of a name, spelt out when the
 * spans around them are looked up ("pancreatic CA" → "pancreatic cancer",
 * "CHF" → "congestive heart failure", "afib"): a span read this way links
 * only when the spelt-out span is a name or alias of the graph.
 */
export const NAME_SHORTHAND: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    ca: ['cancer', 'carcinoma'],
    hep: ['hepatitis'],
    dz: ['disease'],
    htn: ['hypertension'],
    dm: ['diabetes mellitus'],
    t1dm: ['type 1 diabetes mellitus'],
    t2dm: ['type 2 diabetes mellitus'],
    dm2: ['type 2 diabetes mellitus'],
    t2d: ['type 2 diabetes mellitus'],
    t1d: ['type 1 diabetes mellitus'],
    mi: ['myocardial infarction'],
    chf: ['congestive heart failure', 'heart failure'],
    hf: ['heart failure'],
    ckd: ['chronic kidney disease'],
    afib: ['atrial fibrillation'],
    af: ['atrial fibrillation'],
    uti: ['urinary tract infection'],
    gi: ['gastrointestinal'],
    cns: ['central nervous system'],
    copd: ['chronic obstructive pulmonary disease'],
    cad: ['coronary artery disease'],
    gerd: ['gastroesophageal reflux disease'],
    pe: ['pulmonary embolism'],
    dvt: ['deep vein thrombosis', 'deep venous thrombosis'],
    bph: ['benign prostatic hyperplasia'],
    tb: ['tuberculosis'],
    nsclc: ['non small cell lung carcinoma', 'non small cell lung cancer'],
    aml: ['acute myeloid leukemia'],
    cml: ['chronic myeloid leukemia'],
    cll: ['chronic lymphocytic leukemia'],
    adhd: ['attention deficit hyperactivity disorder'],
    ptsd: ['post traumatic stress disorder'],
    ocd: ['obsessive compulsive disorder'],
    nsaid: ['non steroidal anti inflammatory drug'],
    nsaids: ['non steroidal anti inflammatory drugs'],
  }),
);
