/**
 * Families nobody picked: metapaths composed from the 21 metaedges in both directions.
 *
 * A step is one metaedge read one way; a path chains steps whose kinds meet, leaving out the
 * degenerate ones (a step straight back, which is also a symmetric edge twice). Descriptions are
 * the relations' phrases nested into one noun phrase ("the anatomical structures in which any of
 * the genes that the compound X binds is downregulated"). Each group takes the path whose steps
 * were used least so far, so every metaedge-direction turns up; a path that finds no anchor
 * within a few tries is dropped for that group.
 */
import { anchorKind, byKind, deg, fair, ME, N, nb, PHRASE, resultKind, sortedIds, step, type Dir } from './graph';
import { shuffle } from './random';
import { addFact, countFact, facts, groupOf, listFact, mcqFact, pool, take, takeable, yesNoFact } from './sheet';

type Step = readonly [string, Dir];

const STEPS: Step[] = Object.keys(ME).flatMap((me): Step[] =>
  ME[me].sym
    ? [[me, 'both']]
    : [
        [me, 'out'],
        [me, 'in'],
      ],
);
const flip = (dir: Dir): Dir => (dir === 'out' ? 'in' : dir === 'in' ? 'out' : 'both');
const keyOf = ([me, dir]: Step) => `${me.replace('>', '')}_${dir}`;
const familyOf = (group: string, steps: readonly Step[]) => `${group}_${steps.map(keyOf).join('_')}`;
const metaedgesOf = (steps: readonly Step[]) => steps.map((s) => s[0]);

/** Paths of `hops` steps whose kinds meet, never stepping straight back along the previous edge. */
function paths(hops: number): Step[][] {
  let out: Step[][] = STEPS.map((s) => [s]);
  for (let h = 1; h < hops; h++)
    out = out.flatMap((p) => {
      const [me, dir] = p[p.length - 1];
      return STEPS.filter((s) => anchorKind(...s) === resultKind(me, dir) && !(s[0] === me && s[1] === flip(dir))).map((s) => [...p, s]);
    });
  return out;
}
/** Pairs of steps that reach the same kind (two constraints on one answer). */
const pairsOnOneKind = (): Step[][] => STEPS.flatMap((a) => STEPS.filter((b) => resultKind(...a) === resultKind(...b)).map((b) => [a, b]));

// ---------- descriptions ----------
const HOLE = '\u0000';
/** The entity slot of a relation's phrase, with the kind word before it ("the gene X", `the pathway "X"`). */
const SLOT = /the (?:anatomical structure|gene\/protein|gene|compound|side effect|disease|symptom|pathway|pharmacologic class) "?\u0000"?/;
/** The head noun of a set phrase ("the compounds (drugs) "), leaving its relative clause. */
const HEAD = /^the (?:anatomical structures|genes|compounds|diseases|side effects|symptoms|pathways|pharmacologic classes)(?: \([^)]*\))? /;

const phraseOf = ([me, dir]: Step, x: string) => (dir === 'in' ? PHRASE[me].in(x) : PHRASE[me].out(x));
function must(s: string, re: RegExp, what: string): string {
  if (!re.test(s)) throw new Error(`${what}: no match in "${s}"`);
  return s;
}
/** The set a path reaches from a named anchor, as one noun phrase. */
function say(steps: readonly Step[], anchor: string): string {
  let phrase = phraseOf(steps[0], anchor);
  for (const s of steps.slice(1)) phrase = must(phraseOf(s, HOLE), SLOT, keyOf(s)).replace(SLOT, `any of ${phrase}`);
  return phrase;
}
/** "the genes expressed in X" → "expressed in X", to follow "those". */
const relative = (phrase: string) => must(phrase, HEAD, 'head').replace(HEAD, '');

// ---------- walking ----------
const MID_CAP = 40;
/** The set a path reaches, or null when a middle set passes `midCap` or the walk comes back to the anchor. */
async function walk(a: string, steps: readonly Step[], midCap = MID_CAP): Promise<Set<string> | null> {
  let cur = new Set([a]);
  for (const [i, [me, dir]] of steps.entries()) {
    if (i > 0 && cur.size > midCap) return null;
    cur = await step(cur, me, dir);
  }
  return cur.has(a) ? null : cur;
}
/** Plausible wrong answers: what the same path reaches from the anchor's siblings (sharing a first-step neighbour), outside `set`. */
async function nearMisses(a: string, steps: readonly Step[], set: Set<string>): Promise<string[]> {
  const [me, dir] = steps[0];
  const siblings = shuffle(sortedIds(await step(await nb(a, me, dir), me, flip(dir))).filter((x) => x !== a)).slice(0, 6);
  const out = new Set<string>();
  for (const sib of siblings) for (const x of (await walk(sib, steps, 60)) ?? []) if (!set.has(x) && x !== a && fair(x)) out.add(x);
  return sortedIds(out);
}
/** Untaken anchors for a family whose first step has a degree in [lo, hi], at most `tries`. */
function anchors(family: string, [me, dir]: Step, lo: number, hi: number, tries: number): string[] {
  return pool(anchorKind(me, dir), (id) => deg(id, me, dir) >= lo && deg(id, me, dir) <= hi)
    .filter((id) => takeable(family, id))
    .slice(0, tries);
}

