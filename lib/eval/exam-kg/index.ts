/**
 * Published exam multiple-choice questions the KG alone decides (docs/benchmarks.md,
 * "Exam MCQs the KG decides"): items of MedDDx and MIRAGE's MCQ datasets whose
 * correct option, by the benchmark's own key, is the ONLY option joined by a KG
 * edge (any metaedge, either direction) to an entity named in the stem.
 *
 * "Named" is computed here, apart from the entity linker, so the set does not
 * measure the linker against itself: a run of the stem's words whose normalised
 * form is exactly a node's name, a gene's full name or one of its NCBI synonyms.
 * Gene symbols and synonyms count only written in their own case ("MET", not
 * "met"), as a symbol is case-significant where a name is not, and only when
 * they hold a capital letter and are no roman numeral; a synonym needs three
 * characters ("not", "II" and "C" are NCBI synonyms too). An option is its
 * node(s) when its whole text is such a name.
 */

import { createHash } from 'node:crypto';
import path from 'node:path';
import { normaliseName } from '@/lib/kg/normalise';
import { parseMedddx } from '../import/medddx';
import { parseMirage } from '../import/mirage';
import type { NewQuestion } from '../sets';
import { joinedNodes, readNames } from './store';

/** The benchmark files, under the data directory. */
export const EXAM_FILES = { medddx: path.join('benchmarks', 'MedDDx.json.gz'), mirage: path.join('benchmarks', 'mirage-benchmark.json.gz') };
/** The longest name, in words, looked for in a stem. */
const MAX_NAME_WORDS = 8;
/** Share of items in the tune part (by a hash of the item's id); the rest is holdout. */
const TUNE_SHARE = 0.4;

export interface NameEntry {
  nodeId: string;
  /** The name as written, for symbols, whose case must match. */
  symbol: string | null;
}

/** Normalised name → the nodes it names. */
export type NameIndex = Map<string, NameEntry[]>;

/** An exam item as its benchmark gives it. */
export interface ExamItem {
  /** Benchmark and item id, e.g. "medddx/#12", "medqa/0042". */
  id: string;
  dataset: string;
  question: string;
  options: Record<string, string>;
  key: string;
}

/** What the selection saw of one item: the nodes its stem names, and per option the option's nodes and whether one is joined to the stem's. */
export interface ExamGrounding {
  stemNodes: string[];
  options: Record<string, { nodes: string[]; joined: boolean }>;
}

/** One line of the question set (the JSONL import format). */
export interface ExamLine {
  id: string;
  question: string;
  options: Record<string, string>;
  answer: string;
  answer_type: 'mcq';
  family: string;
  meta: { source: string; part: 'tune' | 'holdout' };
}

/** Node names, genes' full names and NCBI synonyms of the loaded graph, by normalised form. */
export async function readNameIndex(): Promise<NameIndex> {
  const index: NameIndex = new Map();
  const add = (normalised: string, entry: NameEntry) => {
    if (!/[a-z]/.test(normalised)) return;
    const list = index.get(normalised) ?? [];
    if (!list.some((e) => e.nodeId === entry.nodeId && e.symbol === entry.symbol)) list.push(entry);
    index.set(normalised, list);
  };
  for (const n of await readNames()) {
    if (!n.symbol) add(n.normalised, { nodeId: n.id, symbol: null });
    else if (isSymbol(n.name, n.synonym ? 3 : 2)) add(n.normalised, { nodeId: n.id, symbol: n.name });
  }
  return index;
}

/** A symbol that a stem can name: a capital letter, no roman numeral, at least `min` letters or digits. */
function isSymbol(symbol: string, min: number): boolean {
  const bare = symbol.replace(/[^\p{L}\p{N}]/gu, '');
  return bare.length >= min && /\p{Lu}/u.test(bare) && !/^[IVXLC]+$/.test(bare);
}

