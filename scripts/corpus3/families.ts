/**
 * The hand-picked families of corpora 3–7: one-hop lists, counts, yes/no and multiple choice
 * per metaedge, and chains, combined constraints and exclusions chosen for how people ask.
 */
import { anchorKind, byKind, deg, fair, ME, N, nb, PHRASE, reach, resultKind, sortedIds, step, type Dir, type Kind } from './graph';
import { rand, shuffle } from './random';
import { countFact, facts, listFact, mcqFact, pool, take, takeable, yesNoFact } from './sheet';

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
        facts.push(countFact(family, phrase.replace(/^the /, ''), set, [me], 1, [a]));
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
      facts.push(yesNoFact(family, PHRASE[me].pair(N(s), N(t)), wantYes, [s, t], [me], 1, [s, t]));
      take(family, s, t);
      if (wantYes) yes++;
      else no++;
    }
  }
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
        if (mcqFact(family, `Ask which one of four options is among ${phrase}.`, set, distract, [me], 1, [a])) {
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
        facts.push(countFact(`count_${ch.family}`, `distinct ${ch.say(N(a)).replace(/^the |^all /, '')}`, set, mes, ch.steps.length, [a]));
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
        facts.push(yesNoFact(`yn_${ch.family}`, `${N(t)} is among ${ch.say(N(a))}`, wantYes, [a, t], mes, ch.steps.length, [a, t]));
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
        mcqFact(
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

/** The hand-picked families, in the order (and so the draws) of the first corpora. */
export async function handPicked(): Promise<void> {
  await oneHopLists(3);
  await combos(4);
  await exclusions(4);
  await chains(3, 1, 2);
  await yesNoPairs(2);
  await mcqOneHop(3);
  await mcqChains(2);
  await counts(1);
}
