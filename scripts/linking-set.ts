// `DATABASE_URL=… npx tsx scripts/linking-set.ts [--out FILE] [--seed S]`: writes the linking set
// (tests/fixtures/linking/linking-set.jsonl): mention → node cases sampled from the loaded KG's
// names, aliases and gene full names, with misspellings made by a deterministic edit, so that the
// cases are not picked by hand to suit the linker. See docs/linking.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureDatabase } from '../lib/db/bootstrap';
import { normaliseName } from '../lib/kg/normalise';
import { seededRandom } from '../lib/kg/query/prng';
import { LAY_TERMS } from '../lib/kg/linking/lay-terms';
import {
  aliasKeys,
  aliasesNamingNoNode,
  diseasesInOrder,
  doShortNames,
  geneDerivedNames,
  geneFullNames,
  geneWordAliases,
  kindsOf,
  nodeIdsByName,
  sampleNodes,
  shortGeneAliases,
  type NodeFilter,
  type SampledNode,
} from '../lib/kg/store/linking-samples';
import { CLINICAL_SHORTHAND, NAME_SHORTHAND } from '../lib/kg/linking/words';
import { americanSpelling, analyse } from '../lib/nlp/english';
import { readFileSync } from 'node:fs';
import { resolveDataDir } from '../lib/config';
import { narrowerTerms, type OntologyTerm } from '../lib/kg/import/ontology-genus';
import { KIND_WORDS } from '../lib/reading/concepts';
import { wordnetVerbs } from '../lib/kg/linking/verbs';
import { readWordnetNouns, wordnetDictionary } from '../lib/kg/import/wordnet';
import { glossNames } from '../lib/kg/import/wordnet-names';
import { SPELLING_VARIANT, WORDNET_GLOSS, WORDNET_WORD_SYNONYM } from '../lib/kg/linking/store';

export interface LinkingCase {
  id: string;
  category: string;
  sentence: string;
  mention: string;
  /** Offset of the mention in the sentence. */
  start: number;
  /** The node the mention names, or "none" for a word that names no node. */
  expected: string;
  /** Every node counted as right (nodes of the same name in other kinds, every gene with a shared alias). */
  accept: string[];
}

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const OUT = opt('--out', path.join('tests', 'fixtures', 'linking', 'linking-set.jsonl'));
const SEED = opt('--seed', 'linking-set-1');

/** How each kind is asked about; the mention goes where {m} is. */
const TEMPLATES: Record<string, string[]> = {
  Disease: ['Which drugs treat {m}?', 'What genes are associated with {m}?', 'Which symptoms does {m} present?'],
  Compound: ['What diseases does {m} treat?', 'Which genes does {m} bind?', 'What side effects does {m} cause?'],
  Gene: ['Which compounds bind {m}?', 'In which tissues is {m} expressed?', 'Which diseases are associated with {m}?'],
  'Side Effect': ['Which drugs cause {m}?', 'Is {m} a known side effect of any statin?'],
  Symptom: ['Which diseases present {m}?', 'Is {m} a symptom of any autoimmune disease?'],
  Anatomy: ['Which genes are expressed in the {m}?', 'Which diseases localize to the {m}?'],
  'Pharmacologic Class': ['Which compounds are in the class {m}?'],
  Pathway: ['Which genes take part in {m}?'],
  'Biological Process': ['Which genes participate in {m}?'],
  'Molecular Function': ['Which genes have the function {m}?'],
  'Cellular Component': ['Which genes are found in the {m}?'],
};

/** A common clinical chart abbreviation: a question word wherever it is written. */
const CHART_ABBREVIATIONS = ['SE', 'AE', 'tx', 'dx', 'sx', 'hx', 'pt', 'dz', 'MOA', 'ADR', 'PRN', 'Rx'];
const CHART_SENTENCES = ['What {m} does metformin have?', 'Any {m} for asthma?', 'Which {m} is listed for ibuprofen?'];
/** Sentences where a word is used as an English word or a note's shorthand, never as a gene. */
const PLAIN_SENTENCES = ['Per the {m} note, which drugs treat asthma?', 'Which drugs treat asthma in {m} cases?'];
const POSSESSIVE_SENTENCES = [
  'My {m} asked which drugs treat asthma.',
  'Our {m} wants to know what metformin binds.',
  'Your {m} said ibuprofen causes nausea; is that right?',
];
const GENE_SENTENCES = ['Is the {m} gene expressed in the liver?', 'Which compounds bind {m} protein?', 'Which drugs change the expression of {m}?'];

