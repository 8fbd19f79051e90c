import { getPool } from '@/lib/db/client';
import type { EvidenceInput } from '@/lib/trace/types';
import type { ChannelAnswer, ChannelDeps, Parent } from './types';

interface PassageRow {
  id: string;
  document_id: string;
  ordinal: number;
  start: number;
  end: number;
  label: string | null;
  text: string;
  title: string | null;
  source: string;
  external_id: string | null;
  rank?: number;
}

const PASSAGE_COLUMNS = `p.id, p.document_id, p.ordinal, p.start, p."end", p.label, p.text, d.title, d.source, d.external_id`;

/**
 * The document channel: the question's attached documents and full-text retrieval
 * over the corpus (PostgreSQL FTS). Off, no document text reaches any prompt or rule.
 */
export class DocChannel {
  constructor(private readonly deps: ChannelDeps) {}

  get enabled() {
    return this.deps.switches.doc;
  }

  /** Every passage of the documents attached to the question. */
  async attached(parent: Parent): Promise<ChannelAnswer> {
    const ids = this.deps.documentIds;
    return this.retrieve(parent, 'Attached documents', { documentIds: ids }, async () => {
      if (!ids.length) return [];
      const { rows } = await getPool().query<PassageRow>(
        `select ${PASSAGE_COLUMNS} from passages p join documents d on d.id = p.document_id
          where p.document_id = any($1) order by p.document_id, p.ordinal`,
        [ids],
      );
      return rows.map((r) => passageEvidence(r, {}));
    });
  }

  /** Full-text search over the corpus: any of the query's terms, ranked by ts_rank_cd. */
  async search(parent: Parent, query: string, k = 5): Promise<ChannelAnswer> {
    return this.retrieve(parent, 'Document search', { query, k }, async () => {
      const terms = queryTerms(query);
      if (!terms.length) return [];
      const { rows } = await getPool().query<PassageRow>(
        `select ${PASSAGE_COLUMNS}, ts_rank_cd(p.tsv, q) as rank
           from passages p join documents d on d.id = p.document_id,
                to_tsquery('english', $1) q
          where p.tsv @@ q
          order by rank desc, p.id limit $2`,
        [terms.join(' | '), k],
      );
      return rows.map((r) => passageEvidence(r, { rank: Number(r.rank ?? 0) }));
    });
  }

  private async retrieve(parent: Parent, label: string, input: unknown, fetch: () => Promise<EvidenceInput[]>): Promise<ChannelAnswer> {
    const { trace } = this.deps;
    if (!this.enabled) {
      await trace.skipped({ kind: 'channel.doc', label, input, parent }, 'doc switch is off: no document text reaches any prompt or rule');
      return { enabled: false, items: [], note: 'doc switch is off' };
    }
    const items = await trace.step({ kind: 'channel.doc', label, input, parent }, async (step) => trace.addEvidence(step, await fetch()));
    return { enabled: true, items };
  }
}

/** Words safe for to_tsquery: letters and digits only, so user text can never inject tsquery syntax. */
export function queryTerms(query: string): string[] {
  const words = query.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  return [...new Set(words.filter((w) => w.length > 2))].slice(0, 32);
}

function passageEvidence(r: PassageRow, scores: Record<string, number>): EvidenceInput {
  return {
    channel: 'doc',
    kind: 'passage',
    ref: `passage:${r.id}:${r.start}-${r.end}`,
    text: r.label ? `[${r.label}] ${r.text}` : r.text,
    data: { passageId: r.id, documentId: r.document_id, ordinal: r.ordinal, start: r.start, end: r.end, title: r.title, source: r.source, externalId: r.external_id },
    scores,
  };
}
