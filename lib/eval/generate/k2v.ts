import { neighbors, sampleEdges, samplePaths, type KgPath, type MetapathHop } from '@/lib/kg';
import { GoldAnswerSchema } from '@/lib/eval/scoring';
import { assertQuestionCount, GenerationError } from './errors';
import { aliasesOf, loadedMetaedges } from '@/lib/eval/store/generation';
import { leaksAnswer } from './leak';
import { aKind, flip, hasPhrasing, kindNoun, mention, relationPhrase, sentence } from './lexicon';
import { Rng } from './random';
import type { GeneratedQuestion } from './types';
import { loadMetagraph } from '@/lib/kg/loaded-metagraph';

/**
 * K2V question synthesis (METHODS.md §6, k2v.txt §2.1): sample a quintuple
 * (e1, r1, e2, r2, e3) — a 2-hop path — mask one entity and write the
 * fill-in-the-blank question. Offline the text comes from templates; the gold
 * answer is the masked node. Items whose answer shows in the question are dropped,
 * and so are items whose blank another KG entity also fills (the answer must be
 * unique for the question to be verifiable).
 */

const ATTEMPTS_PER_QUESTION = 200;
const BLANK = '____';

/** A metaedge walked from one side: the kinds it leaves from and arrives at. */
interface OrientedHop extends MetapathHop {
  from: string;
  to: string;
}

/** Per masked position, its phrasings; each takes the three nodes' mentions with the masked one already the blank. */
type Template = (p: { m: string[]; kinds: string[]; v01: string; v10: string; v12: string }) => string;
const TEMPLATES: readonly (readonly Template[])[] = [
  [
    ({ m, kinds, v01, v12 }) => `Fill in the blank with ${aKind(kinds[0])}: ${m[0]} ${v01} ${m[1]}, which ${v12} ${m[2]}.`,
    ({ m, kinds, v01, v12 }) => `Fill in the blank: the ${kindNoun(kinds[0])} ${m[0]} ${v01} ${m[1]}; ${m[1]} in turn ${v12} ${m[2]}.`,
  ],
  [
    ({ m, kinds, v01, v12 }) => `Fill in the blank with ${aKind(kinds[1])}: ${m[0]} ${v01} ${m[1]}, which ${v12} ${m[2]}.`,
    ({ m, kinds, v01, v12 }) => `Fill in the blank: ${m[0]} ${v01} the ${kindNoun(kinds[1])} ${m[1]}, and that ${kindNoun(kinds[1])} ${v12} ${m[2]}.`,
  ],
  [
    ({ m, kinds, v01, v12 }) => `Fill in the blank with ${aKind(kinds[2])}: ${m[0]} ${v01} ${m[1]}, which ${v12} ${m[2]}.`,
    ({ m, kinds, v10, v12 }) => `Fill in the blank: ${m[1]}, which ${v10} ${m[0]}, ${v12} the ${kindNoun(kinds[2])} ${m[2]}.`,
  ],
];

export async function generateK2vSet(opts: { seed: string | number; count: number }): Promise<GeneratedQuestion[]> {
  assertQuestionCount(opts.count);
  await loadMetagraph();
  const hops = await orientedHops();
  if (!hops.length) throw new GenerationError('the loaded KG has no metaedges the K2V templates can phrase');
  const seed = String(opts.seed);
  const seen = new Set<string>();
  const questions: GeneratedQuestion[] = [];
  for (let slot = 0; slot < opts.count; slot++) {
    const question = await fillSlot(seed, slot, hops, seen);
    if (!question) throw new GenerationError(`no valid K2V question in ${ATTEMPTS_PER_QUESTION} draws for slot ${slot}`);
    questions.push(question);
  }
  return questions;
}

