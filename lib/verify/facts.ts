import { linkEntities } from '@/lib/kg';
import { mentions } from './checks';

/**
 * Facts a criterion states that neither the question nor the run's evidence
 * contains: KG entity names and numbers. A checklist written from the gold
 * answer can leak it (K2V's checklists name the answer); such a criterion
 * checks knowledge the run was never given, and the grid flags it.
 */
export async function unsupportedFacts(criterion: string, known: string): Promise<string[]> {
  const links = await linkEntities(criterion, { fuzzy: false });
  // Exact names, and aliases only as written (gene symbols): "yes" is no mention of the gene YES1.
  const named = links.filter((l) => l.method === 'exact' || l.mention === l.matched);
  const names = named.map((l) => l.mention);
  // Numbers outside the names ("type 2 diabetes" states no number); a sentence's closing period is no decimal point.
  const rest = named.reduce((text, l) => text.split(l.mention).join(' '), criterion);
  const numbers = rest.match(/(?<![\w.])\d+(?:\.\d+)?(?!\w|\.\d)/g) ?? [];
  const absent = [...names.filter((n) => !mentions(known, n)), ...numbers.filter((n) => !mentions(known, n))];
  return [...new Set(absent)];
}