// ---------- coverage ----------
const usage = new Map<string, number>(STEPS.map((s) => [keyOf(s), 0]));
const score = (steps: readonly Step[]) => steps.reduce((n, s) => n + usage.get(keyOf(s))!, 0);

/**
 * Makes `n` facts of a group: each time the live path whose steps were used least (ties by the
 * seed), at most `perFamily` facts a path; `make` tries anchors and says whether a fact was added.
 */
async function fill(
  n: number,
  candidates: Step[][],
  family: (steps: Step[]) => string,
  make: (steps: Step[], family: string) => Promise<boolean>,
  perFamily = 1,
) {
  const made = new Map<string, number>();
  const dead = new Set<string>();
  for (let got = 0; got < n;) {
    const live = shuffle(candidates.filter((p) => !dead.has(family(p)) && (made.get(family(p)) ?? 0) < perFamily));
    if (!live.length) break;
    const p = live.sort((x, y) => score(x) - score(y))[0];
    const f = family(p);
    if (!(await make(p, f))) {
      dead.add(f);
      continue;
    }
    for (const s of p) usage.set(keyOf(s), usage.get(keyOf(s))! + 1);
    made.set(f, (made.get(f) ?? 0) + 1);
    got++;
  }
}

// ---------- groups ----------
/** A path's set as a list (1–8 answers) or a count (9–200). */
function setFacts(kind: 'list' | 'count') {
  return async (steps: Step[], family: string) => {
    for (const a of anchors(family, steps[0], 1, MID_CAP, 15)) {
      const set = await walk(a, steps);
      if (!set || (kind === 'list' ? set.size < 1 || set.size > 8 : set.size < 9 || set.size > 200)) continue;
      const phrase = say(steps, N(a));
      const fact =
        kind === 'list'
          ? listFact(family, `Ask for ${phrase}.`, set, metaedgesOf(steps), steps.length, [a])
          : countFact(family, `${steps.length > 1 ? 'distinct ' : ''}${phrase.replace(/^the /, '')}`, set, metaedgesOf(steps), steps.length, [a]);
      if (!addFact(fact)) continue;
      take(family, a);
      return true;
    }
    return false;
  };
}

/** Is this node in the path's set: yes from the set, no from the anchor's near misses, alternating. */
function yesNo() {
  let turn = 0;
  return async (steps: Step[], family: string) => {
    const wantYes = turn % 2 === 0;
    for (const a of anchors(family, steps[0], 1, MID_CAP, 10)) {
      const set = await walk(a, steps);
      if (!set?.size) continue;
      const t = wantYes ? shuffle(sortedIds(set).filter(fair))[0] : shuffle(await nearMisses(a, steps, set))[0];
      if (!t || !takeable(family, t, 4)) continue;
      const [me, dir] = steps[0];
      const claim = steps.length > 1 ? `${N(t)} is among ${say(steps, N(a))}` : dir === 'in' ? PHRASE[me].pair(N(t), N(a)) : PHRASE[me].pair(N(a), N(t));
      if (!addFact(yesNoFact(family, claim, wantYes, [a, t], metaedgesOf(steps), steps.length, [a, t]))) continue;
      take(family, a, t);
      turn++;
      return true;
    }
    return false;
  };
}

/** One of four options in the path's set; the distractors are near misses, else any node of the kind on the last relation. */
async function multipleChoice(steps: Step[], family: string) {
  const [lastMe, lastDir] = steps[steps.length - 1];
  for (const a of anchors(family, steps[0], 1, MID_CAP, 10)) {
    const set = await walk(a, steps);
    if (!set?.size) continue;
    const near = await nearMisses(a, steps, set);
    const distract =
      near.length >= 3
        ? near
        : shuffle((byKind.get(resultKind(lastMe, lastDir)) ?? []).filter((id) => deg(id, lastMe, flip(lastDir)) >= 1 && !set.has(id))).slice(0, 300);
    if (!mcqFact(family, `Ask which one of four options is among ${say(steps, N(a))}.`, set, distract, metaedgesOf(steps), steps.length, [a])) continue;
    take(family, a);
    return true;
  }
  return false;
}

