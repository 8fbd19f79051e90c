/**
 * The fact sheet being written: facts and how each answer type is recorded, which anchors
 * are spent, the descriptions earlier corpora already used, and the JSONL written for writers.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { byKind, fair, N, named, sortedIds, sortedNames, type Kind, type Named } from './graph';
import { shuffle } from './random';

type AnswerType = 'list' | 'count' | 'yesno' | 'mcq';

export interface Fact {
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

export const facts: Fact[] = [];

// ---------- anchors ----------
const used = new Map<string, number>(); // anchor → times used as an anchor
const familyAnchors = new Set<string>(); // `${family}|${anchor}`
export function takeable(family: string, id: string, cap = 3): boolean {
  return fair(id) && (used.get(id) ?? 0) < cap && !familyAnchors.has(`${family}|${id}`);
}
export function take(family: string, ...ids: string[]) {
  for (const id of ids) {
    used.set(id, (used.get(id) ?? 0) + 1);
    familyAnchors.add(`${family}|${id}`);
  }
}
/** Candidates of a kind in a fixed id order, then shuffled by the seed. */
export const pool = (kind: Kind, filter: (id: string) => boolean = () => true) => shuffle((byKind.get(kind) ?? []).filter(filter));

// ---------- descriptions already asked ----------
const seen = new Set<string>();
/** Remembers the descriptions of earlier corpora's fact files (missing files are skipped). */
export function rememberDescriptions(files: string[]): number {
  for (const file of files.filter((f) => existsSync(f)))
    for (const line of readFileSync(file, 'utf8').split('\n')) if (line.trim()) seen.add((JSON.parse(line) as { description: string }).description);
  return seen.size;
}
/** Adds a fact unless its description was already asked (here or in a remembered corpus). */
export function addFact(f: Fact): boolean {
  if (seen.has(f.description)) return false;
  seen.add(f.description);
  facts.push(f);
  return true;
}

// ---------- answer types ----------
export function listFact(family: string, description: string, ids: Set<string> | string[], metaedges: string[], hops: number, anchors: string[]): Fact {
  const order = sortedNames(ids);
  return { family, description, answer_type: 'list', answer: order.map(N), gold_nodes: order, metaedges, hops, extra: {}, named: named(...anchors) };
}
/** "How many …": `set` is the gold; `phrase` names the set ("the genes that …"). */
export function countFact(family: string, phrase: string, set: Set<string>, metaedges: string[], hops: number, anchors: string[]): Fact {
  return {
    family,
    description: `Ask how many ${phrase} there are (a number).`,
    answer_type: 'count',
    answer: set.size,
    gold_nodes: set.size <= 50 ? sortedNames(set) : [],
    metaedges,
    hops,
    extra: {},
    named: named(...anchors),
  };
}
export function yesNoFact(family: string, claim: string, yes: boolean, gold: string[], metaedges: string[], hops: number, anchors: string[]): Fact {
  return {
    family,
    description: `Ask whether ${claim} (a yes/no question).`,
    answer_type: 'yesno',
    answer: yes ? 'yes' : 'no',
    gold_nodes: gold,
    metaedges,
    hops,
    extra: {},
    named: named(...anchors),
  };
}

/** Multiple choice: four options of the answer's kind, exactly one in the KG's set. */
const MCQ_MODES = ['object', 'inline', 'both'] as const;
let mcqTurn = 0;
export function mcqFact(
  family: string,
  ask: string,
  correctSet: Set<string>,
  distractorPool: Iterable<string>,
  metaedges: string[],
  hops: number,
  anchors: string[],
): boolean {
  const right = shuffle(sortedIds(correctSet).filter(fair))[0];
  if (!right) return false;
  const wrong = shuffle(sortedIds(distractorPool).filter((id) => !correctSet.has(id) && fair(id) && id !== right && !anchors.includes(id))).slice(0, 3);
  if (wrong.length < 3) return false;
  const options = shuffle([right, ...wrong]);
  const key = 'ABCD'[options.indexOf(right)];
  return addFact({
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
}

// ---------- output ----------
/** The coarse pattern a family belongs to (for per-pattern figures; families are per relation). */
const GROUPS = ['count_chain', 'yn_chain', 'mcq_chain', 'chain3', 'chain', 'list', 'count', 'yn', 'mcq', 'and', 'not'];
export const groupOf = (family: string) => GROUPS.find((g) => family.startsWith(g))!;

/** Writes the sheet as JSONL, ids `${prefix}-0001` on. */
export function writeSheet(out: string, prefix: string): void {
  const lines = facts.map((f, i) => {
    const { named: anchors, ...rest } = f;
    return JSON.stringify({ id: `${prefix}-${String(i + 1).padStart(4, '0')}`, group: groupOf(f.family), ...rest, anchor_nodes: anchors.map((n) => n.id) });
  });
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, `${lines.join('\n')}\n`);
}
