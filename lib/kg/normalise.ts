/**
 * The one normalisation shared by the importers (nodes.normalised,
 * node_aliases.normalised) and entity linking: lower case, ASCII folding,
 * punctuation → space, collapsed whitespace. Both sides must use this exact
 * function, or equality lookups on the normalised columns silently miss.
 */

// Letters NFKD does not decompose into ASCII. Greek letters are spelt out as
// separate words because biomedical names write them both ways ("TNF-α" /
// "TNF-alpha" → "tnf alpha").
const LATIN: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };
const GREEK: Record<string, string> = {
  α: 'alpha',
  β: 'beta',
  γ: 'gamma',
  δ: 'delta',
  ε: 'epsilon',
  ζ: 'zeta',
  η: 'eta',
  θ: 'theta',
  ι: 'iota',
  κ: 'kappa',
  λ: 'lambda',
  μ: 'mu',
  ν: 'nu',
  ξ: 'xi',
  ο: 'omicron',
  π: 'pi',
  ρ: 'rho',
  σ: 'sigma',
  ς: 'sigma',
  τ: 'tau',
  υ: 'upsilon',
  φ: 'phi',
  χ: 'chi',
  ψ: 'psi',
  ω: 'omega',
};

export function normaliseName(s: string): string {
  return s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x00-\x7f]/g, (c) => (c in GREEK ? ` ${GREEK[c]} ` : (LATIN[c] ?? ' ')))
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}