async function main() {
  const random = seededRandom(SEED);
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];
  // Sampling: a seeded order over ids, so the set is the same for the same KG and seed.
  const sample = (filter: NodeFilter, n: number) => sampleNodes(filter, n, SEED);

  const byNormalised = await nodeIdsByName();
  // The written forms of names (another spelling, a word's synonym, a short definition) are not names a case must
  // avoid: a case writing a name so tests the linker's reading of it, as before those forms were stored.
  const aliased = await aliasKeys({ except: [SPELLING_VARIANT, WORDNET_WORD_SYNONYM, WORDNET_GLOSS] });
  const namesAnything = (s: string) => byNormalised.has(normaliseName(s)) || aliased.has(normaliseName(s));

  const cases: LinkingCase[] = [];
  const add = (category: string, template: string, mention: string, expected: string, accept: string[]) => {
    const sentence = template.replace('{m}', mention);
    cases.push({
      id: `${category}-${cases.filter((c) => c.category === category).length + 1}`,
      category,
      sentence,
      mention,
      start: template.indexOf('{m}'),
      expected,
      accept: [...new Set(accept)],
    });
  };
  const sameName = (r: SampledNode) => byNormalised.get(r.normalised) ?? [r.id];

  // Names as written.
  for (const r of await sample('exact', 20)) add('exact', pick(TEMPLATES[r.kind]), r.name, r.id, sameName(r));

  // Misspellings: one swap, drop or doubled letter in a name of five or more characters.
  const misspell = (name: string): string => {
    const letters = [...name.matchAll(/[a-z]/gi)].map((m) => m.index!).filter((i) => i > 0);
    const at = pick(letters.slice(0, -1).length ? letters.slice(0, -1) : letters);
    const edit = pick(['swap', 'drop', 'double']);
    if (edit === 'swap' && /[a-z]/i.test(name[at + 1] ?? '')) return name.slice(0, at) + name[at + 1] + name[at] + name.slice(at + 2);
    if (edit === 'drop') return name.slice(0, at) + name.slice(at + 1);
    return name.slice(0, at) + name[at] + name.slice(at);
  };
  const misspelt = async (category: 'misspelt' | 'misspelt-words', n: number) => {
    for (const r of await sample(category, n * 2)) {
      if (cases.filter((c) => c.category === category).length >= n) break;
      const wrong = misspell(r.name);
      if (wrong === r.name || namesAnything(wrong)) continue;
      add(category, pick(TEMPLATES[r.kind]), wrong, r.id, sameName(r));
    }
  };
  await misspelt('misspelt', 60);
  await misspelt('misspelt-words', 20);

  // Genes by their NCBI full names, as written and misspelt.
  const fullNames = await geneFullNames(SEED);
  for (const r of fullNames.slice(0, 20)) add('gene-full-name', pick(TEMPLATES.Gene), r.alias, r.id, [r.id]);
  for (const r of fullNames.slice(20)) {
    const wrong = misspell(r.alias);
    if (wrong !== r.alias && !namesAnything(wrong)) add('gene-full-name-misspelt', pick(TEMPLATES.Gene), wrong, r.id, [r.id]);
  }

  // Genes by their other names: NCBI synonyms written as symbols, and other designations, as written and misspelt.
  for (const r of await aliasesNamingNoNode('gene-synonym', 12, SEED)) add('gene-synonym', pick(TEMPLATES.Gene), r.alias, r.ids[0], r.ids);
  const designations = await aliasesNamingNoNode('gene-designation', 24, SEED);
  for (const r of designations.slice(0, 12)) add('gene-designation', pick(TEMPLATES.Gene), r.alias, r.ids[0], r.ids);
  for (const r of designations.slice(12)) {
    const wrong = misspell(r.alias);
    if (wrong !== r.alias && !namesAnything(wrong)) add('gene-designation-misspelt', pick(TEMPLATES.Gene), wrong, r.ids[0], r.ids);
  }

  // Names built from a gene: a node named "<gene full name> <word>", written "<symbol> <word>".
  const derived = await geneDerivedNames(SEED);
  for (const r of derived) add('gene-derived', pick(TEMPLATES[r.kind]), `${r.symbol} ${r.rest}`, r.id, byNormalised.get(r.normalised) ?? [r.id]);

  // Diseases by their initials, where no other disease shares them.
  const diseases = await diseasesInOrder(SEED);
  const initialsOf = (d: SampledNode) =>
    d.normalised
      .split(' ')
      .filter((w) => !['s', 'of', 'the', 'and', 'in'].includes(w))
      .map((w) => w[0])
      .join('')
      .toUpperCase();
  const counts = new Map<string, number>();
  for (const d of diseases) counts.set(initialsOf(d), (counts.get(initialsOf(d)) ?? 0) + 1);
  for (const d of diseases.filter((x) => initialsOf(x).length >= 2 && counts.get(initialsOf(x)) === 1).slice(0, 12))
    add('abbreviation', pick(TEMPLATES.Disease), initialsOf(d), d.id, sameName(d));

  // Lay names the KG holds as aliases (Disease Ontology's short names).
  for (const r of await doShortNames(SEED)) {
    add('lay', pick(TEMPLATES.Disease), r.alias.toLowerCase(), r.id, [r.id]);
  }

  // False friends: gene symbols and aliases that are English words, written as words.
  const words = await geneWordAliases();
  // English words that are no node's name nor another kind's alias, in any form ("ears" is the anatomy "ear"; "advil" ibuprofen's trade name).
  const otherAliases = await aliasKeys({ nonGenes: true });
  const english = words.filter((w) => {
    const word = analyse(w)[0];
    return word?.known && !byNormalised.has(w) && !byNormalised.has(normaliseName(word.lemma)) && !otherAliases.has(w);
  });
  for (const w of pickN(english, 20, random)) add('false-friend-word', pick(PLAIN_SENTENCES), w, 'none', []);

  // Short gene aliases (two to four capitals): no gene unless written as one; then the genes that carry them.
  const short = await shortGeneAliases(SEED);
  for (const s of short.slice(0, 15)) add('false-friend-short', pick(PLAIN_SENTENCES), s.alias, 'none', []);
  for (const s of short.slice(15)) add('short-alias-as-gene', pick(GENE_SENTENCES), s.alias, s.ids[0], s.ids);

  // A symbol after "my", "our" or "your" is the writer's own (a person, a lab), never a gene.
  const symbols = await sample('gene-symbol', 8);
  for (const g of symbols) add('possessive', pick(POSSESSIVE_SENTENCES), g.name, 'none', []);

  // Chart shorthand.
  for (const a of CHART_ABBREVIATIONS) add('shorthand', pick(CHART_SENTENCES), a, 'none', []);

  // Heavier misspellings, as people make them: two slips in a long name; a sound spelt another way (ph/f, a vowel for another).
  const twice = (name: string) => misspell(misspell(name));
  const phonetic = (name: string): string => {
    const spots = [...name.matchAll(/ph|f|[aeiou]/gi)].filter((m) => m.index! > 0);
    if (!spots.length) return name;
    const m = pick(spots);
    const swap: Record<string, string[]> = { ph: ['f'], f: ['ph'], a: ['e'], e: ['a', 'i'], i: ['e', 'y'], o: ['u', 'a'], u: ['o'] };
    return name.slice(0, m.index!) + pick(swap[m[0].toLowerCase()]) + name.slice(m.index! + m[0].length);
  };
  const heavy = async (category: string, filter: NodeFilter, n: number, spell: (name: string) => string) => {
    for (const r of await sample(filter, n * 3)) {
      if (cases.filter((c) => c.category === category).length >= n) break;
      const wrong = spell(r.name);
      if (wrong === r.name || normaliseName(wrong) === r.normalised || namesAnything(wrong)) continue;
      add(category, pick(TEMPLATES[r.kind]), wrong, r.id, sameName(r));
    }
  };
  await heavy('misspelt-twice', 'misspelt-twice', 20, twice);
  await heavy('misspelt-sound', 'misspelt-sound', 20, phonetic);

  // British and American spellings of the same name, each way.
  const british = (name: string) =>
    name
      .replace(/(?<=[b-z])emia/gi, 'aemia')
      .replace(/\bhem(?=[a-z]{3})/gi, (w) => (w[0] === 'H' ? 'Haem' : 'haem'))
      .replace(/\besophag/gi, (w) => (w[0] === 'E' ? 'Oesophag' : 'oesophag'))
      .replace(/\bedema/gi, (w) => (w[0] === 'E' ? 'Oedema' : 'oedema'))
      .replace(/tumor/gi, 'tumour')
      .replace(/diarrhea/gi, 'diarrhoea');
  const american = (name: string) => name.replace(/[A-Za-z]+/g, (w) => (w === w.toLowerCase() ? americanSpelling(w) : w[0] + americanSpelling(w.slice(1))));
  await heavy('british-american', 'american', 10, british);
  await heavy('british-american', 'british', 20, american);

  // A space dropped between two words, or put inside a long one ("osteo arthritis").
  const joined = (name: string) => name.replace(/^([A-Za-z]{4,}) ([a-z]{4,})$/, '$1$2');
  const split = (name: string) => name.replace(/^(osteo|hyper|hypo|neuro|cardio|gastro|poly|anti|cyto|endo|myo|nephro)([a-z]{5,})$/i, '$1 $2');
  await heavy('spacing', 'two-words', 10, joined);
  await heavy('spacing', 'prefixed-word', 20, split);

  // Everyday and trade names (WordNet's, imported as aliases) and the lay-term table's terms.
  const lay = await aliasesNamingNoNode('wordnet-synonym', 20, SEED);
  const kindOf = await kindsOf(lay.flatMap((l) => l.ids));
  for (const l of lay) add('lay-wordnet', pick(TEMPLATES[kindOf.get(l.ids[0])!]), l.alias, l.ids[0], l.ids);
  for (const t of LAY_TERMS) {
    const named = byNormalised.get(normaliseName(t.name));
    if (named) add('lay-table', pick(TEMPLATES.Disease), t.term, named[0], named);
  }

  // Clinical abbreviations of diseases, spelt out by the linker ("HTN", "DM2"), where the names they spell are the graph's.
  for (const [abbreviation, spelled] of NAME_SHORTHAND) {
    const named = spelled.flatMap((n) => byNormalised.get(n) ?? []).filter((id) => /^(Disease|Side Effect|Symptom)::/.test(id));
    // Clipped words ("CA", "hep") are pieces of names, not names.
    if (named.length && !CLINICAL_SHORTHAND.has(abbreviation) && !spelled.some((n) => n.startsWith(abbreviation)))
      add('disease-shorthand', pick(TEMPLATES.Disease), abbreviation.toUpperCase(), named[0], named);
  }

  // A condition's name with its adjective as the noun it pertains to, as written and after its head ("stomach ulcer",
  // "ulcer of the stomach" for Gastric ulcer).
  const adjectivesAsNouns = await aliasesNamingNoNode('wordnet-derived', 15, SEED);
  const derivedKinds = await kindsOf(adjectivesAsNouns.flatMap((l) => l.ids));
  for (const l of adjectivesAsNouns) {
    const [noun, head] = l.alias.split(' ');
    add('derived', pick(TEMPLATES[derivedKinds.get(l.ids[0])!]), l.alias, l.ids[0], l.ids);
    add('derived-inverted', pick(TEMPLATES[derivedKinds.get(l.ids[0])!]), `${head} ${pick(['of the', 'in the'])} ${noun}`, l.ids[0], l.ids);
  }

  // A condition's one-word name that is also a verb, between a subject and its preposition, is the clause's verb
  // ("Which drugs fall under …"); a name in quotes is read whole, a function word at its start included.
  let verbs = 0;
  for (const r of await sample('one-word-condition', 400)) {
    if (verbs >= 10 || !wordnetVerbs().has(r.normalised)) continue;
    verbs++;
    add('clause-verb', `Which drugs {m} under the class of ${pick(['statins', 'beta blockers', 'opioids'])}?`, r.normalised, 'none', []);
  }
  for (const r of await sample('function-word-start', 10))
    add('quoted', pick(['Which genes take part in "{m}"?', "List the genes of '{m}'."]), r.name, r.id, sameName(r));

  await hardCases(add, namesAnything, byNormalised);
  await issue18Cases(add, namesAnything, byNormalised);
  await layWordingCases(add, namesAnything);

  mkdirSync(path.dirname(OUT), { recursive: true });
  writeFileSync(OUT, cases.map((c) => JSON.stringify(c)).join('\n') + '\n');
  const byCategory = new Map<string, number>();
  for (const c of cases) byCategory.set(c.category, (byCategory.get(c.category) ?? 0) + 1);
  console.log(`${cases.length} cases → ${OUT}: ${[...byCategory].map(([k, n]) => `${k} ${n}`).join(', ')}`);
}

