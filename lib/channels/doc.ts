import { cachedRead } from '@/lib/db/cached-read';
import { passageSearches, passagesOf, type Passage, type PassageScope, type PassageSearch } from '@/lib/corpus/store';
import { linkEntities } from '@/lib/kg';
import type { CandidateEntity } from '@/lib/llm/offline/passages';
import type { EvidenceInput, EvidenceRecord, StepHandle } from '@/lib/trace/types';
import { calibratedCorpus, calibration, MIN_ALIAS, queryTerms, relevanceOf, searchAliases, surfaceQuery, type Calibration } from './doc-relevance';
import type { ChannelAnswer, ChannelDeps, Parent } from './types';
import { factKey } from './citations';
import { lookupsOf } from './lookups';
import { nameList } from '@/lib/llm/templates/names';
import { onePerNode } from '@/lib/base/distinct';

/** How a search ended, recorded as the step's output: passages, or "no relevant document" with why. */
export interface DocSearchResult {
  result: 'relevant passages' | 'no relevant document';
  /** The question's and query's linked entities a passage had to mention. */
  entities: string[];
  /**
   * Which relevance rule applied: `entity` (a passage must name a linked entity), or, when neither the question nor
   * the query links one, `question words` (a passage's coverage of the question's own content words must clear the
   * calibrated threshold).
   */
  rule: { kind: 'entity' | 'question words'; why: string };
  calibration: Calibration;
  /** Shown to the method: each mentions a question entity. */
  passages: EvidenceRecord[];
  /** Cleared the threshold but share no entity with the question: kept in the trace, never shown or selected. */
  withheld: EvidenceRecord[];
}

/** A candidate passage with its scores (and, for the entity rule, the entities it shares with the question). */
type Scored = { row: Passage; scores: Record<string, number>; sharedEntities?: string[] };

/** What a search finds before it records anything. */
type Found =
  | { rule: 'question words'; calib: Calibration; admitted: Scored[] }
  | { rule: 'entity'; calib: Calibration; entities: CandidateEntity[]; shown: (Scored & { sharedEntities: string[] })[]; withheld: Scored[] };

const ENTITY_RULE = 'a passage is shown when it names an entity linked in the question or the query';

const CANDIDATES = 60;

/**
 * The document channel: the question's attached documents and full-text retrieval
 * over the corpus (PostgreSQL FTS). Retrieval is relevant or silent: a passage is
 * shown only when it mentions an entity linked in the question or the query (by
 * name or alias); one that only clears the corpus-calibrated score threshold is
 * recorded but withheld, and "no relevant document" is a recorded result. Off,
 * no document text reaches any prompt or rule.
 */
export class DocChannel {
  /** Links per text (the question's, each query's), so repeated searches link once. */
  private readonly linked = new Map<string, Promise<CandidateEntity[]>>();
  /** The corpus calibration, read once per run (a run searches one corpus). */
  private calibrated: Promise<Calibration> | null = null;
  /** Candidate passages per full-text query, so the same search asked again in a run (EIGEN-1's parallel proposers) reads the corpus once. */
  private readonly candidates = new Map<string, Promise<Passage[]>>();
  /** What each search (query and k) finds, so a read ahead and the search share one read. */
  private readonly finds = new Map<string, Promise<Found>>();
  /** Candidate searches asked for since the last statement went out: sent together (`sendSearches`). */
  private waiting: { search: PassageSearch; resolve: (rows: Passage[]) => void; reject: (e: unknown) => void }[] = [];

  constructor(private readonly deps: ChannelDeps) {}

  get enabled() {
    return this.deps.switches.doc;
  }

  /** Every passage of the documents attached to the question: the question's own context. */
  async attached(parent: Parent): Promise<ChannelAnswer> {
    const ids = this.deps.documentIds;
    const { trace } = this.deps;
    const label = 'Attached documents';
    if (!this.enabled) return this.off(parent, label, { documentIds: ids });
    const items = await trace.step({ kind: 'channel.doc', label, input: { documentIds: ids }, parent }, async (step) => {
      if (!ids.length) return [];
      const rows = await passagesOf(ids);
      return trace.addEvidence(
        step,
        rows.map((r) => passageEvidence(r, {}, { relevance: 'attached' })),
      );
    });
    return { enabled: true, items };
  }

