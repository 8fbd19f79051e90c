import {
  EDGE_CLASSES,
  NODE_CLASSES,
  VIEW_CLASSES,
  type EdgeClass,
  type GraphChannel,
  type GraphEdge,
  type GraphModel,
  type GraphNode,
  type NodeClass,
} from '@/components/graph/model';
import type { EvidenceView, RunView, SeedEntity } from '@/lib/runs/view';
import type { RejectedHypothesis } from '@/lib/trace/hypotheses';
import { distinctBy } from '@/lib/base/distinct';

/**
 * A run's evidence as a graph (pure): KG triples and path hops become edges
 * between their named ends, hypotheses become dashed edges (accepted or
 * rejected; rejected ones come from the reviewer's step output, since only
 * accepted ones become evidence), any other record whose data names two node
 * ids becomes an edge of its channel, and a text unit naming several entities
 * (BioWeave) links the first to the others with its relation phrase. Seeds (the question's linked entities) are always drawn, so a run
 * with the kg switch off still shows what was linked.
 *
 * Edge ids are stable across runs (`kg:<edge id>`, `<channel>:<ref>`), so two
 * runs' graphs can be merged for a comparison.
 */

export interface RunGraphInput {
  evidence: readonly EvidenceView[];
  seeds: readonly SeedEntity[];
  answerNodeIds: readonly string[];
  rejectedHypotheses?: readonly RejectedHypothesis[];
}

export interface RunGraphOptions {
  /** Show the graph as of this step ordinal: only evidence recorded by steps up to it. */
  asOfOrdinal?: number | null;
  /** stepId → ordinal, for the cut. */
  stepOrdinals?: ReadonlyMap<string, number>;
  /** Only evidence recorded by these steps (a hop's or an iteration's subtree). */
  onlySteps?: ReadonlySet<string> | null;
  /** A node or edge to emphasise. */
  highlightId?: string | null;
}

export interface RunGraph {
  model: GraphModel;
  /** graph element id → the evidence records behind it. */
  evidenceByElement: Map<string, string[]>;
  channels: GraphChannel[];
  hasHypotheses: boolean;
  kgEdges: number;
  /** graph element id → the rejected hypothesis it draws. */
  rejectedByElement: Map<string, RejectedHypothesis>;
}

interface EdgeDraft {
  id: string;
  source: { id: string; name: string; kind: string };
  target: { id: string; name: string; kind: string };
  label: string;
  channel: GraphChannel;
  hypothesis: boolean;
  accepted: boolean;
  selected: boolean;
  evidenceId: string;
}

type Data = Record<string, unknown>;
const isObject = (v: unknown): v is Data => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

/** "Gene::3569" → "Gene". */
export function kindOfNodeId(id: string): string {
  const at = id.indexOf('::');
  return at > 0 ? id.slice(0, at) : 'Entity';
}

function end(data: Data, side: 'source' | 'target'): EdgeDraft['source'] | null {
  const nested = isObject(data[side]) ? (data[side] as Data) : null;
  const id = str(data[`${side}Id`]) ?? str(nested?.id) ?? str(nested?.nodeId);
  if (!id) return null;
  const name = str(data[`${side}Name`]) ?? str(nested?.name) ?? id;
  const kind = str(data[`${side}Kind`]) ?? str(nested?.kind) ?? kindOfNodeId(id);
  return { id, name, kind };
}

function acceptedOf(data: Data, selected: boolean): boolean {
  if (typeof data.accepted === 'boolean') return data.accepted;
  const verdict = str(data.verdict) ?? str(data.status);
  if (verdict) return /^(accept|accepted|yes|pass|passed|supported)$/i.test(verdict);
  return selected;
}

