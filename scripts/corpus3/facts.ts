/**
 * Fact sheets for the third blind paraphrase corpus (issue 18, "A third blind corpus").
 *
 * Each fact names its entities exactly as the KG does, says what a question should ask
 * (never the answer) and how to write it; the gold is read from the loaded KG by SQL.
 * Writers who have not read the reader turn descriptions into questions; the answers
 * stay here. Deterministic: a seeded generator over id-sorted candidates, so a rerun on
 * the same KG gives the same sheets.
 *
 *   DATABASE_URL=… npx tsx scripts/corpus3/facts.ts [out.jsonl]   (default /work/corpus3/facts.jsonl)
 *
 * Without DATABASE_URL it starts the test PostgreSQL and loads the KG as the test setup does.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { aliasesOfSource, allNodeDegrees, allNodes, neighbourIds } from '../../lib/kg/store/whole-graph';

type Dir = 'out' | 'in' | 'both';
type Kind = 'Anatomy' | 'Compound' | 'Disease' | 'Gene' | 'Pathway' | 'Pharmacologic Class' | 'Side Effect' | 'Symptom';
type AnswerType = 'list' | 'count' | 'yesno' | 'mcq';

interface Named {
  id: string;
  name: string;
  kind: string;
}
interface Fact {
  id?: string;
  family: string;
  description: string;
  style?: string;
  answer_type: AnswerType;
  answer: string | number | string[];
  gold_nodes: string[];
  options?: string[];
  answer_key?: string;
  mcq_mode?: 'object' | 'inline' | 'both';
  metaedges: string[];
  hops: number;
  extra: Record<string, string>;
  /** Entities the description names (for the style's misspelling / full name / lay term). */
  named: Named[];
}

// argv: OUT [SEED] [STYLE_SET]; another seed and the `alt` style set give a further blind corpus with new anchors and writers' styles
const OUT = process.argv[2] ?? '/work/corpus3/facts.jsonl';
const SEED = process.argv[3] ? Number(process.argv[3]) : 0xc3f4c7;
const STYLE_SET = process.argv[4] === 'alt' ? 'alt' : 'default';

/** The loaded graph's 21 metaedges: ends, and whether the edge is symmetric between one kind (stored once). */
const ME: Record<string, { src: Kind; tgt: Kind; sym: boolean }> = {
  AdG: { src: 'Anatomy', tgt: 'Gene', sym: false },
  AeG: { src: 'Anatomy', tgt: 'Gene', sym: false },
  AuG: { src: 'Anatomy', tgt: 'Gene', sym: false },
  CbG: { src: 'Compound', tgt: 'Gene', sym: false },
  CcSE: { src: 'Compound', tgt: 'Side Effect', sym: false },
  CdG: { src: 'Compound', tgt: 'Gene', sym: false },
  CpD: { src: 'Compound', tgt: 'Disease', sym: false },
  CrC: { src: 'Compound', tgt: 'Compound', sym: true },
  CtD: { src: 'Compound', tgt: 'Disease', sym: false },
  CuG: { src: 'Compound', tgt: 'Gene', sym: false },
  DaG: { src: 'Disease', tgt: 'Gene', sym: false },
  DdG: { src: 'Disease', tgt: 'Gene', sym: false },
  DlA: { src: 'Disease', tgt: 'Anatomy', sym: false },
  DpS: { src: 'Disease', tgt: 'Symptom', sym: false },
  DrD: { src: 'Disease', tgt: 'Disease', sym: true },
  DuG: { src: 'Disease', tgt: 'Gene', sym: false },
  GcG: { src: 'Gene', tgt: 'Gene', sym: true },
  GiG: { src: 'Gene', tgt: 'Gene', sym: true },
  GpPW: { src: 'Gene', tgt: 'Pathway', sym: false },
  'Gr>G': { src: 'Gene', tgt: 'Gene', sym: false },
  PCiC: { src: 'Pharmacologic Class', tgt: 'Compound', sym: false },
};

