import { neighbors, sharedNeighbors, type KgNode } from '@/lib/kg';
import { bothPlural, kindNoun, mention, mentionPair, pluralVerb, relationPhrase, sentence } from '../lexicon';
import { choosePhrasing, type FamilyBuilder, type Instance } from '../instance';
import type { Rng } from '../random';
import { resolveStep } from '../relations';
import type { KindConcept } from '@/lib/kg/relations';
import { kindOf } from '@/lib/llm/offline/metaedges';
import type { EdgeDraw } from '../stated';

/**
 * Shared neighbour: two anchors of one kind, the answer their only common
 * neighbour over one relation. Each pairing is a sense between the anchors'
 * kind and the answer's, resolved to the loaded graph's metaedge and the end
 * of it the answer sits on (Disease–Gene–Disease: Hetionet's DaG, gene at the target).
 */
const PAIRING_SENSES: [anchor: KindConcept, sense: string, answer: KindConcept][] = [
  ['disease', 'associate', 'gene'],
  ['compound', 'treat', 'disease'],
  ['compound', 'cause', 'sideEffect'],
  ['gene', 'participate', 'pathway'],
  ['disease', 'present', 'symptom'],
  ['disease', 'localize', 'anatomy'],
  ['disease', 'treat', 'compound'],
  ['compound', 'bind', 'gene'],
  ['compound', 'include', 'pharmacologicClass'],
];

/** The loaded graph's pairings by name ("Disease–Gene–Disease"). */
function pairings(): Map<string, { metaedge: string; answerEnd: 'source' | 'target' }> {
  const out = new Map<string, { metaedge: string; answerEnd: 'source' | 'target' }>();
  for (const [anchor, sense, answer] of PAIRING_SENSES) {
    const step = resolveStep({ from: anchor, sense, to: answer });
    if (!step || step.direction === 'both') continue;
    out.set(`${kindOf(anchor)}–${kindOf(answer)}–${kindOf(anchor)}`, { metaedge: step.metaedge, answerEnd: step.direction === 'out' ? 'target' : 'source' });
  }
  return out;
}

/** Edges drawn per attempt, and second anchors tried per edge, before the attempt gives up. */
const EDGES_PER_ATTEMPT = 12;
const PARTNERS_PER_EDGE = 6;

interface Parts {
  answerKind: string;
  /** The answer's relation to each anchor ("is associated with"). */
  answerVerb: string;
  /** The anchors' relation to the answer, plural ("are associated with"). */
  anchorsVerb: string;
  /** Both anchors in one phrase ("the genes BRCA1 and TP53"), and each alone. */
  pair: string;
  a: string;
  b: string;
}

const PHRASINGS: readonly ((p: Parts) => string)[] = [
  (p) => `Which ${kindNoun(p.answerKind)} ${p.answerVerb} both ${p.pair}?`,
  (p) => `Find the ${kindNoun(p.answerKind)} that ${p.answerVerb} ${p.a} as well as ${p.b}.`,
  (p) => `Only one ${kindNoun(p.answerKind)} ${p.answerVerb} both ${p.pair}. Which ${kindNoun(p.answerKind)} is it?`,
  (p) => `${p.pair} ${bothPlural(p.anchorsVerb)} the same ${kindNoun(p.answerKind)}. Which ${kindNoun(p.answerKind)} is it?`,
];

export const sharedNeighborFamily: FamilyBuilder = {
  family: 'shared_neighbor',
  renderings: ['mcq', 'open'],
  variants: (metaedges) => [...pairings()].filter(([, p]) => metaedges.has(p.metaedge)).map(([name]) => name),

  async instantiate(variant: string, rng: Rng, draw: EdgeDraw): Promise<Instance | null> {
    const pairing = pairings().get(variant);
    if (!pairing) return null;
    const { metaedge, answerEnd } = pairing;
    for (const triple of await draw.edges(metaedge, EDGES_PER_ATTEMPT, rng.child('edges'))) {
      const [answer, first] = answerEnd === 'target' ? [triple.target, triple.source] : [triple.source, triple.target];
      const partners = await neighbors(answer.id, { metaedges: [metaedge], neighborKinds: [first.kind], limit: 10_000, order: 'id' });
      const candidates = partners.edges.map((e) => e.neighbor).filter((n) => n.id !== first.id);
      for (const second of rng.sample(candidates, PARTNERS_PER_EDGE)) {
        // Uniqueness is checked over the whole KG: every node both anchors reach over this relation.
        const shared = await sharedNeighbors([first.id, second.id], { metaedges: [metaedge], neighborKind: answer.kind, limit: 2 });
        if (shared.total !== 1 || shared.items[0].node.id !== answer.id) continue;
        return build(variant, metaedge, answerEnd, [first, second], answer, shared.items[0].edges);
      }
    }
    return null;
  },
};

function build(
  variant: string,
  metaedge: string,
  answerEnd: 'source' | 'target',
  anchors: KgNode[],
  answer: KgNode,
  edges: Instance['goldGraph']['edges'],
): Instance {
  const anchorIds = anchors.map((a) => a.id);
  const answerFrom = answerEnd === 'source' ? 'out' : 'in';
  const anchorsFrom = answerEnd === 'source' ? 'in' : 'out';
  return {
    family: 'shared_neighbor',
    variant,
    pattern: { kind: 'shared_neighbor', metaedge, anchorIds, answerKind: answer.kind },
    answers: [answer],
    goldGraph: { nodes: [...anchors.map((a) => ({ ...a, role: 'anchor' as const })), { ...answer, role: 'answer' }], edges },
    key: `shared_neighbor:${metaedge}:${[...anchorIds].sort().join('+')}`,
    answerRelation: metaedge,
    guardIds: anchorIds,
    phrase: (rng) => {
      const [a, b] = rng.shuffle(anchors);
      const parts: Parts = {
        answerKind: answer.kind,
        answerVerb: relationPhrase(metaedge, answerFrom),
        anchorsVerb: pluralVerb(relationPhrase(metaedge, anchorsFrom)),
        pair: mentionPair(a, b),
        a: mention(a),
        b: mention(b),
      };
      const chosen = choosePhrasing(rng, 'shared_neighbor', PHRASINGS, parts);
      return { ...chosen, text: sentence(chosen.text) };
    },
  };
}