  /**
   * Full-text search for passages about the question: candidates are passages
   * naming an entity of the question or query; the best `k` by rank against the
   * query's words are shown. Passages that only clear the threshold are withheld.
   * The question's attached documents are read by `attached`, not searched again.
   */
  async search(parent: Parent, query: string, k = 5): Promise<ChannelAnswer> {
    const { trace } = this.deps;
    const label = 'Document search';
    const bundle = this.deps.docBundle;
    // A question's bundle is what this search may serve: its size is part of the step's input.
    const input = bundle ? { query, k, bundle: `the question's document bundle (${bundle.length} passages)` } : { query, k };
    if (!this.enabled) return this.off(parent, label, input);
    const output = await trace.step({ kind: 'channel.doc', label, input, parent }, async (step): Promise<DocSearchResult> => {
      const found = await this.found(query, k);
      if (found.rule === 'question words') return this.recordQuestionWords(step, found.admitted, found.calib);
      const passages = await trace.addEvidence(
        step,
        found.shown.map((r) => passageEvidence(r.row, r.scores, { relevance: 'entity', sharedEntities: r.sharedEntities })),
      );
      const withheld = await trace.addEvidence(
        step,
        found.withheld.map((r) => passageEvidence(r.row, r.scores, { relevance: 'score', sharedEntities: [] })),
      );
      return {
        result: passages.length ? 'relevant passages' : 'no relevant document',
        entities: found.entities.map((e) => e.name),
        rule: { kind: 'entity', why: ENTITY_RULE },
        calibration: found.calib,
        passages,
        withheld,
      };
    });
    const within = bundle ? " of the question's document bundle" : '';
    const missed =
      output.rule.kind === 'question words'
        ? `covers enough of the question's own words (no entity was linked; threshold ${output.calibration.threshold ?? 'none'})`
        : `mentions ${nameList(output.entities)}`;
    const note = output.result === 'no relevant document' ? `no relevant document: no passage${within} ${missed}` : undefined;
    return { enabled: true, items: output.passages, note };
  }

  /**
   * Reads what `search(query, k)` will show, recording nothing: a method that knows its queries before it searches
   * overlaps these reads (links, calibration, candidate rows) with its other work, and each search, still made in
   * its order, then finds its rows read. A read that failed here is read again by its search.
   */
  async readAhead(queries: string[], k = 5): Promise<void> {
    if (!this.enabled) return;
    // Links first (a question asked for the first time may read them, each when it reads): then every search reaches
    // its candidate reads in the same turn, and they go out as one statement.
    await Promise.all([...queries.map((query) => this.entitiesFor(query)), (this.calibrated ??= calibration())]).catch(() => undefined);
    await Promise.all(queries.map((query) => this.found(query, k).catch(() => undefined)));
  }

  /** What a search finds, read once per run and search (by `readAhead` or the search itself). */
  private found(query: string, k: number): Promise<Found> {
    return cachedRead(this.finds, JSON.stringify([query, k]), () => this.find(query, k));
  }

  private async find(query: string, k: number): Promise<Found> {
    const [entities, calib] = await Promise.all([this.entitiesFor(query), (this.calibrated ??= calibration())]);
    if (!entities.length) return { rule: 'question words', calib, admitted: await this.byQuestionWords(query, k, calib) };
    // The two candidate searches are independent reads: both go out together.
    const [shown, scored] = await Promise.all([this.byEntity(query, entities, k), this.byScore(query, entities, calib)]);
    const seen = new Set(shown.map((r) => r.row.id));
    return { rule: 'entity', calib, entities, shown, withheld: scored.filter((r) => !seen.has(r.row.id)) };
  }

  /**
   * With no linked entity to require, relevance falls back to the question's own content words: a passage is shown
   * when its coverage of them clears the corpus-calibrated threshold (the best k by coverage, then rank).
   */
  private async byQuestionWords(query: string, k: number, calib: Calibration) {
    const words = this.deps.question?.text.trim() || query;
    return (await this.byScore(words, [], calib)).sort((a, b) => b.scores.coverage - a.scores.coverage || b.scores.rank - a.scores.rank).slice(0, k);
  }