/** How each relation reads: the set reached from an anchor (out: anchor is the source), and a given pair. */
const PHRASE: Record<string, { out: (a: string) => string; in: (a: string) => string; pair: (s: string, t: string) => string }> = {
  AdG: {
    out: (a) => `the genes that are downregulated in the anatomical structure ${a}`,
    in: (g) => `the anatomical structures (tissues/organs) in which the gene ${g} is downregulated`,
    pair: (a, g) => `the gene ${g} is downregulated in ${a}`,
  },
  AeG: {
    out: (a) => `the genes expressed in the anatomical structure ${a}`,
    in: (g) => `the anatomical structures (tissues/organs) that express the gene ${g}`,
    pair: (a, g) => `the gene ${g} is expressed in ${a}`,
  },
  AuG: {
    out: (a) => `the genes that are upregulated in the anatomical structure ${a}`,
    in: (g) => `the anatomical structures (tissues/organs) in which the gene ${g} is upregulated`,
    pair: (a, g) => `the gene ${g} is upregulated in ${a}`,
  },
  CbG: {
    out: (c) => `the genes (protein targets) that the compound ${c} binds`,
    in: (g) => `the compounds that bind the gene/protein ${g}`,
    pair: (c, g) => `the compound ${c} binds the gene/protein ${g}`,
  },
  CcSE: {
    out: (c) => `the side effects caused by the compound ${c}`,
    in: (s) => `the compounds that cause the side effect ${s}`,
    pair: (c, s) => `the compound ${c} causes the side effect ${s}`,
  },
  CdG: {
    out: (c) => `the genes downregulated by the compound ${c}`,
    in: (g) => `the compounds that downregulate the gene ${g}`,
    pair: (c, g) => `the compound ${c} downregulates the gene ${g}`,
  },
  CpD: {
    out: (c) => `the diseases that the compound ${c} palliates (relieves without treating)`,
    in: (d) => `the compounds that palliate the disease ${d}`,
    pair: (c, d) => `the compound ${c} palliates the disease ${d}`,
  },
  CrC: {
    out: (c) => `the compounds that resemble (are structurally similar to) the compound ${c}`,
    in: (c) => `the compounds that resemble (are structurally similar to) the compound ${c}`,
    pair: (a, b) => `the compound ${a} resembles (is structurally similar to) the compound ${b}`,
  },
  CtD: {
    out: (c) => `the diseases that the compound ${c} treats`,
    in: (d) => `the compounds (drugs) that treat the disease ${d}`,
    pair: (c, d) => `the compound ${c} treats the disease ${d}`,
  },
  CuG: {
    out: (c) => `the genes upregulated by the compound ${c}`,
    in: (g) => `the compounds that upregulate the gene ${g}`,
    pair: (c, g) => `the compound ${c} upregulates the gene ${g}`,
  },
  DaG: {
    out: (d) => `the genes associated with the disease ${d}`,
    in: (g) => `the diseases associated with the gene ${g}`,
    pair: (d, g) => `the gene ${g} is associated with the disease ${d}`,
  },
  DdG: {
    out: (d) => `the genes downregulated in the disease ${d}`,
    in: (g) => `the diseases in which the gene ${g} is downregulated`,
    pair: (d, g) => `the gene ${g} is downregulated in the disease ${d}`,
  },
  DlA: {
    out: (d) => `the anatomical structures where the disease ${d} localizes`,
    in: (a) => `the diseases that localize to the anatomical structure ${a}`,
    pair: (d, a) => `the disease ${d} localizes to ${a}`,
  },
  DpS: {
    out: (d) => `the symptoms that the disease ${d} presents`,
    in: (s) => `the diseases that present the symptom ${s}`,
    pair: (d, s) => `the disease ${d} presents the symptom ${s}`,
  },
  DrD: {
    out: (d) => `the diseases that resemble the disease ${d}`,
    in: (d) => `the diseases that resemble the disease ${d}`,
    pair: (a, b) => `the disease ${a} resembles the disease ${b}`,
  },
  DuG: {
    out: (d) => `the genes upregulated in the disease ${d}`,
    in: (g) => `the diseases in which the gene ${g} is upregulated`,
    pair: (d, g) => `the gene ${g} is upregulated in the disease ${d}`,
  },
  GcG: {
    out: (g) => `the genes that covary (are co-expressed) with the gene ${g}`,
    in: (g) => `the genes that covary (are co-expressed) with the gene ${g}`,
    pair: (a, b) => `the gene ${a} covaries with the gene ${b}`,
  },
  GiG: {
    out: (g) => `the genes whose proteins interact with the gene ${g}`,
    in: (g) => `the genes whose proteins interact with the gene ${g}`,
    pair: (a, b) => `the gene ${a} interacts with the gene ${b}`,
  },
  GpPW: {
    out: (g) => `the pathways in which the gene ${g} participates`,
    in: (p) => `the genes that participate in the pathway "${p}"`,
    pair: (g, p) => `the gene ${g} participates in the pathway "${p}"`,
  },
  'Gr>G': {
    out: (g) => `the genes that the gene ${g} regulates`,
    in: (g) => `the genes that regulate the gene ${g}`,
    pair: (a, b) => `the gene ${a} regulates the gene ${b}`,
  },
  PCiC: {
    out: (p) => `the compounds in the pharmacologic class "${p}"`,
    in: (c) => `the pharmacologic classes that include the compound ${c}`,
    pair: (p, c) => `the compound ${c} belongs to the pharmacologic class "${p}"`,
  },
};

// ---------- seeded randomness ----------
function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = mulberry32(SEED);
const shuffle = <T>(xs: readonly T[]): T[] => {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
};
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];

// ---------- the graph ----------
const nodes = new Map<string, Named>();
const byKind = new Map<string, string[]>();
const degree = new Map<string, number>(); // `${id}|${me}|${dir}`
const nameCountInKind = new Map<string, number>();
const fullName = new Map<string, string>();

/** DATABASE_URL as given, else the test PostgreSQL with the KG loaded (the stores read it from the environment). */
async function connect(): Promise<void> {
  if (process.env.DATABASE_URL) return;
  const { default: setup } = await import('../../tests/support/global-setup');
  await setup();
}

async function load() {
  await connect();
  for (const r of await allNodes()) {
    nodes.set(r.id, r);
    byKind.set(r.kind, [...(byKind.get(r.kind) ?? []), r.id]);
    const k = `${r.kind}|${r.name.toLowerCase()}`;
    nameCountInKind.set(k, (nameCountInKind.get(k) ?? 0) + 1);
  }
  for (const r of await allNodeDegrees()) degree.set(`${r.nodeId}|${r.metaedge}|${r.direction}`, r.count);
  for (const r of await aliasesOfSource('ncbi-full-name')) if (!fullName.has(r.nodeId)) fullName.set(r.nodeId, r.alias);
}

const nbCache = new Map<string, Set<string>>();
/** The nodes one edge of `me` away from `id` (out: id is the source; symmetric metaedges read both ways). */
async function nb(id: string, me: string, dir: Dir): Promise<Set<string>> {
  const d: Dir = ME[me].sym ? 'both' : dir;
  const key = `${id}|${me}|${d}`;
  const hit = nbCache.get(key);
  if (hit) return hit;
  const set = new Set((await neighbourIds(id, me, d)).filter((n) => n !== id));
  nbCache.set(key, set);
  return set;
}
/** Union of one step from each node of a set. */
async function step(ids: Iterable<string>, me: string, dir: Dir): Promise<Set<string>> {
  const out = new Set<string>();
  for (const id of ids) for (const n of await nb(id, me, dir)) out.add(n);
  return out;
}
async function hasEdge(a: string, me: string, b: string): Promise<boolean> {
  return (await nb(a, me, 'out')).has(b);
}
const deg = (id: string, me: string, dir: Dir) =>
  ME[me].sym || dir === 'both' ? (degree.get(`${id}|${me}|out`) ?? 0) + (degree.get(`${id}|${me}|in`) ?? 0) : (degree.get(`${id}|${me}|${dir}`) ?? 0);
const anchorKind = (me: string, dir: Dir): Kind => (dir === 'in' ? ME[me].tgt : ME[me].src);
const resultKind = (me: string, dir: Dir): Kind => (dir === 'in' ? ME[me].src : ME[me].tgt);

