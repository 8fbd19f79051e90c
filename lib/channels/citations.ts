import type { ChannelName, EvidenceInput, EvidenceRecord } from '@/lib/trace/types';

/**
 * Citation ids a model can copy: one short ASCII id per distinct fact of a run
 * (K3 a KG triple, D2 a passage, E1 an entity profile, W1 a web record,
 * P4 a recalled claim, which is unverified memory), the same id every time the
 * fact is shown, in any unit or iteration.
 *
 * Evidence records keep their database ids; methods and offline rules work with
 * those. The model client rewrites record ids into citation ids in the prompt it
 * sends and maps the ids a model cites back to records (`resolve`), so no method
 * has to translate. Ids are assigned in evidence order, a pure function of the
 * run's records: a resumed run, or a view of the trace, derives the same ids.
 */

export const CITE_PREFIX: Record<ChannelName, string> = { kg: 'K', doc: 'D', entity: 'E', web: 'W', param: 'P', aids: 'A' };

const RECORD_ID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;
/** Output fields that carry evidence ids (evidenceIds, usedIds, id): answers named "E2" stay answers. */
const ID_FIELD = /(?:^ids?|Ids?|^evidence|^cite[ds]?)$/;
const CITE = /^\[?\s*([KDEWPA][1-9][0-9]*)\s*\]?$/;

/**
 * What makes two records the same fact: the KG edge (or path); for text, its
 * channel and wording (a passage stored twice, a snippet on two pages, a span
 * and its unit read the same to a model, so they share one id and a prompt
 * shows them once); an entity's profile by its node.
 */
export function factKey(r: Pick<EvidenceInput, 'channel' | 'kind' | 'ref' | 'text'>): string {
  if (r.channel === 'kg') return r.ref;
  const words = r.text.toLowerCase().replace(/\s+/g, ' ').trim();
  return r.channel === 'entity' ? `entity:${r.ref}:${words}` : `${r.channel}:${words}`;
}

type Citable = Pick<EvidenceRecord, 'id' | 'channel' | 'kind' | 'ref' | 'text'>;

export class CitationIndex {
  private readonly byRecord = new Map<string, string>();
  private readonly byFact = new Map<string, string>();
  private readonly records = new Map<string, string[]>();
  private readonly counters = new Map<string, number>();

  /** Gives each record its fact's id; call in evidence order. */
  register(records: Citable[]): void {
    for (const r of records) {
      if (this.byRecord.has(r.id)) continue;
      const key = factKey(r);
      let cite = this.byFact.get(key);
      if (!cite) {
        const prefix = CITE_PREFIX[r.channel];
        const n = (this.counters.get(prefix) ?? 0) + 1;
        this.counters.set(prefix, n);
        cite = `${prefix}${n}`;
        this.byFact.set(key, cite);
      }
      this.byRecord.set(r.id, cite);
      this.records.set(cite, [...(this.records.get(cite) ?? []), r.id]);
    }
  }

  citeOf(recordId: string): string | undefined {
    return this.byRecord.get(recordId);
  }

  /** The records behind a citation id, first recorded first. */
  recordsOf(cite: string): string[] {
    return this.records.get(cite) ?? [];
  }

  /**
   * The prompt as the model sees it: each record id replaced by its citation id.
   * Returns which record each citation id stood for in this prompt, so an answer
   * maps back to the records the model was shown.
   */
  rewrite(text: string): { text: string; shown: Map<string, string> } {
    const shown = new Map<string, string>();
    const out = text.replace(RECORD_ID, (id) => {
      const cite = this.byRecord.get(id);
      if (!cite) return id;
      if (!shown.has(cite)) shown.set(cite, id);
      return cite;
    });
    return { text: dropRepeatedLines(out), shown };
  }

  /**
   * A model's parsed output with every citation id (a string "K3" or "[K3]")
   * (in an id field: evidenceIds, usedIds, id)
   * replaced by the record it stood for in the prompt, or the run's first record
   * of that fact. Anything else is left as written.
   */
  resolve<T>(value: T, shown: Map<string, string> = new Map()): T {
    const walk = (v: unknown, idField: boolean): unknown => {
      if (typeof v === 'string') {
        const m = idField ? CITE.exec(v.trim()) : null;
        if (!m) return v;
        return shown.get(m[1]) ?? this.recordsOf(m[1])[0] ?? v;
      }
      if (Array.isArray(v)) return v.map((x) => walk(x, idField));
      if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, ID_FIELD.test(k))]));
      return v;
    };
    return walk(value, false) as T;
  }

  /** A recorded text (an offline rule's output) with record ids shown as the model would see them. */
  display(text: string): string {
    return text.replace(RECORD_ID, (id) => this.byRecord.get(id) ?? id);
  }
}

/**
 * After rewriting, two records of one fact read as the same line ("[K3] …"):
 * a fact is shown once per prompt.
 */
function dropRepeatedLines(text: string): string {
  const seen = new Set<string>();
  return text
    .split('\n')
    .filter((line) => {
      const m = /^\s*(?:\(\d+\)\s*)?(\[[KDEWPA]\d+\].*)$/.exec(line);
      if (!m) return true;
      const key = m[1].trim();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .join('\n');
}

/** Citation ids for records read back from the database in evidence order (views, exports). */
export function citationsOf(records: Citable[]): Map<string, string> {
  const index = new CitationIndex();
  index.register(records);
  return new Map(records.map((r) => [r.id, index.citeOf(r.id)!]));
}