  private async recordQuestionWords(step: StepHandle, admitted: Scored[], calib: Calibration): Promise<DocSearchResult> {
    const passages = await this.deps.trace.addEvidence(
      step,
      admitted.map((r) => passageEvidence(r.row, r.scores, { relevance: 'words', sharedEntities: [] })),
    );
    const bar = Number.isFinite(calib.threshold)
      ? `at least ${calib.threshold} of the question's content words (the corpus-calibrated threshold)`
      : `enough of the question's content words, and none can: ${calib.method}`;
    const why = `neither the question nor the query links a KG entity: a passage is shown when it covers ${bar}`;
    return {
      result: passages.length ? 'relevant passages' : 'no relevant document',
      entities: [],
      rule: { kind: 'question words', why },
      calibration: calib,
      passages,
      withheld: [],
    };
  }

  private async off(parent: Parent, label: string, input: unknown): Promise<ChannelAnswer> {
    await this.deps.trace.skipped({ kind: 'channel.doc', label, input, parent }, 'doc switch is off: no document text reaches any prompt or rule');
    return { enabled: false, items: [], note: 'doc switch is off' };
  }

  /** Entities linked in the question and in the query, with their aliases (names only when the entity switch is off). */
  private async entitiesFor(query: string): Promise<CandidateEntity[]> {
    const [question, own] = await Promise.all([this.link(this.deps.question?.text ?? ''), this.link(query)]);
    return onePerNode([...question, ...own]);
  }

  private link(text: string): Promise<CandidateEntity[]> {
    return cachedRead(this.linked, text, () => this.linkNow(text));
  }

  private async linkNow(text: string): Promise<CandidateEntity[]> {
    if (!text.trim()) return [];
    const aliases = this.deps.switches.entity;
    const links = await linkEntities(text, { aliases, fuzzy: false, lookups: this.deps.lookups });
    const nodes = onePerNode(links);
    if (!nodes.length) return [];
    const lookups = lookupsOf(this.deps);
    const byNode = aliases
      ? await lookups.byNode(
          'search aliases',
          nodes.map((n) => n.nodeId),
          (ids) => searchAliases(ids, lookups.heldNames()),
        )
      : new Map<string, string[]>();
    // The words as the text wrote them count too ("lilrb2"), unless short: "MS" in prose is rarely methionine synthase.
    const written = (id: string) =>
      links
        .filter((l) => l.nodeId === id)
        .flatMap((l) => [l.mention, l.matched])
        .filter((w) => w.trim().length >= MIN_ALIAS);
    return nodes.map((n) => ({
      nodeId: n.nodeId,
      name: n.name,
      kind: n.kind as CandidateEntity['kind'],
      aliases: [...new Set([...(byNode.get(n.nodeId) ?? []), ...written(n.nodeId)])],
    }));
  }

  /** Passages naming an entity, ranked by how many entities they name, then by full-text rank against the query. */
  private async byEntity(query: string, entities: CandidateEntity[], k: number) {
    const surfaces = surfaceQuery(entities.flatMap((e) => [e.name, ...(e.aliases ?? [])]));
    if (!surfaces) return [];
    const terms = queryTerms(query);
    const rankBy = terms.length ? terms.join(' | ') : surfaces;
    const rows = await this.candidateRows({ match: surfaces, rankBy });
    return rows
      .map((row) => {
        const rel = relevanceOf(row.text, query, entities);
        return {
          row,
          sharedEntities: rel.sharedEntities,
          scores: { rank: Number(row.rank ?? 0), coverage: round(rel.coverage), entities: rel.sharedEntities.length },
        };
      })
      .filter((r) => r.sharedEntities.length > 0)
      .sort((a, b) => b.scores.entities - a.scores.entities || b.scores.rank - a.scores.rank)
      .filter(firstOfItsWording())
      .slice(0, k);
  }

