import { z } from 'zod';
import { passesAsTable } from '@/lib/base/zod-table';
import { TripleDataSchema, type TripleData } from './types';

/**
 * The structured payloads evidence records carry (`evidence.data`, JSON), by
 * kind, as named schemas: every reader parses a record's data through these
 * instead of casting it. A record whose data does not fit its kind is a
 * broken record, and reading it throws, naming the record.
 */

const KgNodeRefSchema = z.object({ id: z.string(), name: z.string(), kind: z.string() });

/** A KG path record (`kind: 'path'`): its nodes in walk order, its edges as triples, its metapath. */
export const PathDataSchema = z.object({ nodes: z.array(KgNodeRefSchema), hops: z.array(TripleDataSchema), metapath: z.string() });
export type PathData = z.infer<typeof PathDataSchema>;

/** A KG answer set record (`kind: 'set'`): its exact size and members (up to the channel's limit), and the edges joining them to its anchors (sets of up to the channel's triple limit). */
export const AnswerSetDataSchema = z.object({
  count: z.number().int(),
  members: z.array(KgNodeRefSchema),
  triples: z.array(TripleDataSchema).optional(),
  /** The anchors it was read from and the kind asked (which question's set it is). */
  constraints: z.array(z.object({ anchor: z.string() })).optional(),
  kind: z.string().nullable().optional(),
});

/**
 * A pair check record (`kind: 'check'`): the KG was read for every edge of
 * `metaedges` (null: any metaedge) joining `from` and `to`, either direction,
 * and held none. Only a read of the pair's own edges writes one, never a cut
 * neighbourhood, so a "no" may rest on it.
 */
export const PairCheckDataSchema = z.object({ from: KgNodeRefSchema, to: KgNodeRefSchema, metaedges: z.array(z.string()).nullable() });
export type PairCheckData = z.infer<typeof PairCheckDataSchema>;

/** An entity profile record (`kind: 'profile'`): the node it describes and its aliases. */
export const ProfileDataSchema = z.object({ nodeId: z.string(), aliases: z.array(z.string()).optional() });

type DataRecord = { kind: string; ref?: string; data?: unknown };

function parse<T>(schema: z.ZodType<T>, record: DataRecord): T {
  const parsed = schema.safeParse(record.data);
  if (!parsed.success) throw new Error(`evidence ${record.ref ?? ''} (${record.kind}) has data of another shape: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** A triple record's triple. */
export function tripleOf(record: DataRecord): TripleData {
  return parse(TripleDataSchema, record);
}

export function pathDataOf(record: DataRecord): PathData {
  return parse(PathDataSchema, record);
}

/** The KG triples a record states: a triple's one, a path's hops, none for other kinds. */
export function kgTriplesOf(record: DataRecord): TripleData[] {
  if (record.kind === 'triple') return [tripleOf(record)];
  if (record.kind === 'path') return pathDataOf(record).hops;
  return [];
}

/**
 * Each record's first KG triple (`kgTriplesOf`), for records read together (kg-rag's neighbourhood): triple records'
 * data checked as one table (lib/base/zod-table) and read as it is, not parsed (copied) one by one.
 */
export function leadTriplesOf(records: DataRecord[]): TripleData[] {
  if (records.every((r) => r.kind === 'triple')) {
    const data = records.map((r) => r.data);
    if (passesAsTable(TripleDataSchema, data)) return data as TripleData[];
  }
  return records.map((r) => kgTriplesOf(r)[0]);
}

export function answerSetOf(record: DataRecord): z.infer<typeof AnswerSetDataSchema> {
  return parse(AnswerSetDataSchema, record);
}

export function pairCheckOf(record: DataRecord): PairCheckData {
  return parse(PairCheckDataSchema, record);
}

export function profileOf(record: DataRecord): z.infer<typeof ProfileDataSchema> {
  return parse(ProfileDataSchema, record);
}
