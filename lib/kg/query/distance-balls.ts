import type { GraphSnapshot } from '../store/snapshot';
import type { EdgeFilter } from './edge-filter';
import { passes } from './edge-filter';
import { degreeOf } from './records';

interface Side {
  dist: Int8Array;
  frontier: number[];
  radius: number;
}

/**
 * Hop distances from a source (forward ball) and to a target (backward ball),
 * grown by bidirectional breadth-first search one level at a time, always on the
 * side whose frontier has fewer incident edges (its degree sum, known before
 * scanning). Within a frontier the lowest-degree nodes go first, so that when the
 * budget (incidence entries scanned) runs out it is hubs that stay unexpanded.
 *
 * A node outside the backward ball is more than `backwardRadius` hops from the
 * target: that lower bound is what the path enumeration prunes with.
 */
export class DistanceBalls {
  visits = 0;
  /** True when the budget stopped an expansion: some distances are then overestimated. */
  capped = false;
  private readonly forward: Side;
  private readonly backward: Side;
  private bestMeeting: number | null = null;

  constructor(
    private readonly g: GraphSnapshot,
    source: number,
    target: number,
    private readonly filter: EdgeFilter,
    private readonly budget: number,
  ) {
    this.forward = { dist: new Int8Array(g.nodeCount).fill(-1), frontier: [source], radius: 0 };
    this.backward = { dist: new Int8Array(g.nodeCount).fill(-1), frontier: [target], radius: 0 };
    this.forward.dist[source] = 0;
    this.backward.dist[target] = 0;
    if (source === target) this.bestMeeting = 0;
  }

  get backwardRadius(): number {
    return this.backward.radius;
  }

  /** Exact hops from v to the target when within the backward ball, else -1. */
  toTarget(v: number): number {
    return this.backward.dist[v];
  }

  /** The target's whole component lies in the backward ball: nodes outside it cannot reach the target. */
  get backwardExhausted(): boolean {
    return this.backward.frontier.length === 0 && !this.capped;
  }

  /** Shortest source–target distance if it is at most `maxDepth`, else null. */
  shortest(maxDepth: number): number | null {
    for (;;) {
      const reach = this.forward.radius + this.backward.radius;
      // A meeting within the radii is exact: a shorter path would have met earlier.
      if (this.bestMeeting !== null && this.bestMeeting <= reach) break;
      if (reach >= maxDepth || !this.growOnce()) break;
    }
    return this.bestMeeting !== null && this.bestMeeting <= maxDepth ? this.bestMeeting : null;
  }

  /** Grows until the radii add up to `total` (or nothing is left to expand). */
  growTo(total: number): void {
    let growing = true;
    while (growing && this.forward.radius + this.backward.radius < total) growing = this.growOnce();
  }

  private growOnce(): boolean {
    const open = [this.forward, this.backward].filter((s) => s.frontier.length > 0);
    if (!open.length) return false;
    const cost = (s: Side) => s.frontier.reduce((sum, v) => sum + degreeOf(this.g, v), 0);
    const side = open.length === 1 || cost(open[0]) <= cost(open[1]) ? open[0] : open[1];
    const other = side === this.forward ? this.backward : this.forward;
    const { g, filter } = this;
    const depth = side.radius + 1;
    const next: number[] = [];
    side.frontier.sort((a, b) => degreeOf(g, a) - degreeOf(g, b));
    for (const u of side.frontier) {
      if (this.visits + degreeOf(g, u) > this.budget) {
        this.capped = true;
        break;
      }
      this.visits += degreeOf(g, u);
      for (let i = g.incStart[u]; i < g.incStart[u + 1]; i++) {
        const v = g.incNeighbor[i];
        if (side.dist[v] !== -1 || !passes(g, filter, u, i)) continue;
        side.dist[v] = depth;
        next.push(v);
        if (other.dist[v] >= 0 && (this.bestMeeting === null || depth + other.dist[v] < this.bestMeeting)) this.bestMeeting = depth + other.dist[v];
      }
    }
    side.frontier = next;
    side.radius = depth;
    return true;
  }
}