// ---------- fair anchors ----------
const BAD_GENE = /orf|^LOC|^FLJ|^KIAA|^LINC|^MIR|^SNO|^RNU|^HLA-|-AS\d|^C\d+$/;
const VAGUE_GENE_NAME = /uncharacterized|hypothetical|open reading frame|putative|family with sequence/i;
/** An anchor a person could name: a reasonable human word, unique within its kind. */
function fair(id: string): boolean {
  const n = nodes.get(id);
  if (!n) return false;
  if ((nameCountInKind.get(`${n.kind}|${n.name.toLowerCase()}`) ?? 0) > 1) return false;
  const name = n.name;
  switch (n.kind) {
    case 'Gene':
      return /^[A-Z][A-Z0-9-]{1,8}$/.test(name) && !BAD_GENE.test(name) && fullName.has(id) && !VAGUE_GENE_NAME.test(fullName.get(id)!);
    case 'Compound':
      return /^[A-Z][A-Za-z -]{3,28}$/.test(name);
    case 'Side Effect':
    case 'Symptom':
      return /^[A-Za-z][A-Za-z '-]{3,34}$/.test(name) && !/\bNOS\b/.test(name);
    case 'Anatomy':
      return /^[a-z][a-z ]{3,30}$/.test(name);
    case 'Pathway':
      return name.length <= 55 && /^[A-Za-z0-9][A-Za-z0-9 ,()/+'-]+$/.test(name);
    case 'Pharmacologic Class':
      return name.length <= 45 && /^[A-Za-z0-9][A-Za-z0-9 ,()/-]+$/.test(name);
    default:
      return true;
  }
}

const used = new Map<string, number>(); // anchor → times used as an anchor
const familyAnchors = new Set<string>(); // `${family}|${anchor}`
function takeable(family: string, id: string, cap = 3): boolean {
  return fair(id) && (used.get(id) ?? 0) < cap && !familyAnchors.has(`${family}|${id}`);
}
function take(family: string, ...ids: string[]) {
  for (const id of ids) {
    used.set(id, (used.get(id) ?? 0) + 1);
    familyAnchors.add(`${family}|${id}`);
  }
}
/** Candidates of a kind in a fixed id order, then shuffled by the seed. */
const pool = (kind: Kind, filter: (id: string) => boolean = () => true) => shuffle((byKind.get(kind) ?? []).filter(filter));

const N = (id: string) => nodes.get(id)!.name;
const named = (...ids: string[]): Named[] => ids.map((id) => nodes.get(id)!);
const sortedNames = (ids: Iterable<string>) => [...ids].sort((a, b) => N(a).localeCompare(N(b)) || a.localeCompare(b));
function listFact(family: string, description: string, ids: Set<string> | string[], metaedges: string[], hops: number, anchors: string[]): Fact {
  const order = sortedNames(ids);
  return { family, description, answer_type: 'list', answer: order.map(N), gold_nodes: order, metaedges, hops, extra: {}, named: named(...anchors) };
}

const facts: Fact[] = [];
const cap = (s: string) => s[0].toUpperCase() + s.slice(1);

// ---------- families ----------

/** One hop, answer a list: each metaedge in each direction (symmetric ones once). */
async function oneHopLists(per: number) {
  for (const me of Object.keys(ME)) {
    for (const dir of (ME[me].sym ? ['both'] : ['out', 'in']) as Dir[]) {
      const family = `list_${me.replace('>', '')}_${dir}`;
      const kind = anchorKind(me, dir);
      let got = 0;
      for (const a of pool(kind, (id) => deg(id, me, dir) >= 1 && deg(id, me, dir) <= 8)) {
        if (got >= (ME[me].sym ? per + 1 : per)) break;
        if (!takeable(family, a)) continue;
        const set = await nb(a, me, dir);
        if (set.size < 1 || set.size > 8) continue;
        const phrase = dir === 'in' ? PHRASE[me].in(N(a)) : PHRASE[me].out(N(a));
        facts.push(listFact(family, `Ask for ${phrase}.`, set, [me], 1, [a]));
        take(family, a);
        got++;
      }
      if (!got) console.error(`no list anchor for ${me} ${dir}: covered by counts and yes/no`);
    }
  }
}

/** Counts over any relation, both directions. */
async function counts(per: number) {
  for (const me of Object.keys(ME)) {
    for (const dir of (ME[me].sym ? ['both'] : ['out', 'in']) as Dir[]) {
      const family = `count_${me.replace('>', '')}_${dir}`;
      let got = 0;
      for (const a of pool(anchorKind(me, dir), (id) => deg(id, me, dir) >= 2)) {
        if (got >= per) break;
        if (!takeable(family, a)) continue;
        const set = await nb(a, me, dir);
        if (set.size < 2) continue;
        const phrase = dir === 'in' ? PHRASE[me].in(N(a)) : PHRASE[me].out(N(a));
        facts.push({
          family,
          description: `Ask how many ${phrase.replace(/^the /, '')} there are (a number).`,
          answer_type: 'count',
          answer: set.size,
          gold_nodes: set.size <= 50 ? sortedNames(set) : [],
          metaedges: [me],
          hops: 1,
          extra: {},
          named: named(a),
        });
        take(family, a);
        got++;
      }
    }
  }
}

/**
 * A plausible "no" partner for a source s: a target reached by the same relation from a
 * source sharing at least one target with s, with no edge from s.
 */
async function plausibleMiss(s: string, me: string, also: string[] = []): Promise<string | null> {
  const mine = await nb(s, me, 'out');
  const siblings = shuffle(sortedIds(await step(mine, me, 'in'))).slice(0, 12);
  const cands = new Set<string>();
  for (const sib of siblings) for (const t of await nb(sib, me, 'out')) if (!mine.has(t) && t !== s) cands.add(t);
  for (const t of shuffle(sortedIds(cands))) {
    if (!fair(t)) continue;
    let linked = false;
    for (const m of also) if ((await nb(s, m, 'out')).has(t) || (await nb(t, m, 'out')).has(s)) linked = true;
    if (!linked) return t;
  }
  return null;
}
const sortedIds = (ids: Iterable<string>) => [...ids].sort();

/** Yes/no on a given pair, balanced: each metaedge gets yes and no. */
async function yesNoPairs(perAnswer: number) {
  for (const me of Object.keys(ME)) {
    const family = `yn_${me.replace('>', '')}`;
    const also = me === 'CtD' ? ['CpD'] : me === 'CpD' ? ['CtD'] : [];
    let yes = 0,
      no = 0;
    for (const s of pool(ME[me].src, (id) => deg(id, me, 'out') >= 1)) {
      if (yes >= perAnswer && no >= perAnswer) break;
      if (!takeable(family, s)) continue;
      const wantYes = yes < perAnswer && (no >= perAnswer || rand() < 0.5);
      let t: string | null;
      if (wantYes) t = shuffle(sortedIds(await nb(s, me, ME[me].sym ? 'both' : 'out')).filter(fair))[0] ?? null;
      else t = await plausibleMiss(s, me, also);
      if (!t) continue;
      if (!wantYes && ME[me].sym && (await nb(s, me, 'both')).has(t)) continue;
      // anatomy/gene relations: keep the gene first only in wording; the pair phrase handles order
      facts.push({
        family,
        description: `Ask whether ${PHRASE[me].pair(N(s), N(t))} (a yes/no question).`,
        answer_type: 'yesno',
        answer: wantYes ? 'yes' : 'no',
        gold_nodes: [s, t],
        metaedges: [me],
        hops: 1,
        extra: {},
        named: named(s, t),
      });
      take(family, s, t);
      if (wantYes) yes++;
      else no++;
    }
  }
}

/** Multiple choice: four options of the answer's kind, exactly one in the KG's set. */
const MCQ_MODES = ['object', 'inline', 'both'] as const;
let mcqTurn = 0;
async function mcqFact(
  family: string,
  ask: string,
  correctSet: Set<string>,
  distractorPool: Iterable<string>,
  metaedges: string[],
  hops: number,
  anchors: string[],
): Promise<boolean> {
  const right = shuffle(sortedIds(correctSet).filter(fair))[0];
  if (!right) return false;
  const wrong = shuffle(sortedIds(distractorPool).filter((id) => !correctSet.has(id) && fair(id) && id !== right && !anchors.includes(id))).slice(0, 3);
  if (wrong.length < 3) return false;
  const options = shuffle([right, ...wrong]);
  const key = 'ABCD'[options.indexOf(right)];
  facts.push({
    family,
    description: `${ask} Exactly one option is correct; present the four options given.`,
    answer_type: 'mcq',
    answer: N(right),
    answer_key: key,
    options: options.map(N),
    mcq_mode: MCQ_MODES[mcqTurn++ % 3],
    gold_nodes: [right],
    metaedges,
    hops,
    extra: {},
    named: named(...anchors),
  });
  return true;
}

async function mcqOneHop(per: number) {
  for (const me of Object.keys(ME)) {
    const dirs = (ME[me].sym ? ['both'] : ['out', 'in']) as Dir[];
    for (let i = 0; i < per; i++) {
      const dir = dirs[i % dirs.length];
      const family = `mcq_${me.replace('>', '')}_${dir}`;
      const rk = resultKind(me, dir);
      for (const a of pool(anchorKind(me, dir), (id) => deg(id, me, dir) >= 1 && deg(id, me, dir) <= 400)) {
        if (!takeable(family, a)) continue;
        const set = await nb(a, me, dir);
        // distractors take part in the relation (so they are plausible) but not with this anchor
        const distract = shuffle((byKind.get(rk) ?? []).filter((id) => deg(id, me, dir === 'out' ? 'in' : dir === 'in' ? 'out' : 'both') >= 1)).slice(0, 200);
        const phrase = dir === 'in' ? PHRASE[me].in(N(a)) : PHRASE[me].out(N(a));
        if (await mcqFact(family, `Ask which one of four options is among ${phrase}.`, set, distract, [me], 1, [a])) {
          take(family, a);
          break;
        }
      }
    }
  }
}

/** A chain: steps from an anchor; the description is written for the whole chain. */
interface Chain {
  family: string;
  anchor: Kind;
  steps: [string, Dir][];
  say: (a: string) => string;
  anchorFilter?: (id: string) => boolean;
}
const CHAINS: Chain[] = [
  {
    family: 'chain_class_of_treatments',
    anchor: 'Disease',
    steps: [
      ['CtD', 'in'],
      ['PCiC', 'in'],
    ],
    say: (d) => `the pharmacologic classes of the compounds that treat the disease ${d}`,
  },
  {
    family: 'chain_diseases_by_class',
    anchor: 'Pharmacologic Class',
    steps: [
      ['PCiC', 'out'],
      ['CtD', 'out'],
    ],
    say: (p) => `the diseases treated by compounds in the pharmacologic class "${p}"`,
  },
  {
    family: 'chain_symptoms_of_treated',
    anchor: 'Compound',
    steps: [
      ['CtD', 'out'],
      ['DpS', 'out'],
    ],
    say: (c) => `the symptoms presented by the diseases that the compound ${c} treats`,
  },
  {
    family: 'chain_treats_resembling_disease',
    anchor: 'Disease',
    steps: [
      ['DrD', 'both'],
      ['CtD', 'in'],
    ],
    say: (d) => `the compounds that treat diseases resembling the disease ${d}`,
  },
  {
    family: 'chain_resembles_treatment',
    anchor: 'Disease',
    steps: [
      ['CtD', 'in'],
      ['CrC', 'both'],
    ],
    say: (d) => `the compounds that resemble (are structurally similar to) the drugs that treat the disease ${d}`,
  },
  {
    family: 'chain_anatomy_of_treated',
    anchor: 'Compound',
    steps: [
      ['CtD', 'out'],
      ['DlA', 'out'],
    ],
    say: (c) => `the anatomical structures where the diseases treated by the compound ${c} localize`,
  },
  {
    family: 'chain_treats_symptom_diseases',
    anchor: 'Symptom',
    steps: [
      ['DpS', 'in'],
      ['CtD', 'in'],
    ],
    say: (s) => `the compounds that treat diseases presenting the symptom ${s}`,
  },
  {
    family: 'chain_binders_in_pathway',
    anchor: 'Pathway',
    steps: [
      ['GpPW', 'in'],
      ['CbG', 'in'],
    ],
    say: (p) => `the compounds that bind genes participating in the pathway "${p}"`,
  },
  {
    family: 'chain_class_of_binders',
    anchor: 'Gene',
    steps: [
      ['CbG', 'in'],
      ['PCiC', 'in'],
    ],
    say: (g) => `the pharmacologic classes of the compounds that bind the gene ${g}`,
  },
  {
    family: 'chain_targets_of_treatments',
    anchor: 'Disease',
    steps: [
      ['CtD', 'in'],
      ['CbG', 'out'],
    ],
    say: (d) => `the genes bound by the compounds that treat the disease ${d}`,
  },
  {
    family: 'chain_pathways_of_disease_genes',
    anchor: 'Disease',
    steps: [
      ['DaG', 'out'],
      ['GpPW', 'out'],
    ],
    say: (d) => `the pathways in which the genes associated with the disease ${d} participate`,
  },
  {
    family: 'chain_diseases_of_gene_partners',
    anchor: 'Gene',
    steps: [
      ['GiG', 'both'],
      ['DaG', 'in'],
    ],
    say: (g) => `the diseases associated with genes that interact with the gene ${g}`,
  },
  {
    family: 'chain_side_effects_of_class',
    anchor: 'Pharmacologic Class',
    steps: [
      ['PCiC', 'out'],
      ['CcSE', 'out'],
    ],
    say: (p) => `the side effects caused by compounds in the pharmacologic class "${p}"`,
  },
  {
    family: 'chain_side_effects_of_treatments',
    anchor: 'Disease',
    steps: [
      ['CtD', 'in'],
      ['CcSE', 'out'],
    ],
    say: (d) => `the side effects caused by the drugs that treat the disease ${d}`,
  },
  // three hops
  {
    family: 'chain3_class_treating_resembling',
    anchor: 'Disease',
    steps: [
      ['DrD', 'both'],
      ['CtD', 'in'],
      ['PCiC', 'in'],
    ],
    say: (d) => `the pharmacologic classes of the compounds that treat diseases resembling the disease ${d}`,
  },
  {
    family: 'chain3_symptoms_by_class',
    anchor: 'Pharmacologic Class',
    steps: [
      ['PCiC', 'out'],
      ['CtD', 'out'],
      ['DpS', 'out'],
    ],
    say: (p) => `the symptoms presented by diseases that are treated by compounds in the pharmacologic class "${p}"`,
  },
  {
    family: 'chain3_anatomy_by_class',
    anchor: 'Pharmacologic Class',
    steps: [
      ['PCiC', 'out'],
      ['CtD', 'out'],
      ['DlA', 'out'],
    ],
    say: (p) => `the anatomical structures where diseases treated by compounds in the pharmacologic class "${p}" localize`,
  },
  {
    family: 'chain3_classmates_of_treatments',
    anchor: 'Disease',
    steps: [
      ['CtD', 'in'],
      ['PCiC', 'in'],
      ['PCiC', 'out'],
    ],
    say: (d) => `all compounds that belong to a pharmacologic class of any drug that treats the disease ${d}`,
  },
  {
    family: 'chain3_diseases_via_pathway_binders',
    anchor: 'Pathway',
    steps: [
      ['GpPW', 'in'],
      ['CbG', 'in'],
      ['CtD', 'out'],
    ],
    say: (p) => `the diseases treated by compounds that bind genes participating in the pathway "${p}"`,
  },
  {
    family: 'chain3_treats_resembling_of_symptom',
    anchor: 'Compound',
    steps: [
      ['CrC', 'both'],
      ['CtD', 'out'],
      ['DrD', 'both'],
    ],
    say: (c) => `the diseases that resemble diseases treated by compounds structurally similar to the compound ${c}`,
  },
];

async function reach(a: string, steps: [string, Dir][]): Promise<Set<string>> {
  let cur = new Set([a]);
  for (const [me, dir] of steps) cur = await step(cur, me, dir);
  cur.delete(a);
  return cur;
}

/** Chains answered as lists (small results), counts (larger ones) and yes/no on a member. */
async function chains(lists: number, countsPer: number, ynPer: number) {
  for (const ch of CHAINS) {
    let l = 0,
      c = 0,
      y = 0;
    const first = ch.steps[0];
    for (const a of pool(ch.anchor, (id) => deg(id, first[0], first[1]) >= 1 && deg(id, first[0], first[1]) <= 60)) {
      if (l >= lists && c >= countsPer && y >= ynPer) break;
      if (!takeable(ch.family, a)) continue;
      const set = await reach(a, ch.steps);
      if (!set.size) continue;
      const mes = ch.steps.map((s) => s[0]);
      if (set.size <= 8 && l < lists) {
        facts.push(listFact(ch.family, `Ask for ${ch.say(N(a))}.`, set, mes, ch.steps.length, [a]));
        l++;
      } else if (set.size > 8 && set.size <= 300 && c < countsPer) {
        facts.push({
          family: `count_${ch.family}`,
          description: `Ask how many distinct ${ch.say(N(a)).replace(/^the |^all /, '')} there are (a number).`,
          answer_type: 'count',
          answer: set.size,
          gold_nodes: set.size <= 50 ? sortedNames(set) : [],
          metaedges: mes,
          hops: ch.steps.length,
          extra: {},
          named: named(a),
        });
        c++;
      } else if (y < ynPer) {
        // yes/no: is this node among the chain's set? Balanced by alternation; "no" from the last step's kind, reached by a near chain
        const wantYes = y % 2 === 0;
        let t: string | undefined;
        if (wantYes) t = shuffle(sortedIds(set).filter(fair))[0];
        else {
          // plausible: reached by the same chain from another anchor of the same kind
          const alt = new Set<string>();
          for (const other of pool(ch.anchor, (id) => id !== a && deg(id, first[0], first[1]) >= 1).slice(0, 3))
            for (const x of await reach(other, ch.steps)) alt.add(x);
          t = shuffle(sortedIds(alt).filter((x) => !set.has(x) && fair(x) && x !== a))[0];
        }
        if (!t) continue;
        facts.push({
          family: `yn_${ch.family}`,
          description: `Ask whether ${N(t)} is among ${ch.say(N(a))} (a yes/no question).`,
          answer_type: 'yesno',
          answer: wantYes ? 'yes' : 'no',
          gold_nodes: [a, t],
          metaedges: mes,
          hops: ch.steps.length,
          extra: {},
          named: named(a, t),
        });
        y++;
      } else continue;
      take(ch.family, a);
    }
  }
}

/** Two constraints on one answer: the intersection of two one-hop sets, each constraint cutting the other. */
interface Combo {
  family: string;
  a: [Kind, string, Dir];
  b: [string, Dir];
  say: (x: string, y: string) => string;
}
const COMBOS: Combo[] = [
  {
    family: 'and_treats_and_causes',
    a: ['Disease', 'CtD', 'in'],
    b: ['CcSE', 'in'],
    say: (d, s) => `the compounds that treat the disease ${d} and also cause the side effect ${s}`,
  },
  {
    family: 'and_disease_two_symptoms',
    a: ['Symptom', 'DpS', 'in'],
    b: ['DpS', 'in'],
    say: (s1, s2) => `the diseases that present both the symptom ${s1} and the symptom ${s2}`,
  },
  {
    family: 'and_gene_disease_pathway',
    a: ['Disease', 'DaG', 'out'],
    b: ['GpPW', 'in'],
    say: (d, p) => `the genes associated with the disease ${d} that also participate in the pathway "${p}"`,
  },
  {
    family: 'and_genes_two_diseases',
    a: ['Disease', 'DaG', 'out'],
    b: ['DaG', 'out'],
    say: (d1, d2) => `the genes associated with both the disease ${d1} and the disease ${d2}`,
  },
  {
    family: 'and_treats_two_diseases',
    a: ['Disease', 'CtD', 'in'],
    b: ['CtD', 'in'],
    say: (d1, d2) => `the compounds that treat both the disease ${d1} and the disease ${d2}`,
  },
  {
    family: 'and_binds_two_genes',
    a: ['Gene', 'CbG', 'in'],
    b: ['CbG', 'in'],
    say: (g1, g2) => `the compounds that bind both the gene ${g1} and the gene ${g2}`,
  },
  {
    family: 'and_class_treats',
    a: ['Disease', 'CtD', 'in'],
    b: ['PCiC', 'out'],
    say: (d, p) => `the compounds in the pharmacologic class "${p}" that treat the disease ${d}`,
  },
  {
    family: 'and_localizes_presents',
    a: ['Anatomy', 'DlA', 'in'],
    b: ['DpS', 'in'],
    say: (a, s) => `the diseases that localize to the anatomical structure ${a} and present the symptom ${s}`,
  },
  {
    family: 'and_upregulated_associated',
    a: ['Disease', 'DaG', 'out'],
    b: ['CuG', 'out'],
    say: (d, c) => `the genes associated with the disease ${d} that the compound ${c} upregulates`,
  },
  {
    family: 'and_interacts_pathway',
    a: ['Gene', 'GiG', 'both'],
    b: ['GpPW', 'in'],
    say: (g, p) => `the genes that interact with the gene ${g} and participate in the pathway "${p}"`,
  },
  {
    family: 'and_binds_and_causes',
    a: ['Gene', 'CbG', 'in'],
    b: ['CcSE', 'in'],
    say: (g, s) => `the compounds that bind the gene ${g} and cause the side effect ${s}`,
  },
  {
    family: 'and_disease_gene_symptom',
    a: ['Gene', 'DaG', 'in'],
    b: ['DpS', 'in'],
    say: (g, s) => `the diseases associated with the gene ${g} that present the symptom ${s}`,
  },
];

async function combos(per: number) {
  for (const co of COMBOS) {
    const [kindA, meA, dirA] = co.a;
    const [meB, dirB] = co.b;
    const back: Dir = dirB === 'in' ? 'out' : dirB === 'out' ? 'in' : 'both';
    let got = 0;
    for (const a of pool(kindA, (id) => deg(id, meA, dirA) >= 2 && deg(id, meA, dirA) <= 150)) {
      if (got >= per) break;
      if (!takeable(co.family, a)) continue;
      const setA = await nb(a, meA, dirA);
      // the second anchor: something the members of A reach by B's relation read backwards
      const seconds = new Map<string, number>();
      for (const m of shuffle(sortedIds(setA)).slice(0, 25)) for (const b of await nb(m, meB, back)) seconds.set(b, (seconds.get(b) ?? 0) + 1);
      for (const b of shuffle(sortedIds(seconds.keys()))) {
        if (b === a || !takeable(co.family, b) || deg(b, meB, dirB) > 400) continue;
        const setB = await nb(b, meB, dirB);
        const both = new Set([...setA].filter((x) => setB.has(x)));
        if (both.size < 1 || both.size > 8 || both.size === setA.size || both.size === setB.size) continue;
        facts.push(listFact(co.family, `Ask for ${co.say(N(a), N(b))}.`, both, [meA, meB], 1, [a, b]));
        take(co.family, a, b);
        got++;
        break;
      }
    }
  }
}

/** Exclusion: a one-hop set less one member, or less another set. */
async function exclusions(per: number) {
  const minus: { family: string; kind: Kind; me: string; dir: Dir; say: (a: string, x: string) => string }[] = [
    { family: 'not_treats_other_than', kind: 'Disease', me: 'CtD', dir: 'in', say: (d, c) => `the compounds that treat the disease ${d}, other than ${c}` },
    {
      family: 'not_class_members_other_than',
      kind: 'Pharmacologic Class',
      me: 'PCiC',
      dir: 'out',
      say: (p, c) => `the compounds in the pharmacologic class "${p}" other than ${c}`,
    },
    { family: 'not_binds_other_than', kind: 'Compound', me: 'CbG', dir: 'out', say: (c, g) => `the genes bound by the compound ${c} except ${g}` },
    {
      family: 'not_treated_diseases_other_than',
      kind: 'Compound',
      me: 'CtD',
      dir: 'out',
      say: (c, d) => `the diseases treated by the compound ${c} besides ${d}`,
    },
    {
      family: 'not_pathway_genes_other_than',
      kind: 'Pathway',
      me: 'GpPW',
      dir: 'in',
      say: (p, g) => `the genes participating in the pathway "${p}" excluding ${g}`,
    },
  ];
  for (const m of minus) {
    let got = 0;
    for (const a of pool(m.kind, (id) => deg(id, m.me, m.dir) >= 2 && deg(id, m.me, m.dir) <= 9)) {
      if (got >= per) break;
      if (!takeable(m.family, a)) continue;
      const set = await nb(a, m.me, m.dir);
      const x = shuffle(sortedIds(set).filter(fair))[0];
      if (!x || set.size < 2 || set.size > 9) continue;
      const rest = new Set([...set].filter((y) => y !== x));
      facts.push(listFact(m.family, `Ask for ${m.say(N(a), N(x))}.`, rest, [m.me], 1, [a, x]));
      take(m.family, a);
      got++;
    }
  }
  const diffs: { family: string; a: [Kind, string, Dir]; b: [string, Dir]; say: (x: string, y: string) => string }[] = [
    {
      family: 'not_symptoms_unshared',
      a: ['Disease', 'DpS', 'out'],
      b: ['DpS', 'out'],
      say: (d1, d2) => `the symptoms of the disease ${d1} that the disease ${d2} does not present`,
    },
    {
      family: 'not_treats_without_side_effect',
      a: ['Disease', 'CtD', 'in'],
      b: ['CcSE', 'in'],
      say: (d, s) => `the compounds that treat the disease ${d} but do not cause the side effect ${s}`,
    },
    {
      family: 'not_genes_unshared',
      a: ['Disease', 'DaG', 'out'],
      b: ['DaG', 'out'],
      say: (d1, d2) => `the genes associated with the disease ${d1} that are not associated with the disease ${d2}`,
    },
  ];
  for (const df of diffs) {
    const [kindA, meA, dirA] = df.a;
    const [meB, dirB] = df.b;
    const back: Dir = dirB === 'in' ? 'out' : 'in';
    let got = 0;
    for (const a of pool(kindA, (id) => deg(id, meA, dirA) >= 2 && deg(id, meA, dirA) <= 40)) {
      if (got >= per) break;
      if (!takeable(df.family, a)) continue;
      const setA = await nb(a, meA, dirA);
      const seconds = new Set<string>();
      for (const m of shuffle(sortedIds(setA)).slice(0, 20)) for (const b of await nb(m, meB, back)) seconds.add(b);
      for (const b of shuffle(sortedIds(seconds))) {
        if (b === a || !takeable(df.family, b) || deg(b, meB, dirB) > 400) continue;
        const setB = await nb(b, meB, dirB);
        const rest = new Set([...setA].filter((x) => !setB.has(x)));
        if (rest.size < 1 || rest.size > 8 || rest.size === setA.size) continue;
        facts.push(listFact(df.family, `Ask for ${df.say(N(a), N(b))}.`, rest, [meA, meB], 1, [a, b]));
        take(df.family, a, b);
        got++;
        break;
      }
    }
  }
}

/** Multiple choice over two-hop chains and combined constraints. */
async function mcqChains(per: number) {
  const specs: { family: string; chain: Chain }[] = [
    { family: 'mcq_chain_treats_symptom_diseases', chain: CHAINS.find((c) => c.family === 'chain_treats_symptom_diseases')! },
    { family: 'mcq_chain_diseases_by_class', chain: CHAINS.find((c) => c.family === 'chain_diseases_by_class')! },
    { family: 'mcq_chain_class_of_treatments', chain: CHAINS.find((c) => c.family === 'chain_class_of_treatments')! },
    { family: 'mcq_chain_side_effects_of_treatments', chain: CHAINS.find((c) => c.family === 'chain_side_effects_of_treatments')! },
    { family: 'mcq_chain3_symptoms_by_class', chain: CHAINS.find((c) => c.family === 'chain3_symptoms_by_class')! },
  ];
  for (const { family, chain } of specs) {
    let got = 0;
    const last = chain.steps[chain.steps.length - 1];
    for (const a of pool(chain.anchor, (id) => deg(id, chain.steps[0][0], chain.steps[0][1]) >= 1 && deg(id, chain.steps[0][0], chain.steps[0][1]) <= 40)) {
      if (got >= per) break;
      if (!takeable(family, a)) continue;
      const set = await reach(a, chain.steps);
      if (!set.size) continue;
      const rk = resultKind(last[0], last[1]);
      const distract = shuffle(
        (byKind.get(rk) ?? []).filter((id) => deg(id, last[0], last[1] === 'out' ? 'in' : last[1] === 'in' ? 'out' : 'both') >= 1),
      ).slice(0, 300);
      if (
        await mcqFact(
          family,
          `Ask which one of four options is among ${chain.say(N(a))}.`,
          set,
          distract,
          chain.steps.map((s) => s[0]),
          chain.steps.length,
          [a],
        )
      ) {
        take(family, a);
        got++;
      }
    }
  }
}

// ---------- styles ----------
const STYLES = {
  misspell: 'include one realistic misspelling of an entity name (the one given in extra.misspell); everything else correct',
  fullname: 'refer to the gene by its full name (given in extra.gene_full_name), not its symbol',
  abbrev: 'use an abbreviation or clinical shorthand (e.g. tx, dx, SE, MOA, pts, or a standard abbreviation of the disease: extra.abbreviation if given)',
  lay: 'use a lay term for the disease/symptom (extra.lay_term; if none is given write a common lay term yourself)',
};
const PLAIN_DEFAULT = [
  'terse search-box query: a few keywords, no question mark',
  "a clinician's question, as a doctor would ask a colleague",
  "a student's exam question",
  'a long, wordy question with some patient or study context before the actual ask',
  'formal, precise, typo-free phrasing',
  'all lowercase, no punctuation',
  'a casual question from a patient or relative',
  "a researcher's note-style question",
  'an imperative request (List…, Name…, Give me…, Tell me…)',
  'a short preamble, then the question at the end',
];
const PLAIN_ALT = [
  'a non-native English speaker writing quickly, slightly unidiomatic grammar',
  'avoid the most obvious verb for the relation: use a synonym or a noun phrase instead',
  'a question embedded in a longer narrative (a case, a lab meeting, a news item) with the ask in the middle',
  'a pharmacist or nurse asking, with the shorthand they would use',
  'a fill-in or completion prompt ("The genes that … are: ___")',
  'a question phrased negatively or indirectly ("is it true that …", "I was told … — is that right?")',
  'British spelling and a formal register',
  'a chat message with an emoji or two and informal abbreviations (pls, w/, b/c)',
  'a grant-reviewer or journal-referee style query, dense and technical',
  'a question that starts with the answer type ("Genes: which …", "Count:", "Yes or no:")',
];
const PLAIN = STYLE_SET === 'alt' ? PLAIN_ALT : PLAIN_DEFAULT;
const LAY: Record<string, string> = {
  hypertension: 'high blood pressure',
  'type 2 diabetes mellitus': 'adult-onset diabetes',
  'type 1 diabetes mellitus': 'juvenile diabetes',
  'atopic dermatitis': 'eczema',
  'allergic rhinitis': 'hay fever',
  'dental caries': 'tooth decay',
  periodontitis: 'gum disease',
  nephrolithiasis: 'kidney stones',
  osteoarthritis: 'wear-and-tear arthritis',
  osteoporosis: 'brittle bones',
  'epilepsy syndrome': 'seizure disorder',
  'alcohol dependence': 'alcoholism',
  'nicotine dependence': 'smoking addiction',
  'autistic disorder': 'autism',
  'bipolar disorder': 'manic depression',
  anemia: 'low red blood cell count',
  'acquired immunodeficiency syndrome': 'AIDS',
  leprosy: "Hansen's disease",
  'coronary artery disease': 'clogged heart arteries',
  atherosclerosis: 'hardening of the arteries',
  'chronic kidney failure': 'kidney failure',
  hypothyroidism: 'underactive thyroid',
  "Graves' disease": 'overactive thyroid',
  'gestational diabetes': 'diabetes in pregnancy',
  'uterine fibroid': 'fibroids',
  'age related macular degeneration': 'macular degeneration',
  'cleft lip': 'harelip',
  'alopecia areata': 'patchy hair loss',
  'celiac disease': 'gluten intolerance',
  'idiopathic pulmonary fibrosis': 'lung scarring',
  pancreatitis: 'inflamed pancreas',
  'systemic lupus erythematosus': 'lupus',
  'hematologic cancer': 'blood cancer',
  'lymphatic system cancer': 'lymphoma',
  'urinary bladder cancer': 'bladder cancer',
  'rectum cancer': 'rectal cancer',
  'larynx cancer': 'voice box cancer',
  'pharynx cancer': 'throat cancer',
  'uterine cancer': 'womb cancer',
  'intracranial aneurysm': 'brain aneurysm',
  'endogenous depression': 'clinical depression',
  'refractive error': 'nearsightedness or farsightedness',
  'chronic obstructive pulmonary disease': "smoker's lung disease",
  'hepatitis B': 'hep B',
  'Gilles de la Tourette syndrome': "Tourette's",
  'attention deficit hyperactivity disorder': 'attention deficit disorder',
  Pruritus: 'itching',
  Dyspnea: 'shortness of breath',
  Edema: 'swelling',
  Vomiting: 'throwing up',
  Nausea: 'feeling sick',
  Syncope: 'fainting',
  Alopecia: 'hair loss',
  Vertigo: 'spinning dizziness',
  Hyperhidrosis: 'excessive sweating',
  Tinnitus: 'ringing in the ears',
  Epistaxis: 'nosebleed',
  Fatigue: 'tiredness',
  Fever: 'high temperature',
  Headache: 'sore head',
  Diarrhea: 'loose stools',
  Hemoptysis: 'coughing up blood',
  Urticaria: 'hives',
  Myalgia: 'muscle aches',
  Arthralgia: 'joint pain',
  Paresthesia: 'pins and needles',
  Anorexia: 'loss of appetite',
  Tremor: 'shaking',
  Dyspepsia: 'indigestion',
  Flatulence: 'gas',
  Hypotension: 'low blood pressure',
  Tachycardia: 'racing heart',
  Somnolence: 'drowsiness',
  Jaundice: 'yellow skin',
  'Abdominal Pain': 'stomach ache',
  Polyuria: 'peeing a lot',
  Enuresis: 'bedwetting',
  Dysmenorrhea: 'period pain',
  Photophobia: 'sensitivity to light',
  Diplopia: 'double vision',
  'Hearing Loss': 'deafness',
  Insomnia: 'trouble sleeping',
  'Hot Flashes': 'hot flushes',
  'Memory Disorders': 'memory problems',
  'Muscle Cramp': 'muscle cramps',
  'Sleep Initiation and Maintenance Disorders': 'trouble sleeping',
  Constipation: 'trouble pooping',
  Obesity: 'being very overweight',
  Depression: 'feeling low',
  Rash: 'skin rash',
  Hypertension: 'high blood pressure',
  Dysphagia: 'trouble swallowing',
  Xerostomia: 'dry mouth',
  Dysuria: 'painful urination',
  Dyspareunia: 'painful intercourse',
  Pain: 'aches',
};
const ABBR: Record<string, string> = {
  'chronic obstructive pulmonary disease': 'COPD',
  'attention deficit hyperactivity disorder': 'ADHD',
  'acquired immunodeficiency syndrome': 'AIDS',
  'rheumatoid arthritis': 'RA',
  'multiple sclerosis': 'MS',
  'systemic lupus erythematosus': 'SLE',
  'type 2 diabetes mellitus': 'T2DM',
  'type 1 diabetes mellitus': 'T1DM',
  'coronary artery disease': 'CAD',
  'amyotrophic lateral sclerosis': 'ALS',
  'polycystic ovary syndrome': 'PCOS',
  'age related macular degeneration': 'AMD',
  'abdominal aortic aneurysm': 'AAA',
  'chronic kidney failure': 'CKD',
  'idiopathic pulmonary fibrosis': 'IPF',
  'primary biliary cirrhosis': 'PBC',
  'ulcerative colitis': 'UC',
  'focal segmental glomerulosclerosis': 'FSGS',
  'hepatitis B': 'HBV',
  hypertension: 'HTN',
  'Creutzfeldt-Jakob disease': 'CJD',
  'dilated cardiomyopathy': 'DCM',
  'restless legs syndrome': 'RLS',
  'systemic scleroderma': 'SSc',
  "Crohn's disease": 'CD',
  'atopic dermatitis': 'AD',
  'Side Effect': 'SE',
};

function assignStyles() {
  const order = shuffle(facts.map((_, i) => i));
  const quota = {
    misspell: Math.ceil(facts.length * 0.19),
    fullname: Math.ceil(facts.length * 0.06),
    lay: Math.ceil(facts.length * 0.06),
    abbrev: Math.ceil(facts.length * 0.06),
  };
  const firstGene = (f: Fact) => f.named.find((n) => n.kind === 'Gene');
  const layOf = (f: Fact) => f.named.find((n) => (n.kind === 'Disease' || n.kind === 'Symptom' || n.kind === 'Side Effect') && LAY[n.name]);
  // a misspelt gene symbol or class name is a different string, not a typo a person makes
  const spellOf = (f: Fact) =>
    [...f.named]
      .sort((a, b) => b.name.length - a.name.length)
      .find((n) => n.name.length >= 6 && /^(Compound|Disease|Symptom|Side Effect|Anatomy)$/.test(n.kind));
  for (const kind of ['fullname', 'lay', 'abbrev', 'misspell'] as const) {
    for (const i of order) {
      if (quota[kind] <= 0) break;
      const f = facts[i];
      if (f.style) continue;
      if (kind === 'fullname') {
        const g = firstGene(f);
        if (!g) continue;
        f.extra.gene_full_name = fullName.get(g.id)!;
        f.extra.gene_symbol = g.name;
      } else if (kind === 'lay') {
        const n = layOf(f);
        if (!n) continue;
        f.extra.lay_term = LAY[n.name];
        f.extra.lay_for = n.name;
      } else if (kind === 'abbrev') {
        const d = f.named.find((n) => ABBR[n.name]);
        if (d) {
          f.extra.abbreviation = ABBR[d.name];
          f.extra.abbreviation_for = d.name;
        }
      } else {
        const n = spellOf(f);
        if (!n) continue;
        f.extra.misspell = n.name;
      }
      f.style = STYLES[kind];
      quota[kind]--;
    }
  }
  let k = 0;
  for (const i of order) if (!facts[i].style) facts[i].style = PLAIN[k++ % PLAIN.length];
}

/** The coarse pattern a family belongs to (for per-pattern figures; families are per relation). */
const GROUPS = ['count_chain', 'yn_chain', 'mcq_chain', 'chain3', 'chain', 'list', 'count', 'yn', 'mcq', 'and', 'not'];
const groupOf = (family: string) => GROUPS.find((g) => family.startsWith(g))!;

async function main() {
  await load();
  await oneHopLists(3);
  await combos(4);
  await exclusions(4);
  await chains(3, 1, 2);
  await yesNoPairs(2);
  await mcqOneHop(3);
  await mcqChains(2);
  await counts(1);
  assignStyles();
  const lines = facts.map((f, i) => {
    const { named: anchors, ...rest } = f;
    return JSON.stringify({ id: `c3-${String(i + 1).padStart(4, '0')}`, group: groupOf(f.family), ...rest, anchor_nodes: anchors.map((n) => n.id) });
  });
  mkdirSync(path.dirname(OUT), { recursive: true });
  writeFileSync(OUT, `${lines.join('\n')}\n`);
  console.log(`${facts.length} facts → ${OUT}`);
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