  /**
   * The rows of a candidate search, read once per run and search; outside the question's attached documents, within
   * its bundle when it has one. Across runs, the process's lookups keep a search's rows for the corpus as last checked
   * (its signature, as the calibration sees it): a rerun, another method or configuration of the same question
   * searches the same queries, and a question asked for the first time reads them (./lookups).
   */
  private candidateRows(search: PassageSearch): Promise<Passage[]> {
    const key = JSON.stringify([search.match, search.rankBy]);
    return cachedRead(this.candidates, key, async () => {
      const { signature } = await calibratedCorpus();
      const found = await lookupsOf(this.deps).derived('passage search', JSON.stringify([signature, key, this.scope()]), async () =>
        keptRows(signature, await this.read(search)),
      );
      return found.map(([row, rank]) => ({ ...row, rank }));
    });
  }

  private scope(): PassageScope {
    return { limit: CANDIDATES, exclude: this.deps.documentIds, within: this.deps.docBundle ?? null, owner: this.deps.documentOwner ?? null };
  }

  /** A search's rows, read with every other search asked for in the same turn (a read ahead's two per query) in one statement. */
  private read(search: PassageSearch): Promise<Passage[]> {
    if (!this.waiting.length) process.nextTick(() => this.sendSearches());
    return new Promise((resolve, reject) => this.waiting.push({ search, resolve, reject }));
  }

  private sendSearches(): void {
    const sent = this.waiting;
    this.waiting = [];
    passageSearches(
      sent.map((w) => w.search),
      this.scope(),
    ).then(
      (found) => sent.forEach((w, i) => w.resolve(found[i])),
      (e: unknown) => sent.forEach((w) => w.reject(e)),
    );
  }

  /** Passages whose query-word coverage clears the calibrated threshold but that name no entity of the question. */
  private async byScore(query: string, entities: CandidateEntity[], calib: Calibration) {
    const terms = queryTerms(query);
    if (!terms.length || !Number.isFinite(calib.threshold)) return [];
    const words = terms.join(' | ');
    const rows = await this.candidateRows({ match: words, rankBy: words });
    return rows
      .map((row) => ({ row, rel: relevanceOf(row.text, query, entities) }))
      .filter((r) => !r.rel.sharedEntities.length && r.rel.coverage >= calib.threshold)
      .filter(firstOfItsWording())
      .map((r) => ({ row: r.row, scores: { rank: Number(r.row.rank ?? 0), coverage: round(r.rel.coverage), threshold: calib.threshold } }));
  }
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** A kept search: each passage once per corpus (searches share its row; kept rows are never changed), with its rank in this search. */
type KeptRows = [Omit<Passage, 'rank'>, number | undefined][];
let passagesKept: { signature: string; byId: Map<string, Omit<Passage, 'rank'>> } | null = null;

function keptRows(signature: string, rows: Passage[]): KeptRows {
  if (passagesKept?.signature !== signature) passagesKept = { signature, byId: new Map() };
  const { byId } = passagesKept;
  return rows.map(({ rank, ...row }) => {
    let kept = byId.get(row.id);
    if (!kept) byId.set(row.id, (kept = row));
    return [kept, rank];
  });
}

/** Keeps the best-ranked of passages that read the same (one text stored in two documents is one fact, and k means k distinct passages). */
function firstOfItsWording(): (r: { row: Passage }) => boolean {
  const seen = new Set<string>();
  return ({ row }) => {
    const key = factKey({ channel: 'doc', kind: 'passage', ref: '', text: row.text });
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
}

function passageEvidence(
  r: Passage,
  scores: Record<string, number>,
  relevance: { relevance: 'attached' | 'entity' | 'words' | 'score'; sharedEntities?: string[] },
): EvidenceInput {
  return {
    channel: 'doc',
    kind: 'passage',
    ref: `passage:${r.id}:${r.start}-${r.end}`,
    text: r.label ? `[${r.label}] ${r.text}` : r.text,
    data: {
      passageId: r.id,
      documentId: r.documentId,
      ordinal: r.ordinal,
      start: r.start,
      end: r.end,
      title: r.title,
      source: r.source,
      externalId: r.externalId,
      ...relevance,
    },
    scores,
  };
}
