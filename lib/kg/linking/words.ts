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

/** Words between a gene-context word and the symbol it points at ("expression of SE", "the gene for SE"). */
const LINKING = new Set(['of', 'for', 'the', 'encoding']);

/** True when a word right next to the span (or "expression of" before it) says a gene is meant. */
export function geneContext(tokens: Token[], first: number, last: number): boolean {
  const after = tokens[last + 1]?.norm;
  const before = tokens[first - 1]?.norm;
  if ((after && GENE_CONTEXT.has(after)) || (before && GENE_CONTEXT.has(before))) return true;
  return !!before && LINKING.has(before) && GENE_CONTEXT.has(tokens[first - 2]?.norm ?? '');
}