/** The edges one evidence record contributes (none for a passage or profile without a relation). */
export function edgesOfEvidence(e: EvidenceView): EdgeDraft[] {
  if (!isObject(e.data)) return [];
  const data = e.data;
  const channel = e.channel as GraphChannel;
  const hypothesis = e.kind === 'hypothesis';
  const draft = (d: Data, id: string): EdgeDraft | null => {
    const source = end(d, 'source');
    const target = end(d, 'target');
    if (!source || !target) return null;
    const label = str(d.verb) ?? str(d.relation) ?? str(d.predicate) ?? str(d.metaedge) ?? '';
    return { id, source, target, label, channel, hypothesis, accepted: hypothesis && acceptedOf(d, e.selected), selected: e.selected, evidenceId: e.id };
  };
  if (Array.isArray(data.hops)) {
    return data.hops.flatMap((hop) => {
      if (!isObject(hop)) return [];
      const edgeId = hop.edgeId ?? hop.id;
      const d = draft(hop, edgeId !== undefined ? `kg:${String(edgeId)}` : `${channel}:${e.ref}:${String(hop.sourceId)}>${String(hop.targetId)}`);
      return d ? [d] : [];
    });
  }
  const kgEdge = !hypothesis && e.channel === 'kg' && data.edgeId !== undefined && data.edgeId !== null ? `kg:${String(data.edgeId)}` : null;
  const d = draft(data, kgEdge ?? `${hypothesis ? 'hyp' : channel}:${e.ref}`);
  if (d) return [d];
  return unitEdges(e, data, channel);
}

/** A text unit naming several KG entities: the first linked to each other one, labelled with the unit's relation phrase. */
function unitEdges(e: EvidenceView, data: Data, channel: GraphChannel): EdgeDraft[] {
  if (!Array.isArray(data.entities)) return [];
  const entities = data.entities.flatMap((x) =>
    isObject(x) && typeof x.nodeId === 'string' ? [{ id: x.nodeId, name: str(x.name) ?? x.nodeId, kind: str(x.kind) ?? kindOfNodeId(x.nodeId) }] : [],
  );
  const unique = distinctBy(entities, (x) => x.id);
  if (unique.length < 2) return [];
  const relations = Array.isArray(data.relations) ? data.relations.filter((r): r is string => typeof r === 'string') : [];
  const label = str(data.predicate) ?? relations[0] ?? 'co-mentioned';
  const [first, ...rest] = unique;
  return rest.map((other) => ({
    id: `${channel}:${e.ref}:${first.id}>${other.id}`,
    source: first,
    target: other,
    label,
    channel,
    hypothesis: false,
    accepted: false,
    selected: e.selected,
    evidenceId: e.id,
  }));
}

/** The graph input of a run view. */
export function graphInputOf(run: Pick<RunView, 'evidence' | 'seeds' | 'answer' | 'rejectedHypotheses'>): RunGraphInput {
  return { evidence: run.evidence, seeds: run.seeds, answerNodeIds: run.answer?.nodeIds ?? [], rejectedHypotheses: run.rejectedHypotheses };
}

