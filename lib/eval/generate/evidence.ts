import { entityMentions, searchAliases, surfaceQuery } from '@/lib/channels/doc-relevance';
import type { WebRecord } from '@/lib/channels/types';
import { corpusPassages, profilesOf, type PassageHit, type ProfileRow } from '@/lib/eval/store/generation';
import type { CandidateEntity } from '@/lib/llm/offline/passages';
import { QuestionEvidenceSchema, type EvidenceSource, type GoldGraph, type QuestionEvidence } from './types';

/**
 * BioMedHop's source-conditioned evidence (bioweave-biomedhop.txt §3, Algorithm 1:
 * BuildHopQueries → RetrieveMultiDoc / SearchWeb → ComposeSourceEvidence). Per
 * question, each hop of the gold graph is searched for in the text sources of
 * its condition:
 *   - doc: corpus passages that name both ends of the hop (name or alias) state it;
 *     passages naming one entity the question names come along as context, as a
 *     retriever would return them;
 *   - web: the data directory holds no web crawl, so the recorded web bundle is
 *     built from its reference records (Disease Ontology definitions, NCBI Gene
 *     summaries, as their public pages state them): a record of one end of a hop
 *     that names the other end states it; the named entities' records are context.
 * The coverage check says which hops each bundle states. Runs serve exactly the
 * bundle of the condition (docBundle / webBundle); the gold graph is read here,
 * at generation, never at answer time.
 */

/** 'label': keep every question, its coverage labelled; 'require': redraw a question whose condition a text source cannot cover. */
export const COVERAGE_POLICIES = ['label', 'require'] as const;
export type CoveragePolicy = (typeof COVERAGE_POLICIES)[number];

/** Passages (and web records) kept per hop that state it, and per named entity as context. */
const STATING_PER_HOP = 2;
const CONTEXT_PER_ENTITY = 2;
/** Passages the full-text search returns per hop or entity before mentions are checked. */
const SEARCH_LIMIT = 12;
/** A web record's snippet is clipped to this (the run API's limit is 5,000). */
const SNIPPET_MAX = 1500;

export const BUILT_FROM = {
  doc: 'corpus passages (full-text search, then a name-or-alias mention check of both ends of the hop)',
  web: "recorded bundle built from the data directory's reference records (Disease Ontology, NCBI Gene); not a live web search",
} as const;

interface Endpoint extends CandidateEntity {
  role: GoldGraph['nodes'][number]['role'];
}

/** The question's evidence under `condition`; null for a KG-only condition (nothing beyond the KG to expose). */
export async function buildEvidence(gold: GoldGraph, condition: readonly EvidenceSource[]): Promise<QuestionEvidence> {
  const text = condition.filter((s): s is 'doc' | 'web' => s !== 'kg');
  const aliases = text.length ? await searchAliases(gold.nodes.map((n) => n.id)) : new Map<string, string[]>();
  const nodes = new Map<string, Endpoint>(
    gold.nodes.map((n) => [n.id, { nodeId: n.id, name: n.name, kind: n.kind, aliases: aliases.get(n.id) ?? [], role: n.role }]),
  );
  const named = [...nodes.values()].filter((n) => n.role === 'anchor' || n.role === 'clue' || n.role === 'endpoint');
  const doc = text.includes('doc') ? await docBundle(gold, nodes, named) : null;
  const web = text.includes('web') ? await webBundle(gold, nodes, named) : null;
  const hops = gold.edges.map((e) => e.id);
  const stated = (items: { states: number[] }[] | undefined) => (items ? [...new Set(items.flatMap((i) => i.states))].sort((a, b) => a - b) : null);
  const coverage = { hops, doc: stated(doc?.passages), web: stated(web?.records) };
  return { condition: [...condition], doc, web, coverage: { ...coverage, ...statusOf(coverage) } };
}

function statusOf(c: { hops: number[]; doc: number[] | null; web: number[] | null }): Pick<QuestionEvidence['coverage'], 'status' | 'reason'> {
  const sources = (['doc', 'web'] as const).filter((s) => c[s] !== null);
  if (!sources.length) return { status: 'kg-only', reason: null };
  const empty = sources.filter((s) => !c[s]!.length);
  if (empty.length)
    return { status: 'uncovered', reason: empty.map((s) => (s === 'doc' ? 'no corpus passage states a hop' : 'no web record states a hop')).join('; ') };
  const union = new Set(sources.flatMap((s) => c[s]!));
  return union.size === c.hops.length
    ? { status: 'full', reason: null }
    : { status: 'partial', reason: `${c.hops.length - union.size} of ${c.hops.length} hops stated by no text source` };
}

const surfaces = (e: CandidateEntity) => surfaceQuery([e.name, ...(e.aliases ?? [])]);
const names = (text: string, e: CandidateEntity) => entityMentions(text, [e]).length > 0;

async function docBundle(gold: GoldGraph, nodes: Map<string, Endpoint>, named: Endpoint[]): Promise<NonNullable<QuestionEvidence['doc']>> {
  const kept = new Map<string, { hit: PassageHit; states: number[] }>();
  for (const edge of gold.edges) {
    const [a, b] = [nodes.get(edge.sourceId)!, nodes.get(edge.targetId)!];
    const [qa, qb] = [surfaces(a), surfaces(b)];
    if (!qa || !qb) continue;
    const rows = await corpusPassages(`(${qa}) & (${qb})`, SEARCH_LIMIT);
    for (const hit of rows.filter((r) => names(r.text, a) && names(r.text, b)).slice(0, STATING_PER_HOP)) {
      const entry = kept.get(hit.id) ?? { hit, states: [] };
      entry.states.push(edge.id);
      kept.set(hit.id, entry);
    }
  }
  for (const entity of named) {
    const q = surfaces(entity);
    if (!q) continue;
    const rows = await corpusPassages(q, SEARCH_LIMIT);
    for (const hit of rows.filter((r) => !kept.has(r.id) && names(r.text, entity)).slice(0, CONTEXT_PER_ENTITY)) kept.set(hit.id, { hit, states: [] });
  }
  return { passages: [...kept.values()].map(({ hit, states }) => ({ passageId: hit.id, documentId: hit.document_id, externalId: hit.external_id, states })) };
}