/**
 * Harder cases, as outside writers make them (their own seed, after the cases above, which stay as they were): a
 * realistic slip (a letter dropped, doubled, swapped with its neighbour, a sound spelt another way, a key next to the
 * right one) in two words of a multi-word name, in a drug's name and in a gene's full name; Disease Ontology terms the
 * graph lacks, read as the graph's disease they are a kind of (their definition's genus); an organ's cancer named by
 * another head noun; eponyms without their apostrophe; and words that are never entities: the reader's kind words and
 * clinical shorthand in running text.
 */
async function hardCases(
  add: (category: string, template: string, mention: string, expected: string, accept: string[]) => void,
  namesAnything: (s: string) => boolean,
  byNormalised: Map<string, string[]>,
) {
  const seed = `${SEED}-hard`;
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const count = new Map<string, number>();
  const addCase = (category: string, template: string, mention: string, expected: string, accept: string[]) => {
    count.set(category, (count.get(category) ?? 0) + 1);
    add(category, template, mention, expected, accept);
  };
  const full = (category: string, n: number) => (count.get(category) ?? 0) >= n;
  const KEYBOARD: Record<string, string> = { a: 's', s: 'a', e: 'r', r: 'e', i: 'o', o: 'i', n: 'm', m: 'n', t: 'r', l: 'k', c: 'v', d: 's', u: 'y', p: 'o' };
  const SOUNDS: [RegExp, string][] = [
    [/ph/, 'f'],
    [/f/, 'ph'],
    [/c(?=[aou])/, 'k'],
    [/y/, 'i'],
    [/ae/, 'e'],
    [/ie/, 'ei'],
    [/ei/, 'ie'],
    [/([bcdfglmnprst])\1/, '$1'],
    [/ine$/, 'ene'],
    [/tion/, 'sion'],
    [/[aeiou](?=[a-z])/, ''],
  ];
  // One slip inside a word (never its first letter): drop, double, swap, a sound, a neighbouring key.
  const slip = (word: string): string => {
    const at = 1 + Math.floor(random() * Math.max(1, word.length - 2));
    const how = pick(['drop', 'double', 'swap', 'sound', 'key']);
    if (how === 'drop') return word.slice(0, at) + word.slice(at + 1);
    if (how === 'double') return word.slice(0, at + 1) + word[at] + word.slice(at + 1);
    if (how === 'swap' && at + 1 < word.length) return word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
    if (how === 'sound') {
      const sounds = SOUNDS.filter(([re]) => re.test(word.slice(1)));
      if (sounds.length) {
        const [re, to] = pick(sounds);
        return word[0] + word.slice(1).replace(re, to);
      }
    }
    const key = KEYBOARD[word[at].toLowerCase()];
    return key ? word.slice(0, at) + key + word.slice(at + 1) : word.slice(0, at) + word.slice(at + 1);
  };
  /** A slip in each of `n` distinct words of five letters or more. */
  const slips = (name: string, n: number): string => {
    const words = name.split(' ');
    const long = words.map((w, i) => (/^[A-Za-z]{5,}$/.test(w) ? i : -1)).filter((i) => i >= 0);
    for (let k = 0; k < n && long.length; k++) {
      const i = long.splice(Math.floor(random() * long.length), 1)[0];
      words[i] = slip(words[i]);
    }
    return words.join(' ');
  };

  for (const r of await sampleNodes('multi-word', 120, seed)) {
    if (full('misspelt-multiword', 20)) break;
    const wrong = slips(r.name, 2);
    if (normaliseName(wrong) === r.normalised || namesAnything(wrong)) continue;
    addCase('misspelt-multiword', pick(TEMPLATES[r.kind]), wrong, r.id, byNormalised.get(r.normalised) ?? [r.id]);
  }
  for (const r of await sampleNodes('drug', 120, seed)) {
    if (full('misspelt-drug', 15)) break;
    const wrong = r.name.length >= 9 ? slip(slip(r.name)) : slip(r.name);
    if (normaliseName(wrong) === r.normalised || namesAnything(wrong)) continue;
    addCase('misspelt-drug', pick(TEMPLATES.Compound), wrong, r.id, byNormalised.get(r.normalised) ?? [r.id]);
  }
  for (const r of await geneFullNames(seed)) {
    if (full('gene-full-name-twice', 15)) break;
    const wrong = slips(r.alias, 2);
    if (wrong.split(' ').filter((w, i) => w !== r.alias.split(' ')[i]).length < 2 || namesAnything(wrong)) continue;
    addCase('gene-full-name-twice', pick(TEMPLATES.Gene), wrong.toLowerCase(), r.id, [r.id]);
  }

  // Disease Ontology terms the graph lacks, by the genus of their definitions (lib/kg/import/ontology-genus.ts).
  const dataDir = resolveDataDir();
  if (dataDir) {
    const rows = readFileSync(path.join(dataDir, 'entities', 'disease-ontology-descriptions.tsv'), 'utf8')
      .split(/\r?\n/)
      .slice(1);
    const terms: OntologyTerm[] = rows.filter(Boolean).map((l) => {
      const [doid, name, description] = l.split('\t');
      return { doid, name, description: description ?? '' };
    });
    const graphDiseases = new Map(
      [...byNormalised].flatMap(([name, ids]) => ids.filter((id) => id.startsWith('Disease::')).map((id) => [id.replace(/^Disease::/, ''), name] as const)),
    );
    const narrower = pickN(narrowerTerms(terms, graphDiseases), 20, random);
    for (const t of narrower) addCase('lay-ontology', pick(TEMPLATES.Disease), t.name, `Disease::${t.doid}`, [`Disease::${t.doid}`]);
  }

  // An organ's cancer named by another head noun, before or after the organ ("thyroid carcinoma", "neoplasm of the thyroid").
  for (const r of await sampleNodes('organ-cancer', 15, seed)) {
    const organ = r.normalised.replace(/ cancer$/, '');
    const head = pick(['carcinoma', 'neoplasm', 'tumour', 'tumor', 'malignancy']);
    // After the head only an organ's noun ("tumour of the larynx"), never its adjective ("cervical").
    const noun = analyse(organ).every((w) => w.pos === 'NOUN' || w.pos === 'PROPN');
    const mention = noun && random() < 0.3 ? `${head} of the ${organ}` : `${organ} ${head}`;
    addCase('head-noun', pick(TEMPLATES.Disease), mention, r.id, [r.id]);
  }

  // Eponyms written without the apostrophe, as a name or alone ("Parkinsons disease", "Parkinsons").
  for (const r of await sampleNodes('possessive', 10, seed)) {
    const bare = r.name.replace(/['’]s\b/, 's');
    // The eponym alone names a disease ("Parkinsons"), not a syndrome or a sign.
    const mention = / disease$/.test(r.normalised) && random() < 0.5 ? bare.split(' ')[0] : bare;
    addCase('possessive-unmarked', pick(TEMPLATES[r.kind]), mention, r.id, byNormalised.get(r.normalised) ?? [r.id]);
  }

  // Words that are never entities: the reader's everyday kind words, and shorthand in running text.
  const kindWords = Object.values(KIND_WORDS)
    .flatMap((k) => k.nouns)
    .filter((w) => w.length > 3 && !namesAnything(w) && !namesAnything(`${w}s`));
  for (const w of pickN(kindWords, 10, random))
    addCase('kind-word', pick(['Which {m} treats asthma?', 'Name a {m} linked to metformin.', 'Is there a {m} that causes nausea?']), w, 'none', []);
  const RUNNING = [
    'y/n: does {m} apply to metformin for asthma?',
    'Quick q, {m} for asthma in my graph?',
    'For a pt with asthma, what is the {m} of the usual tx?',
    'Per the {m} listed, does metformin treat asthma (y/n)?',
  ];
  for (const w of pickN(['SE', 'tx', 'dx', 'pt', 'MOA', 'y/n', 'graph', 'my', 'sx', 'AE'], 10, random))
    addCase('shorthand-context', pick(RUNNING), w, 'none', []);
}

/**
 * Cases of issue 18's open linking items (their own seed, after the others): a long word misspelt at both ends; a
 * run of a name's words written as its initials inside the name ("PNS neoplasm"), and initials before a word that
 * makes no name with them (none expected); a disease's initials as the object of a relation phrase that takes a
 * disease ("used for MS"), and the same initials where no phrase does (none expected, unless they are an alias).
 */
async function issue18Cases(
  add: (category: string, template: string, mention: string, expected: string, accept: string[]) => void,
  namesAnything: (s: string) => boolean,
  byNormalised: Map<string, string[]>,
) {
  const seed = `${SEED}-ends`;
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const EDGE_SLIPS = [
    (w: string) => w[1] + w[0] + w.slice(2), // the first two letters swapped
    (w: string) => w.slice(1), // the first letter dropped
    (w: string) => w[0] + w.slice(2), // the second letter dropped
    (w: string) => w[0] + (w[1] === 'y' ? 'i' : w[1] === 'i' ? 'y' : w[1] === 'e' ? 'a' : 'e') + w.slice(2), // a vowel for another
  ];
  const TAIL_SLIPS = [
    (w: string) => w.slice(0, -2) + w.at(-1) + w.at(-2), // the last two letters swapped
    (w: string) => w.slice(0, -1), // the last letter dropped
    (w: string) => w + w.at(-1), // the last letter doubled
  ];
  const ENDS = ['Is {m} linked to anything in the graph?', 'What do we know about {m}, in short?', 'Tell me the neighbours of {m}.'];
  let n = 0;
  for (const r of await sampleNodes('long-word', 80, seed)) {
    if (n >= 15) break;
    const w = r.normalised;
    const wrong = pick(TAIL_SLIPS)(pick(EDGE_SLIPS)(w));
    if (wrong === w || namesAnything(wrong)) continue;
    const written = r.name[0] === r.name[0].toUpperCase() ? wrong[0].toUpperCase() + wrong.slice(1) : wrong;
    add('misspelt-ends', pick(ENDS), written, r.id, byNormalised.get(r.normalised) ?? [r.id]);
    n++;
  }

  // Initials inside a name: its first two or three words (no function word) as their initials, its head kept ("PNS neoplasm").
  const SKIP = new Set(['of', 'the', 'and', 'in', 'with', 'to', 's', 'or', 'by', 'for', 'on', 'at', 'a']);
  const INSIDE = ['Which entities connect to {m}?', 'Does anything in the graph relate to {m}?', 'Look up {m} for me.'];
  const names = [...byNormalised.keys()];
  n = 0;
  for (const r of await sampleNodes('initials-run', 400, seed)) {
    if (n >= 12) break;
    const words = r.normalised.split(' ');
    const runs: [number, number][] = [];
    for (const len of [2, 3]) if (len < words.length && words.slice(0, len).every((x) => !SKIP.has(x) && /^[a-z]{3,}$/.test(x))) runs.push([0, len]);
    if (!runs.length) continue;
    const [a, len] = pick(runs);
    const before = words.slice(0, a);
    const after = words.slice(a + len);
    if (before.length + after.length > 3 || [...before, ...after].some((x) => SKIP.has(x))) continue;
    const initials = words
      .slice(a, a + len)
      .map((x) => x[0])
      .join('');
    const prefix = before.map((x) => `${x} `).join('');
    const suffix = after.map((x) => ` ${x}`).join('');
    // The initials must spell this name alone among the graph's names with the same words around.
    const spelt = names.filter(
      (m) =>
        m.startsWith(prefix) &&
        m.endsWith(suffix) &&
        m.length > prefix.length + suffix.length &&
        m
          .slice(prefix.length, m.length - suffix.length)
          .split(' ')
          .filter((x) => !SKIP.has(x))
          .map((x) => x[0])
          .join('') === initials,
    );
    if (spelt.length !== 1) continue;
    const mention = [...before, initials.toUpperCase(), ...after].join(' ');
    if (namesAnything(mention)) continue;
    add('initials-in-name', pick(INSIDE), mention, r.id, byNormalised.get(r.normalised) ?? [r.id]);
    n++;
    // The same initials before a word that makes no name with them: nothing to link.
    const head = pick(['audit', 'rota', 'memo', 'ledger']);
    if (!names.some((m) => m.endsWith(` ${head}`)))
      add('initials-in-name-none', 'Who signed the {m} yesterday?', `${initials.toUpperCase()} ${head}`, 'none', []);
  }

  // A disease's initials, spelling no other disease, as the object of a relation phrase that takes a disease.
  const diseases = (await diseasesInOrder(seed)).filter((d) => d.normalised.split(' ').filter((x) => !SKIP.has(x)).length >= 2);
  const initialsOf = (d: SampledNode) =>
    d.normalised
      .split(' ')
      .filter((x) => !SKIP.has(x))
      .map((x) => x[0])
      .join('');
  const count = new Map<string, number>();
  for (const d of diseases) count.set(initialsOf(d), (count.get(initialsOf(d)) ?? 0) + 1);
  const SLOTS = ['Which medicine is used for {m}?', 'What is prescribed for {m} in adults?', 'Name a drug indicated in {m}.', 'Anything that relieves {m}?'];
  const NO_SLOT = ['Was the {m} reading checked before the scan?', 'Is {m} printed on the form header?', 'Whose initials are {m} on this page?'];
  n = 0;
  for (const d of diseases) {
    if (n >= 10) break;
    const initials = initialsOf(d).toUpperCase();
    if (count.get(initialsOf(d)) !== 1 || initials.length < 2 || initials.length > 5 || byNormalised.has(initials.toLowerCase())) continue;
    add('slot-initials', pick(SLOTS), initials, d.id, [d.id]);
    // Initials that are themselves a stored alias or a clinical abbreviation ("ADHD") name the disease anywhere.
    if (!namesAnything(initials) && !NAME_SHORTHAND.has(initials.toLowerCase())) add('slot-initials-none', pick(NO_SLOT), initials, 'none', []);
    n++;
  }
}

/**
 * Lay wordings (their own seed, after the others): a condition's name with one word in an everyday synonym of it
 * ("gastrointestinal bleeding"), and with a clinical abbreviation for a word ("GI bleeding"); a condition's short
 * definition ("hair loss"); such a wording after a modifier the graph's names do not carry ("severe hair loss": the
 * wording's node); and short WordNet definitions the gloss rule turns down, of states the graph does not name
 * ("royal authority", "sudden occurrence"), none expected.
 */
async function layWordingCases(
  add: (category: string, template: string, mention: string, expected: string, accept: string[]) => void,
  namesAnything: (s: string) => boolean,
) {
  const seed = `${SEED}-lay`;
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const synonyms = await aliasesNamingNoNode('wordnet-word-synonym', 400, seed);
  const glosses = await aliasesNamingNoNode('wordnet-gloss', 40, seed);
  const kindOf = await kindsOf([...synonyms, ...glosses].flatMap((l) => l.ids));
  const templateOf = (ids: string[]) => pick(TEMPLATES[kindOf.get(ids[0])!]);
  for (const l of synonyms.slice(0, 12)) add('word-synonym', templateOf(l.ids), l.alias, l.ids[0], l.ids);
  // A spelt-out word of the name written as its clinical abbreviation ("GI" for gastrointestinal).
  const abbreviations = [...NAME_SHORTHAND].filter(([, spelled]) => spelled.length === 1 && !spelled[0].includes(' ') && spelled[0].length > 4);
  let n = 0;
  for (const l of synonyms.slice(12)) {
    const hit = abbreviations.find(([, [word]]) => l.alias.split(' ').includes(word));
    if (!hit || n >= 5 || l.alias.split(' ').length > 3) continue;
    add('word-synonym-shorthand', templateOf(l.ids), l.alias.replace(hit[1][0], hit[0].toUpperCase()), l.ids[0], l.ids);
    n++;
  }
  for (const l of glosses.slice(0, 10)) add('gloss', templateOf(l.ids), l.alias, l.ids[0], l.ids);
  const MODIFIERS = ['severe', 'mild', 'sudden', 'recurrent', 'persistent', 'patchy'];
  n = 0;
  for (const l of [...glosses.slice(10), ...synonyms.slice(40)]) {
    const mention = `${pick(MODIFIERS)} ${l.alias}`;
    if (n >= 8 || !/^[a-z ]+$/.test(l.alias) || l.alias.includes(' of ') || namesAnything(mention)) continue;
    add('modifier-dropped', templateOf(l.ids), mention, l.ids[0], l.ids);
    n++;
  }
  // Definitions the gloss rule turns down, none of whose word runs names anything: everyday words, not a condition.
  const dir = wordnetDictionary();
  if (!dir) return;
  const { synsets, senses } = readWordnetNouns(dir);
  const NONE = ['The note says {m}; what does the graph hold?', 'Is {m} worth a search here?', 'We saw {m} in the log yesterday.'];
  const runs = (words: string[]) => words.flatMap((_, i) => words.slice(i).map((__, j) => words.slice(i, i + j + 1).join(' ')));
  const definitions = [...synsets.values()]
    .filter((s) => s.lexicon === '26' && !glossNames(s, synsets, senses).length && !s.lemmas.some((l) => namesAnything(l.replace(/_/g, ' '))))
    .map((s) =>
      s.gloss
        .split(/[;(]/)[0]
        .trim()
        .replace(/^(?:a|an|the)\s+/, ''),
    )
    .filter((d) => /^[a-z]+(?: [a-z]+){1,3}$/.test(d) && !runs(d.split(' ')).some((r) => namesAnything(r) || namesAnything(r.replace(/s$/, ''))));
  for (const d of pickN([...new Set(definitions)].sort(), 16, random)) add('gloss-none', pick(NONE), d, 'none', []);
}

function pickN<T>(items: T[], n: number, random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, n);
}

const db = ensureDatabase();
db.then(main)
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => db.then((d) => d.stop()));
