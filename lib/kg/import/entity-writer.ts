import type pg from 'pg';
import { normaliseName } from '../normalise';
import { describeFiles } from './checksum';
import { copyInto } from './copy';
import { dropSecondaryIndexes } from './indexes';
import { inTransaction, poolOf } from '../store/bulk';
import type { ImportOptions } from './options';
import { recordImport, type ImportRecord } from './records';
import { z } from 'zod';
import { queryRows } from '@/lib/db/rows';

export interface EntityKnowledge {
  profiles: { nodeId: string; text: string }[];
  /** In order of preference: when two aliases of a node normalise alike, the first is kept. */
  aliases: { nodeId: string; alias: string; source: string }[];
  rowsRead: number;
}

export interface EntitySource {
  /** kg_imports.source, e.g. "profiles:disease-ontology". */
  recordSource: string;
  version: string;
  file: string;
  /** entity_profiles.source of the profiles it writes. */
  profileSource: string;
  /** node_aliases.source labels it owns: a re-import replaces exactly these rows. */
  aliasSources: string[];
  /** Reads the file against the graph's nodes of these kinds (id → normalised name). */
  kind: string | readonly string[];
  read(nodes: Map<string, string>, client: pg.PoolClient): Promise<EntityKnowledge>;
}

export interface EntityImportSummary extends ImportRecord {
  profiles: number;
  aliases: number;
}

/**
 * Replaces one source's profiles and aliases in one transaction. Aliases that
 * only repeat the node's own name, or another alias of it, are dropped:
 * nodes.normalised already answers those lookups.
 */
export async function writeEntityKnowledge(source: EntitySource, opts: ImportOptions = {}): Promise<EntityImportSummary> {
  const started = Date.now();
  const files = await describeFiles([source.file]);
  return inTransaction(poolOf(opts), async (client) => {
    const nodes = await nodesOfKind(client, source.kind);
    const knowledge = await source.read(nodes, client);
    const aliases = distinctAliases(knowledge.aliases, nodes);

    const indexes = await dropSecondaryIndexes(client, ['node_aliases']);
    await client.query('delete from entity_profiles where source = $1', [source.profileSource]);
    await client.query('delete from node_aliases where source = any($1)', [source.aliasSources]);
    await copyInto(
      client,
      'entity_profiles',
      ['node_id', 'source', 'text'],
      knowledge.profiles.map((p) => [p.nodeId, source.profileSource, p.text]),
    );
    await copyInto(
      client,
      'node_aliases',
      ['node_id', 'alias', 'normalised', 'source'],
      aliases.map((a) => [a.nodeId, a.alias, a.normalised, a.source]),
    );
    for (const def of indexes) await client.query(def);

    const perSource: Record<string, number> = {};
    for (const a of aliases) perSource[a.source] = (perSource[a.source] ?? 0) + 1;
    const covered = new Set([...knowledge.profiles.map((p) => p.nodeId), ...aliases.map((a) => a.nodeId)]);
    const record = await recordImport(client, {
      source: source.recordSource,
      version: source.version,
      kind: 'profiles',
      nodeCount: covered.size,
      edgeCount: 0,
      counts: { rowsRead: knowledge.rowsRead, profiles: knowledge.profiles.length, aliases: perSource },
      files,
      durationMs: Date.now() - started,
    });
    return { ...record, profiles: knowledge.profiles.length, aliases: aliases.length };
  });
}

async function nodesOfKind(client: pg.PoolClient, kind: string | readonly string[]): Promise<Map<string, string>> {
  const rows = await queryRows(client, z.object({ id: z.string(), normalised: z.string() }), 'select id, normalised from nodes where kind = any($1::text[])', [
    [kind].flat(),
  ]);
  return new Map(rows.map((r) => [r.id, r.normalised]));
}

function distinctAliases(aliases: EntityKnowledge['aliases'], nodes: Map<string, string>) {
  const seen = new Set<string>();
  const kept: (EntityKnowledge['aliases'][number] & { normalised: string })[] = [];
  for (const a of aliases) {
    const normalised = normaliseName(a.alias);
    const key = `${a.nodeId}\t${normalised}`;
    if (!normalised || normalised === nodes.get(a.nodeId) || seen.has(key)) continue;
    seen.add(key);
    kept.push({ ...a, alias: a.alias.trim(), normalised });
  }
  return kept;
}