async function webBundle(gold: GoldGraph, nodes: Map<string, Endpoint>, named: Endpoint[]): Promise<NonNullable<QuestionEvidence['web']>> {
  const rows = await profilesOf(gold.nodes.map((n) => n.id));
  const records = new Map<number, { row: ProfileRow; states: number[] }>();
  for (const edge of gold.edges) {
    const pairs: [string, Endpoint][] = [
      [edge.sourceId, nodes.get(edge.targetId)!],
      [edge.targetId, nodes.get(edge.sourceId)!],
    ];
    const stating = pairs.flatMap(([of, other]) => rows.filter((r) => r.node_id === of && names(r.text, other)));
    for (const row of stating.slice(0, STATING_PER_HOP)) {
      const entry = records.get(row.id) ?? { row, states: [] };
      if (!entry.states.includes(edge.id)) entry.states.push(edge.id);
      records.set(row.id, entry);
    }
  }
  for (const entity of named) {
    for (const row of rows.filter((r) => r.node_id === entity.nodeId && !records.has(r.id)).slice(0, CONTEXT_PER_ENTITY))
      records.set(row.id, { row, states: [] });
  }
  return { records: [...records.values()].map(({ row, states }) => ({ ...webRecordOf(row, nodes.get(row.node_id)!), states })) };
}

/** A reference record as a web result: the page of the node's id at its source, titled by the node. */
function webRecordOf(row: ProfileRow, node: Endpoint): WebRecord {
  const local = row.node_id.split('::')[1] ?? row.node_id;
  const site =
    row.source === 'disease-ontology'
      ? { label: 'Disease Ontology', url: `https://disease-ontology.org/?id=${encodeURIComponent(local)}` }
      : row.source === 'ncbi-gene'
        ? { label: 'NCBI Gene', url: `https://www.ncbi.nlm.nih.gov/gene/${encodeURIComponent(local)}` }
        : { label: row.source, url: undefined };
  const snippet = row.text.length > SNIPPET_MAX ? `${row.text.slice(0, SNIPPET_MAX - 1)}…` : row.text;
  return { id: `${row.source}:${local}`, title: `${node.name} — ${site.label}`, snippet, ...(site.url ? { url: site.url } : {}) };
}

/**
 * What a run of the question is served: the doc bundle's passage ids and the web
 * bundle's records under its condition (a source outside the condition serves
 * nothing). Without an evidence record (imported sets) the corpus is searched
 * whole and the web has no bundle. Coverage and hop labels stay behind.
 */
export function runBundles(evidence: unknown): { docBundle: string[] | null; webBundle: WebRecord[] } {
  const parsed = QuestionEvidenceSchema.safeParse(evidence);
  if (!parsed.success) return { docBundle: null, webBundle: [] };
  const { doc, web } = parsed.data;
  return {
    docBundle: doc ? doc.passages.map((p) => p.passageId) : [],
    webBundle: web ? web.records.map(({ id, url, title, snippet }) => ({ id, title, snippet, ...(url ? { url } : {}) })) : [],
  };
}

/** The generator's report: coverage over the kept questions, rejections by reason. */
export interface EvidenceReport {
  condition: EvidenceSource[];
  policy: CoveragePolicy;
  builtFrom: Partial<typeof BUILT_FROM>;
  questions: number;
  status: Record<QuestionEvidence['coverage']['status'], number>;
  /** Per text source: questions whose bundle states at least one hop, and hops stated of all hops. */
  doc: { questionsCovered: number; hopsStated: number; hops: number; passages: number } | null;
  web: { questionsCovered: number; hopsStated: number; hops: number; records: number } | null;
  /** Draws rejected by the coverage check ('require'), by reason. */
  rejected: Record<string, number>;
}

export function evidenceReport(
  condition: EvidenceSource[],
  policy: CoveragePolicy,
  kept: QuestionEvidence[],
  rejected: Record<string, number>,
): EvidenceReport {
  const status = { full: 0, partial: 0, uncovered: 0, 'kg-only': 0 };
  for (const e of kept) status[e.coverage.status]++;
  const hops = kept.reduce((n, e) => n + e.coverage.hops.length, 0);
  const per = (source: 'doc' | 'web') => {
    if (!condition.includes(source)) return null;
    const stated = kept.map((e) => e.coverage[source] ?? []);
    return { questionsCovered: stated.filter((s) => s.length).length, hopsStated: stated.reduce((n, s) => n + s.length, 0), hops };
  };
  const doc = per('doc');
  const web = per('web');
  return {
    condition,
    policy,
    builtFrom: Object.fromEntries(condition.flatMap((s) => (s === 'kg' ? [] : [[s, BUILT_FROM[s]]]))),
    questions: kept.length,
    status,
    doc: doc && { ...doc, passages: kept.reduce((n, e) => n + (e.doc?.passages.length ?? 0), 0) },
    web: web && { ...web, records: kept.reduce((n, e) => n + (e.web?.records.length ?? 0), 0) },
    rejected,
  };
}
