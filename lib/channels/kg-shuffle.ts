import { hashedNodeOfKind } from '@/lib/kg/store';
import { donorQuestions } from '@/lib/eval/store/questions';
import { linkEntities, neighbors, type KgEdge, type KgNode } from '@/lib/kg';
import { sampleIndexes, seededRandom } from '@/lib/kg/query/prng';

/**
 * X-R2's KG-shuffled control (xr2.txt §6.5, Table 2): "permuting retrieved
 * triples across instances while preserving the same triple budget". Each KG
 * read of a shuffled run is answered with as many triples as the real read
 * found, drawn seeded from the retrieval of another question: a donor picked
 * by a seeded hash among the other questions of the run's set (any stored
 * question when the run has no set), whose linked entities' one-hop triples
 * form the pool. Triples touching the run's own anchors are left out, so the
 * alignment is broken while the budget is kept. The donor is fixed per run;
 * the draw is a function of (seed, read), so a replayed read draws the same.
 */

export interface ShuffleDonor {
  questionId: string;
  text: string;
  /** The donor's linked entities: the anchors of its retrieval. */
  anchors: { id: string; name: string }[];
}

export interface DonorTriple {
  edge: KgEdge;
  source: KgNode;
  target: KgNode;
}

export interface ShuffleDraw {
  seed: number;
  /** Triples the real read found, and how many were drawn in their place. */
  replaced: number;
  drawn: number;
  donors: ShuffleDonor[];
  /** Set when the donors' retrieval held fewer triples than the budget. */
  short: string | null;
  triples: DonorTriple[];
}

/** Questions tried as donors before the draw gives up on filling the budget. */
const MAX_DONORS = 5;
/** Triples read per donor anchor. */
const PER_ANCHOR = 200;

export class ShuffleDonors {
  private readonly donors: ShuffleDonor[] = [];
  private readonly pool: DonorTriple[] = [];
  private candidates: Promise<{ id: string; text: string }[]> | null = null;

  constructor(
    private readonly seed: number,
    private readonly question: { id: string | null; text: string },
  ) {}

  /** `count` triples from other questions' retrieval, none touching `exclude` (this question's anchors). */
  async draw(count: number, key: string, exclude: Set<string>): Promise<ShuffleDraw> {
    const eligible = () => this.pool.filter((t) => !exclude.has(t.source.id) && !exclude.has(t.target.id));
    while (eligible().length < count && (await this.addDonor())) {
      // each donor adds its retrieval to the pool
    }
    const usable = eligible();
    const picked = sampleIndexes(usable.length, Math.min(count, usable.length), seededRandom(`kg-shuffle/${this.seed}/${key}`));
    const triples = picked.map((i) => usable[i]);
    const short = triples.length < count ? `the donors' retrieval held ${usable.length} usable triples for a budget of ${count}` : null;
    return { seed: this.seed, replaced: count, drawn: triples.length, donors: [...this.donors], short, triples };
  }

  private async addDonor(): Promise<boolean> {
    if (this.donors.length >= MAX_DONORS) return false;
    this.candidates ??= donorCandidates(this.seed, this.question);
    const next = (await this.candidates)[this.donors.length];
    if (!next) return false;
    const links = await linkEntities(next.text);
    const anchors = [...new Map(links.map((l) => [l.nodeId, { id: l.nodeId, name: l.name, kind: l.kind }])).values()];
    this.donors.push({ questionId: next.id, text: next.text, anchors: anchors.map(({ id, name }) => ({ id, name })) });
    const seen = new Set(this.pool.map((t) => t.edge.id));
    for (const anchor of anchors) {
      const { edges } = await neighbors(anchor.id, { direction: 'both', limit: PER_ANCHOR });
      for (const n of edges) {
        if (seen.has(n.edge.id)) continue;
        seen.add(n.edge.id);
        this.pool.push(n.direction === 'out' ? { edge: n.edge, source: anchor, target: n.neighbor } : { edge: n.edge, source: n.neighbor, target: anchor });
      }
    }
    return true;
  }
}

/** Other questions in seeded order: the run's own set first, then any stored question; never one with the same text. */
function donorCandidates(seed: number, question: { id: string | null; text: string }): Promise<{ id: string; text: string }[]> {
  return donorQuestions(question, `kg-shuffle/${seed}`, MAX_DONORS);
}

/**
 * For reads that return paths (not triples), the shuffled run keeps the old
 * control: each anchor is swapped for a node of the same kind picked by a
 * seeded hash. Named in the trace as a deviation from the matched budget.
 */
export async function shuffledAnchor(anchor: KgNode, seed: number): Promise<KgNode> {
  return (await hashedNodeOfKind(anchor.kind, anchor.id, `${seed}:${anchor.id}`)) ?? anchor;
}
