import { neighbors, sharedNeighbors, type KgNode } from '@/lib/kg';
import { kindNoun, mention, relationPhrase, sentence } from '../lexicon';
import { choosePhrasing, type FamilyBuilder, type Instance } from '../instance';
import type { Rng } from '../random';
import { resolveStep } from '../relations';
import type { KindConcept } from '@/lib/kg/relations';
import { kindOf } from '@/lib/llm/offline/metaedges';
import type { EdgeDraw } from '../stated';

/**
 * Intersection: three clues of different kinds, the answer the one node joined
 * to all of them. Per answer kind, the relations a clue can come from (a sense
 * and the clue's kind), resolved to the loaded graph's metaedges with the side
 * of the stored edge the answer is on ('out' = source). One relation per clue
 * kind, so a clue can reach the answer only through its own relation.
 */
const CLUE_SENSES: [answer: KindConcept, clues: [sense: string, clue: KindConcept][]][] = [
  [
    'disease',
    [
      ['associate', 'gene'],
      ['present', 'symptom'],
      ['localize', 'anatomy'],
      ['treat', 'compound'],
    ],
  ],
  [
    'compound',
    [
      ['bind', 'gene'],
      ['treat', 'disease'],
      ['cause', 'sideEffect'],
      ['include', 'pharmacologicClass'],
    ],
  ],
  [
    'gene',
    [
      ['participate', 'pathway'],
      ['associate', 'disease'],
      ['bind', 'compound'],
      ['upregulate', 'anatomy'],
    ],
  ],
];

/** Per answer kind of the loaded graph, its clue relations. */
function clueRelations(): Map<string, { metaedge: string; answerFrom: 'out' | 'in' }[]> {
  const out = new Map<string, { metaedge: string; answerFrom: 'out' | 'in' }[]>();
  for (const [answer, clues] of CLUE_SENSES) {
    const kind = kindOf(answer);
    if (!kind) continue;
    const relations = clues.flatMap(([sense, clue]) => {
      const step = resolveStep({ from: answer, sense, to: clue });
      return step && step.direction !== 'both' ? [{ metaedge: step.metaedge, answerFrom: step.direction }] : [];
    });
    out.set(kind, relations);
  }
  return out;
}

const CLUES = 3;
/** Answers drawn per attempt, and clue triples tried per answer. */
const ANSWERS_PER_ATTEMPT = 8;
const TRIPLES_PER_ANSWER = 8;

interface Clue {
  node: KgNode;
  metaedge: string;
  answerFrom: 'out' | 'in';
}

const PHRASINGS: readonly ((p: { answerKind: string; clues: string[] }) => string)[] = [
  ({ answerKind, clues: [a, b, c] }) => `Which ${kindNoun(answerKind)} ${a}, ${b}, and ${c}?`,
  ({ answerKind, clues: [a, b, c] }) => `Name the ${kindNoun(answerKind)} that ${a} and ${b}, and that also ${c}.`,
  ({ answerKind, clues: [a, b, c] }) => `Three clues point to one ${kindNoun(answerKind)}: it ${a}; it ${b}; and it ${c}. Which ${kindNoun(answerKind)} is it?`,
  ({ answerKind, clues: [a, b, c] }) => `Find the only ${kindNoun(answerKind)} that ${a}, ${b} and ${c}.`,
];

export const intersectionFamily: FamilyBuilder = {
  family: 'intersection',
  renderings: ['mcq', 'open'],
  variants: (metaedges) =>
    [...clueRelations()].filter(([, relations]) => relations.filter((r) => metaedges.has(r.metaedge)).length >= CLUES).map(([kind]) => kind),

  async instantiate(answerKind: string, rng: Rng, draw: EdgeDraw): Promise<Instance | null> {
    const relations = rng.sample(clueRelations().get(answerKind) ?? [], CLUES);
    const seedRelation = relations[0];
    for (const triple of await draw.edges(seedRelation.metaedge, ANSWERS_PER_ATTEMPT, rng.child('answers'))) {
      const [answer, seedClue] = seedRelation.answerFrom === 'out' ? [triple.source, triple.target] : [triple.target, triple.source];
      const options = await Promise.all(
        relations.map(async (r) => (await neighbors(answer.id, { metaedges: [r.metaedge], limit: 10_000, order: 'id' })).edges.map((e) => e.neighbor)),
      );
      if (options.some((o) => !o.length)) continue;
      for (let t = 0; t < TRIPLES_PER_ANSWER; t++) {
        // A stated seed edge stays in the question: its other end is the first clue.
        const clues: Clue[] = relations.map((r, i) => ({ node: i === 0 && draw.stated ? seedClue : rng.pick(options[i]), ...r }));
        // The whole KG decides uniqueness: every node of the answer's kind that each clue reaches over its relation.
        const shared = await sharedNeighbors(
          clues.map((c) => c.node.id),
          { metaedges: relations.map((r) => r.metaedge), neighborKind: answerKind, limit: 2 },
        );
        if (shared.total !== 1 || shared.items[0].node.id !== answer.id) continue;
        return build(answerKind, clues, answer, shared.items[0].edges);
      }
    }
    return null;
  },
};

function build(answerKind: string, clues: Clue[], answer: KgNode, edges: Instance['goldGraph']['edges']): Instance {
  const clueIds = clues.map((c) => c.node.id);
  return {
    family: 'intersection',
    variant: answerKind,
    pattern: { kind: 'intersection', clues: clues.map((c) => ({ nodeId: c.node.id, metaedge: c.metaedge })), answerKind },
    answers: [answer],
    goldGraph: { nodes: [...clues.map((c) => ({ ...c.node, role: 'clue' as const })), { ...answer, role: 'answer' }], edges },
    key: `intersection:${[...clueIds].sort().join('+')}`,
    answerRelation: clues[0].metaedge,
    guardIds: clueIds,
    phrase: (rng) => {
      const phrases = rng.shuffle(clues).map((c) => `${relationPhrase(c.metaedge, c.answerFrom)} ${mention(c.node)}`);
      const chosen = choosePhrasing(rng, 'intersection', PHRASINGS, { answerKind, clues: phrases });
      return { ...chosen, text: sentence(chosen.text) };
    },
  };
}