export function runToGraph(input: RunGraphInput, options: RunGraphOptions = {}): RunGraph {
  const { asOfOrdinal = null, stepOrdinals, highlightId = null, onlySteps = null } = options;
  const shown = (stepId: string | null) => {
    if (onlySteps) return !!stepId && onlySteps.has(stepId);
    if (asOfOrdinal === null || !stepId) return true;
    const ordinal = stepOrdinals?.get(stepId);
    return ordinal === undefined || ordinal <= asOfOrdinal;
  };
  const visible = input.evidence.filter((e) => shown(e.stepId));

  const nodes = new Map<string, { id: string; name: string; kind: string }>();
  for (const s of input.seeds) nodes.set(s.nodeId, { id: s.nodeId, name: s.name, kind: s.kind || kindOfNodeId(s.nodeId) });

  const edges = new Map<string, EdgeDraft & { evidenceIds: string[] }>();
  const evidenceByElement = new Map<string, string[]>();
  const note = (elementId: string, evidenceId: string) => {
    const list = evidenceByElement.get(elementId) ?? [];
    if (!list.includes(evidenceId)) list.push(evidenceId);
    evidenceByElement.set(elementId, list);
  };
  for (const e of visible) {
    for (const d of edgesOfEvidence(e)) {
      for (const n of [d.source, d.target]) if (!nodes.has(n.id)) nodes.set(n.id, n);
      const existing = edges.get(d.id);
      if (existing) {
        existing.selected ||= d.selected;
        existing.accepted ||= d.accepted;
        existing.evidenceIds.push(e.id);
      } else edges.set(d.id, { ...d, evidenceIds: [e.id] });
      note(d.id, e.id);
      note(d.source.id, e.id);
      note(d.target.id, e.id);
    }
  }

  const rejectedByElement = new Map<string, RejectedHypothesis>();
  for (const h of input.rejectedHypotheses ?? []) {
    if (!shown(h.stepId)) continue;
    const source = { id: h.sourceId, name: h.sourceName, kind: h.sourceKind || kindOfNodeId(h.sourceId) };
    const target = { id: h.targetId, name: h.targetName, kind: h.targetKind || kindOfNodeId(h.targetId) };
    for (const n of [source, target]) if (!nodes.has(n.id)) nodes.set(n.id, n);
    edges.set(h.id, {
      id: h.id,
      source,
      target,
      label: h.label,
      channel: 'kg',
      hypothesis: true,
      accepted: false,
      selected: false,
      evidenceId: '',
      evidenceIds: [],
    });
    rejectedByElement.set(h.id, h);
  }

  const channels = [...new Set([...edges.values()].map((e) => e.channel))];
  const bySource = channels.length > 1;
  const seeds = new Set(input.seeds.map((s) => s.nodeId));
  const answers = new Set(input.answerNodeIds);
  const distance = hopDistances([...seeds], [...edges.values()]);
  // Rings: seeds in the centre, then what the method selected (or hypothesised), then candidates by hop distance.
  const chosen = new Set([...edges.values()].filter((e) => e.selected || e.hypothesis).flatMap((e) => [e.source.id, e.target.id]));
  const rankOf = (id: string) => (seeds.has(id) ? 3 : chosen.has(id) || answers.has(id) ? 2 : (distance.get(id) ?? 9) <= 1 ? 1 : 0);

  const graphNodes: GraphNode[] = [...nodes.values()].map((n) => {
    const classes: NodeClass[] = [];
    if (seeds.has(n.id)) classes.push(NODE_CLASSES.seed);
    if (answers.has(n.id)) classes.push(NODE_CLASSES.answer);
    if (highlightId === n.id) classes.push(NODE_CLASSES.highlighted);
    return { id: n.id, label: n.name, title: `${n.name} (${n.kind})`, kind: n.kind, rank: rankOf(n.id), classes };
  });
  const graphEdges: GraphEdge[] = [...edges.values()].map((e) => {
    const classes: (EdgeClass | string)[] = [];
    if (e.hypothesis) classes.push(e.accepted ? EDGE_CLASSES.hypothesisAccepted : EDGE_CLASSES.hypothesisRejected);
    else classes.push(e.selected ? EDGE_CLASSES.selected : EDGE_CLASSES.candidate);
    if (bySource) classes.push(VIEW_CLASSES.bySource);
    if (highlightId === e.id) classes.push(EDGE_CLASSES.labelled);
    const status = e.hypothesis ? (e.accepted ? 'hypothesis, accepted' : 'hypothesis, rejected') : e.selected ? 'selected' : 'candidate';
    const title = `${e.source.name} — ${e.label || 'relates to'} → ${e.target.name} (${e.channel}, ${status})`;
    return { id: e.id, source: e.source.id, target: e.target.id, label: e.label, channel: e.channel, title, classes };
  });
  return {
    model: { nodes: graphNodes, edges: graphEdges },
    evidenceByElement,
    channels,
    hasHypotheses: [...edges.values()].some((e) => e.hypothesis),
    kgEdges: [...edges.values()].filter((e) => e.id.startsWith('kg:')).length,
    rejectedByElement,
  };
}

/** Undirected hop distance of every node from the nearest seed. */
function hopDistances(seeds: string[], edges: { source: { id: string }; target: { id: string } }[]): Map<string, number> {
  const adjacent = new Map<string, string[]>();
  const link = (a: string, b: string) => {
    const list = adjacent.get(a);
    if (list) list.push(b);
    else adjacent.set(a, [b]);
  };
  for (const e of edges) {
    link(e.source.id, e.target.id);
    link(e.target.id, e.source.id);
  }
  const distance = new Map<string, number>(seeds.map((s) => [s, 0]));
  let frontier = seeds;
  while (frontier.length) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const n of adjacent.get(id) ?? []) {
        if (distance.has(n)) continue;
        distance.set(n, distance.get(id)! + 1);
        next.push(n);
      }
    }
    frontier = next;
  }
  return distance;
}
