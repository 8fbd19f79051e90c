import { metaedgeInfo, sameKind } from '@/lib/llm/offline/metaedges';
import type { TripleData } from '@/lib/trace/types';
import { locatedHops, type Plan, type PlanHop, type Source } from './plan';
import { nameList } from '@/lib/llm/templates/names';
import { onePerNode } from '@/lib/base/distinct';

/**
 * Evidence units: the one currency cross-verification scores. A KG unit is a
 * typed path (one metapath between the same topic entities) with every
 * retrieved instance of it, so set answers (shared neighbours, counts) survive
 * selection whole; a text unit is one document or web span converted to
 * normalised entities and a predicate. Text units are claims of the text, never
 * KG facts.
 */

export interface UnitEntity {
  nodeId: string;
  name: string;
  kind: string;
  /** Text units: the entity as the span writes it (an alias shows up here). */
  mention?: string;
}

/** One retrieved KG path: its evidence record and its edges, walked from the first node. */
export interface UnitPath {
  id: string;
  nodes: UnitEntity[];
  triples: TripleData[];
  metapath: string;
}

export interface Unit {
  /** Evidence record id for text units; "kg:<metapath>:<start>[:<end>]" for KG units (lib/trace/ids.ts: no space, `|`, `@` or `→`). */
  id: string;
  source: Source;
  /** Round that first retrieved it. */
  round: number;
  /** Text units: the span's stable reference, so a span retrieved again is not converted twice. */
  ref: string | null;
  /** What the scorer compares with the question and with other units. */
  text: string;
  entities: UnitEntity[];
  /** KG: the metapath; text: the relation phrase. */
  predicate: string | null;
  relations: string[];
  /** Plan hops the unit bears on. */
  hops: string[];
  /** The original span (text units). */
  span: { start: number; end: number; text: string } | null;
  /** Evidence records behind the unit: KG path records, or the passage/web record the span is in. */
  provenance: string[];
  negated: boolean;
  /** KG units: the instances. */
  paths: UnitPath[];
  /** KG units: best path rank score and whether an instance fits the operator completely. */
  pathScore: number | null;
  operatorConsistent: boolean;
}

/** One step of a path, oriented from the walk's start. */
export interface PathStep {
  from: UnitEntity;
  to: UnitEntity;
  metaedge: string;
}

export function stepsOf(path: UnitPath): PathStep[] {
  return path.triples.map((t, i) => ({ from: path.nodes[i], to: path.nodes[i + 1], metaedge: t.metaedge }));
}

/**
 * Whether a step walks the hop: one of the metaedges, from the hop's kind to
 * its target kind. Kinds fix the stored direction of every Hetionet metaedge
 * except the same-kind ones, which the kit reads either way round.
 */
export function stepFits(step: PathStep, hop: PlanHop, metaedges: string[] = hop.metaedges): boolean {
  return metaedges.includes(step.metaedge) && sameKind(step.from.kind, hop.fromKind) && sameKind(step.to.kind, hop.toKind);
}

/** Hops of the plan a KG unit's instances walk (any step, either direction along the walk). */
export function kgHops(plan: Plan, paths: UnitPath[]): string[] {
  const steps = paths.map(stepsOf);
  const walked = locatedHops(plan).filter(({ hop }) => steps.some((path) => path.some((s) => stepFits(s, hop) || stepFits(reverse(s), hop))));
  return [...new Set(walked.map(({ hop }) => hop.id))];
}

export function reverse(step: PathStep): PathStep {
  return { from: step.to, to: step.from, metaedge: step.metaedge };
}

/** Hops of the plan a text unit bears on: a predicate that fits the hop, between mentioned entities of the hop's kinds. */
export function textHops(plan: Plan, entities: UnitEntity[], relations: string[]): string[] {
  const kinds = (k: string) => entities.some((e) => sameKind(e.kind, k));
  return locatedHops(plan)
    .filter(({ hop }) => relations.some((m) => hop.metaedges.includes(m)) && kinds(hop.fromKind) && kinds(hop.toKind))
    .map(({ hop }) => hop.id);
}

/**
 * UpdateEvidenceMemory: new units join the memory; a KG unit already there
 * (same metapath between the same topic entities) gains the new instances.
 */
export function mergeUnits(memory: Unit[], incoming: Unit[]): Unit[] {
  const byId = new Map(memory.map((u) => [u.id, u]));
  for (const u of incoming) {
    const existing = byId.get(u.id);
    if (!existing) {
      byId.set(u.id, u);
      continue;
    }
    const signature = (p: UnitPath) => p.triples.map((t) => t.edgeId).join('-');
    const known = new Set(existing.paths.map(signature));
    const paths = [...existing.paths, ...u.paths.filter((p) => !known.has(signature(p)))];
    byId.set(u.id, {
      ...existing,
      text: u.paths.length ? patternText(paths) : existing.text,
      entities: onePerNode([...existing.entities, ...u.entities]),
      relations: [...new Set([...existing.relations, ...u.relations])],
      hops: [...new Set([...existing.hops, ...u.hops])],
      provenance: paths.map((p) => p.id),
      paths,
      pathScore: Math.max(existing.pathScore ?? 0, u.pathScore ?? 0),
      operatorConsistent: existing.operatorConsistent || u.operatorConsistent,
    });
  }
  return [...byId.values()];
}

/**
 * "multiple sclerosis –associates→ {TNF, IL6} ←associates– Crohn's disease": each step in its metaedge's direction
 * ("Hypocapnia ←presents– {panic disorder; asthma}": the diseases present the symptom), plain "–resembles–" where the
 * direction means nothing or the paths differ on it.
 */
export function patternText(paths: UnitPath[]): string {
  const first = paths[0];
  const parts: string[] = [];
  for (let i = 0; i < first.nodes.length; i++) {
    const names = [...new Set(paths.map((p) => p.nodes[i].name))];
    parts.push(names.length === 1 ? names[0] : `{${nameList(names)}}`);
    if (i >= first.triples.length) continue;
    const forward = new Set(paths.map((p) => p.triples[i].sourceId === p.nodes[i].nodeId));
    const { verb, metaedge, sourceKind, targetKind } = first.triples[i];
    const either = sameKind(sourceKind, targetKind) && !metaedgeInfo(metaedge)?.directed;
    parts.push(forward.size > 1 || either ? ` –${verb}– ` : forward.has(true) ? ` –${verb}→ ` : ` ←${verb}– `);
  }
  return parts.join('');
}
