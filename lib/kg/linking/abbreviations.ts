import type { KnowledgeLookups } from '../query/lookups';
import { isConcept } from '../relations';
import { readKinds, readNodesOfKinds, type NameRow } from './store';
import type { LinkCandidate } from '../store/link-sql';

/** Words a disease name's initials skip ("Alzheimer's disease" → AD: the possessive's s). */
const SKIPPED = new Set(['s', 'of', 'the', 'and', 'in', 'with', 'to']);

/** The loaded graph's diseases (every kind read as a disease), read once per process until an import. */
export function diseaseNames(lookups: KnowledgeLookups): Promise<NameRow[]> {
  return lookups.once('disease-names', async () => readNodesOfKinds((await readKinds()).filter((k) => isConcept(k, 'disease'))));
}

/** The loaded graph's symptoms, likewise: initials no disease has may be a symptom's ("ACS", acute coronary syndrome). */
function symptomNames(lookups: KnowledgeLookups): Promise<NameRow[]> {
  return lookups.once('symptom-names', async () => readNodesOfKinds((await readKinds()).filter((k) => isConcept(k, 'symptom'))));
}

/** The words of a name its initials are read from. */
function wordsOf(normalised: string): number {
  return normalised.split(' ').filter((w) => !SKIPPED.has(w)).length;
}

/**
 * How `abbreviation` (lower case, letters and digits) is written from the
 * initials of `normalised`'s words: 'initials' when it is their first letters
 * ("T2DM": Type 2 Diabetes Mellitus), 'letters' when letters from inside the
 * word just read are added ("PCOS": PolyCystic Ovary Syndrome), null when it
 * is neither. Names of one word have no initials.
 */
export function abbreviates(abbreviation: string, normalised: string): 'initials' | 'letters' | null {
  const words = normalised.split(' ').filter((w) => !SKIPPED.has(w));
  if (words.length < 2 || abbreviation.length < words.length) return null;
  if (words.map((w) => w[0]).join('') === abbreviation) return 'initials';
  const go = (i: number, w: number, at: number): boolean => {
    if (i === abbreviation.length) return w === words.length;
    if (w < words.length && words[w][0] === abbreviation[i] && go(i + 1, w + 1, 0)) return true;
    const inside = w > 0 ? words[w - 1].indexOf(abbreviation[i], at + 1) : -1;
    return inside > 0 && go(i + 1, w, inside);
  };
  return go(0, 0, 0) ? 'letters' : null;
}

/**
 * Diseases whose initials spell the written abbreviation ("MS", "PCOS"), as
 * link candidates: those whose first letters spell it when there are any
 * (Abdominal Aortic Aneurysm is "AAA", whatever other names hold three a's);
 * symptoms only where words of symptoms are near and no disease's initials spell it ("ACS").
 */
export async function abbreviationCandidates(
  written: string,
  lookups: KnowledgeLookups,
  score: number,
  cues: { disease: boolean; symptom: boolean },
): Promise<LinkCandidate[]> {
  const diseases = cues.disease ? spelledBy(written, await diseaseNames(lookups), score) : [];
  return diseases.length || !cues.symptom ? diseases : spelledBy(written, await symptomNames(lookups), score);
}

function spelledBy(written: string, names: NameRow[], score: number): LinkCandidate[] {
  const key = written.toLowerCase();
  const read = names.map((d) => ({ d, how: abbreviates(key, d.normalised) }));
  const initials = read.filter((r) => r.how === 'initials');
  // Letters from inside words: the names whose words give the most of the letters as initials ("AIDS": Acquired
  // Immunodeficiency Syndrome, three, before Alzheimer's Disease, two).
  const letters = read.filter((r) => r.how === 'letters');
  const most = Math.max(0, ...letters.map((r) => wordsOf(r.d.normalised)));
  return (initials.length ? initials : letters.filter((r) => wordsOf(r.d.normalised) === most))
    .map(({ d }) => d)
    .map((d) => ({ key, id: d.id, kind: d.kind, name: d.name, degree: d.degree, matched: d.name, method: 'alias' as const, score, source: 'initials' }));
}