/** Every node a run of the text's words names exactly (see the module comment). */
export function namedNodes(text: string, index: NameIndex): string[] {
  const words = [...text.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => ({ raw: m[0], norm: normaliseName(m[0]) })).filter((w) => w.norm);
  const found = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    for (let n = 1; n <= MAX_NAME_WORDS && i + n <= words.length; n++) {
      const run = words.slice(i, i + n);
      for (const entry of index.get(run.map((w) => w.norm).join(' ')) ?? []) {
        if (entry.symbol === null || symbolWords(entry.symbol) === run.map((w) => w.raw).join(' ')) found.add(entry.nodeId);
      }
    }
  }
  return [...found];
}

/** The nodes an option's whole text names. */
export function optionNodes(text: string, index: NameIndex): string[] {
  const words = [...text.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => m[0]);
  return (index.get(normaliseName(text)) ?? []).filter((e) => e.symbol === null || symbolWords(e.symbol) === words.join(' ')).map((e) => e.nodeId);
}

const symbolWords = (symbol: string) => [...symbol.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => m[0]).join(' ');

/** The stem's named nodes and, per option, its nodes and whether any is joined to one of the stem's (other than itself). */
export async function groundItem(item: Pick<ExamItem, 'question' | 'options'>, index: NameIndex): Promise<ExamGrounding> {
  const stemNodes = namedNodes(item.question, index);
  const perOption = Object.entries(item.options).map(([letter, text]) => ({ letter, nodes: optionNodes(text, index) }));
  const optionIds = [...new Set(perOption.flatMap((o) => o.nodes))];
  const joined = await joinedNodes(optionIds, stemNodes);
  return {
    stemNodes,
    options: Object.fromEntries(perOption.map((o) => [o.letter, { nodes: o.nodes, joined: o.nodes.some((n) => joined.has(n)) }])),
  };
}

/** Whether the key is the one option joined to the stem. */
export function decidedByKg(grounding: ExamGrounding, key: string): boolean {
  const joined = Object.entries(grounding.options).filter(([, o]) => o.joined);
  return joined.length === 1 && joined[0][0] === key;
}

/** The MCQ items of MedDDx and MIRAGE (MedQA, MedMCQA, MMLU-Med; PubMedQA and BioASQ are yes/no) under the data directory. */
export function readExamItems(dataDir: string): ExamItem[] {
  const fromParsed = (questions: NewQuestion[], dataset: (q: NewQuestion) => string, id: (q: NewQuestion) => string) =>
    questions
      .filter((q) => q.answerType === 'mcq' && q.options)
      .map((q) => ({
        id: `${dataset(q)}/${id(q)}`,
        dataset: dataset(q),
        question: q.text,
        options: q.options as Record<string, string>,
        key: (q.answer as { key: string }).key,
      }));
  const meta = (q: NewQuestion) => (q.meta ?? {}) as Record<string, unknown>;
  return [
    ...fromParsed(
      parseMedddx(path.join(dataDir, EXAM_FILES.medddx)).questions,
      () => 'medddx',
      (q) => `#${String(meta(q).index)}`,
    ),
    ...fromParsed(
      parseMirage(path.join(dataDir, EXAM_FILES.mirage)).questions,
      (q) => String(meta(q).dataset),
      (q) => String(meta(q).id),
    ),
  ];
}

/** Tune or holdout, by a hash of the item's id: the same item always falls on the same side. */
export function partOf(id: string): 'tune' | 'holdout' {
  return createHash('sha256').update(`exam-kg:${id}`).digest()[0] < TUNE_SHARE * 256 ? 'tune' : 'holdout';
}

/** The items the KG alone decides, as question-set lines (gold = the benchmark's key), with the number examined per dataset. */
export async function selectKgDecidable(items: ExamItem[], index: NameIndex): Promise<{ lines: ExamLine[]; examined: Record<string, number> }> {
  const lines: ExamLine[] = [];
  const examined: Record<string, number> = {};
  for (const item of items) {
    examined[item.dataset] = (examined[item.dataset] ?? 0) + 1;
    if (!decidedByKg(await groundItem(item, index), item.key)) continue;
    lines.push({
      id: item.id,
      question: item.question,
      options: item.options,
      answer: item.key,
      answer_type: 'mcq',
      family: item.dataset,
      meta: { source: item.id, part: partOf(item.id) },
    });
  }
  return { lines, examined };
}