async function fillSlot(seed: string, slot: number, hops: OrientedHop[], seen: Set<string>): Promise<GeneratedQuestion | null> {
  for (let attempt = 0; attempt < ATTEMPTS_PER_QUESTION; attempt++) {
    const rng = new Rng(`${seed}:${slot}:${attempt}`);
    // Relations are drawn uniformly, not edges, so that the big gene–gene metaedges do not crowd out the rest.
    const first = rng.pick(hops);
    const second = rng.pick(hops.filter((h) => h.from === first.to));
    const [path] = await samplePaths([first, second], 1, rng.child('path'));
    if (!path) continue;
    const masked = rng.int(3);
    const key = `${path.edges.map((e) => e.id).join('+')}:${masked}`;
    if (seen.has(key)) continue;
    if ((await fillers(path, [first, second], masked)).length !== 1) continue;
    const question = await write(path, [first, second], masked, rng, { seed, slot });
    if (!question) continue;
    seen.add(key);
    return question;
  }
  return null;
}

/** The fill-in-the-blank question for one path with one node masked; null when the text gives the answer away. */
async function write(path: KgPath, hops: MetapathHop[], masked: number, rng: Rng, at: { seed: string; slot: number }): Promise<GeneratedQuestion | null> {
  const answer = path.nodes[masked];
  const aliases = (await aliasesOf([answer])).get(answer.id) ?? [];
  const templates = TEMPLATES[masked];
  const t = rng.int(templates.length);
  const text = sentence(
    templates[t]({
      m: path.nodes.map((n, i) => (i === masked ? BLANK : mention(n))),
      kinds: path.nodes.map((n) => n.kind),
      v01: relationPhrase(hops[0].metaedge, hops[0].direction),
      v10: relationPhrase(hops[0].metaedge, flip(hops[0].direction)),
      v12: relationPhrase(hops[1].metaedge, hops[1].direction),
    }),
  );
  if (leaksAnswer(text, [answer.name, ...aliases])) return null;
  return {
    text,
    options: null,
    answer: GoldAnswerSchema.parse({ text: answer.name, aliases, nodeIds: [answer.id] }),
    answerType: 'open',
    family: `mask_e${masked + 1}`,
    goldGraph: { nodes: path.nodes.map((n, i) => ({ ...n, role: i === masked ? ('answer' as const) : ('anchor' as const) })), edges: path.edges },
    meta: {
      generator: 'k2v',
      ...at,
      rendering: 'open',
      template: `k2v/mask_e${masked + 1}/${t + 1}`,
      pattern: { kind: 'k2v', metapath: hops.map(({ metaedge, direction }) => ({ metaedge, direction })), maskedIndex: masked },
    },
  };
}

/**
 * Every node of the masked kind that fills the blank with the other two fixed:
 * for an end, the neighbours of the middle node along its hop; for the middle,
 * the nodes both ends reach along theirs. The masked node is always among them.
 */
export async function fillers(path: KgPath, hops: MetapathHop[], masked: number): Promise<string[]> {
  const kind = path.nodes[masked].kind;
  const along = async (from: number, hop: MetapathHop) =>
    new Set(
      (await neighbors(path.nodes[from].id, { metaedges: [hop.metaedge], direction: 'both', neighborKinds: [kind], limit: 100_000 })).edges.map(
        (e) => e.neighbor.id,
      ),
    );
  if (masked === 0) return [...(await along(1, hops[0]))];
  if (masked === 2) return [...(await along(1, hops[1]))];
  const [left, right] = [await along(0, hops[0]), await along(2, hops[1])];
  return [...left].filter((id) => right.has(id));
}

/**
 * Every phrasable metaedge of the loaded KG in each direction it can be walked,
 * with its end kinds (read off one of its edges). Symmetric same-kind metaedges
 * (CrC, GiG) are walked as 'both'; directed ones (Gr>G) each way.
 */
async function orientedHops(): Promise<OrientedHop[]> {
  const hops: OrientedHop[] = [];
  for (const metaedge of [...(await loadedMetaedges())].filter(hasPhrasing).sort()) {
    const [triple] = await sampleEdges(metaedge, 1, 'kinds');
    if (!triple) continue;
    const { kind: source } = triple.source;
    const { kind: target } = triple.target;
    const symmetric = source === target && relationPhrase(metaedge, 'out') === relationPhrase(metaedge, 'in');
    if (symmetric) hops.push({ metaedge, direction: 'both', from: source, to: target });
    else hops.push({ metaedge, direction: 'out', from: source, to: target }, { metaedge, direction: 'in', from: target, to: source });
  }
  return hops;
}