/**
 * Two anchors on one answer kind: the first's set and the second's (found among what the first
 * set's members reach backwards, so the two overlap); `combine` says what is asked of them.
 */
function twoAnchors(combine: 'and' | 'not') {
  return async ([s1, s2]: Step[], family: string) => {
    for (const a of anchors(family, s1, 2, combine === 'and' ? 150 : MID_CAP, 10)) {
      const setA = await nb(a, ...s1);
      const seconds = new Set<string>();
      for (const m of shuffle(sortedIds(setA)).slice(0, 25)) for (const b of await nb(m, s2[0], flip(s2[1]))) seconds.add(b);
      for (const b of shuffle(sortedIds(seconds)).slice(0, 40)) {
        if (b === a || !takeable(family, b) || deg(b, ...s2) > 400) continue;
        const setB = await nb(b, ...s2);
        const kept = new Set([...setA].filter((x) => setB.has(x) === (combine === 'and')));
        if (kept.size < 1 || kept.size > 8 || kept.size === setA.size || (combine === 'and' && kept.size === setB.size)) continue;
        const joint = combine === 'and' ? 'restricted to those' : 'other than those';
        const description = `Ask for ${phraseOf(s1, N(a))}, ${joint} ${relative(phraseOf(s2, N(b)))}.`;
        if (!addFact(listFact(family, description, kept, [s1[0], s2[0]], 1, [a, b]))) continue;
        take(family, a, b);
        return true;
      }
    }
    return false;
  };
}

/** A one-hop set less one named member. */
async function lessOne([s]: Step[], family: string) {
  for (const a of anchors(family, s, 2, 9, 15)) {
    const set = await nb(a, ...s);
    const x = shuffle(sortedIds(set).filter(fair))[0];
    if (!x) continue;
    const rest = new Set([...set].filter((y) => y !== x));
    if (!addFact(listFact(family, `Ask for ${phraseOf(s, N(a))}, other than ${N(x)}.`, rest, [s[0]], 1, [a, x]))) continue;
    take(family, a);
    return true;
  }
  return false;
}

/** Corpus 8's shares: about 60 % compositions, the rest one-hop facts on the least used metaedge-directions. */
export async function metapaths(): Promise<void> {
  const two = paths(2);
  const three = paths(3);
  const oneHop = STEPS.map((s) => [s]);
  const byPath = (group: string) => (p: Step[]) => familyOf(group, p);
  await fill(50, two, byPath('chain'), setFacts('list'));
  await fill(20, three, byPath('chain3'), setFacts('list'));
  await fill(30, pairsOnOneKind(), byPath('and'), twoAnchors('and'));
  await fill(20, pairsOnOneKind(), byPath('not'), twoAnchors('not'));
  await fill(10, oneHop, (p) => `${familyOf('not', p)}_member`, lessOne);
  await fill(24, two, byPath('yn_chain'), yesNo());
  await fill(6, three, byPath('yn_chain3'), yesNo());
  await fill(22, two, byPath('mcq_chain'), multipleChoice);
  await fill(6, three, byPath('mcq_chain3'), multipleChoice);
  await fill(16, two, byPath('count_chain'), setFacts('count'));
  await fill(6, three, byPath('count_chain3'), setFacts('count'));
  await fill(35, oneHop, byPath('list'), setFacts('list'), 2);
  await fill(25, oneHop, byPath('count'), setFacts('count'));
  await fill(40, oneHop, byPath('yn'), yesNo(), 2);
  await fill(30, oneHop, byPath('mcq'), multipleChoice);
  report();
}

/** Figures for the log: facts per group, and how often each metaedge-direction was used. */
function report() {
  const groups = new Map<string, number>();
  for (const f of facts) groups.set(groupOf(f.family), (groups.get(groupOf(f.family)) ?? 0) + 1);
  console.log(`per group: ${[...groups].map(([g, n]) => `${g} ${n}`).join(', ')}`);
  console.log(`per metaedge-direction: ${[...usage].map(([k, n]) => `${k} ${n}`).join(', ')}`);
  const thin = [...usage].filter(([, n]) => n < 2).map(([k]) => k);
  console.log(thin.length ? `used fewer than twice: ${thin.join(', ')}` : 'every metaedge-direction used at least twice');
}
