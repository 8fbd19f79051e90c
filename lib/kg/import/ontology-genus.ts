import { normaliseName } from '../normalise';
import { isFunctionWord } from '../query/tokens';

/** Steps up the genus chain a narrower term may take to reach the graph's disease. */
const MAX_GENUS_STEPS = 5;
/** Longest genus read from a definition, in words. */
const MAX_GENUS_WORDS = 12;

/** A Disease Ontology row: its id, name and definition. */
export interface OntologyTerm {
  doid: string;
  name: string;
  description: string;
}

/** A term the graph lacks, read as the graph's disease it is a kind of. */
export interface NarrowerTerm {
  name: string;
  /** The graph's disease (a DOID) it is a kind of. */
  doid: string;
  /** Genus steps from the term to that disease (1: its definition names it). */
  steps: number;
}

/**
 * The terms the graph lacks (by id and by name) that are, through the genus of
 * their definitions ("A <genus> that …": the longest term name the definition
 * starts with), a kind of a disease the graph holds, up to MAX_GENUS_STEPS up:
 * "prostate carcinoma" ("A prostate cancer that …") → prostate cancer. Where
 * that disease is a cancer and the definition names the organ of exactly one
 * of the graph's "<organ> cancer" diseases, the term is read as that organ's
 * cancer, the nearer kind ("lymphoma", "A hematologic cancer that affects
 * lymphocytes that reside in the lymphatic system …" → lymphatic system
 * cancer). Definitions are the only is-a the file gives.
 *
 * `graphDiseases`: the graph's diseases, DOID → normalised name.
 */
export function narrowerTerms(terms: readonly OntologyTerm[], graphDiseases: ReadonlyMap<string, string>): NarrowerTerm[] {
  const byName = new Map(terms.map((t) => [normaliseName(t.name), t.doid]));
  const graphNames = new Set(graphDiseases.values());
  const organs = [...graphDiseases].flatMap(([doid, name]) => (name.endsWith(` ${CANCER}`) ? [{ doid, organ: name.slice(0, -CANCER.length - 1) }] : []));
  const genus = new Map<string, string>();
  for (const t of terms) {
    if (!/^an?\s/i.test(t.description)) continue;
    const words = normaliseName(t.description.replace(/^an?\s+/i, '')).split(' ');
    for (let n = Math.min(words.length, MAX_GENUS_WORDS); n > 0; n--) {
      const parent = byName.get(words.slice(0, n).join(' '));
      if (parent && parent !== t.doid) {
        genus.set(t.doid, parent);
        break;
      }
    }
  }
  const description = new Map(terms.map((t) => [t.doid, t.description]));
  const names = new Map(terms.map((t) => [t.doid, t.name]));
  // The graph's disease a term is a kind of: its genus's, read at the step below the graph (where the organ rule looks).
  const resolve = (doid: string, steps: number): { doid: string; steps: number } | null => {
    const parent = genus.get(doid);
    if (!parent || steps > MAX_GENUS_STEPS) return null;
    if (!graphDiseases.has(parent)) return resolve(parent, steps + 1);
    if (!graphDiseases.get(parent)!.endsWith(` ${CANCER}`) && graphDiseases.get(parent) !== CANCER) return { doid: parent, steps };
    // The organ as a whole phrase ("in the lymphatic system and …"), not the start of another ("bone marrow"), whose
    // stem the term's own name bears ("lymphoma", lymphatic): a definition names other places too ("from the larynx").
    const definition = ` ${normaliseName(description.get(doid) ?? '')} `;
    const words = normaliseName(names.get(doid) ?? '').split(' ');
    const named = organs.filter(
      (o) =>
        words.some((w) => w.startsWith(o.organ.split(' ')[0].slice(0, STEM))) &&
        [...definition.matchAll(new RegExp(` ${o.organ} (\\S+)? ?`, 'g'))].some((m) => !m[1] || isFunctionWord(m[1])),
    );
    return { doid: named.length === 1 ? named[0].doid : parent, steps };
  };
  const out: NarrowerTerm[] = [];
  for (const t of terms) {
    if (!t.name || graphDiseases.has(t.doid) || graphNames.has(normaliseName(t.name))) continue;
    const read = resolve(t.doid, 1);
    if (read) out.push({ name: t.name, ...read });
  }
  return out;
}

const CANCER = 'cancer';
/** Letters of a word's stem an organ's name must share with the term's name ("lymph": lymphoma, lymphatic). */
const STEM = 5;
