import { describeFiles } from './checksum';
import { copyInto, type CopyValue } from './copy';
import { inTransaction, poolOf } from '../store/bulk';
import type { ImportOptions } from './options';
import { recordImport, type ImportRecord } from './records';

export interface SourceDocument {
  externalId: string;
  title: string | null;
  meta: unknown;
  /** The document text is the sections joined by a blank line; passages are the sections. */
  sections: { label: string | null; text: string }[];
}

export const SECTION_SEPARATOR = '\n\n';

export interface DocumentImportSummary extends ImportRecord {
  documents: number;
  passages: number;
}

/**
 * Replaces all documents of one source in one transaction. Ids are derived
 * from the source's own ids ("pubmedqa:21645374", "…:0" for its first passage)
 * so that evidence recorded in runs still resolves after a re-import.
 * Passage offsets are JavaScript string indices into the document text.
 */
export async function writeDocuments(
  source: { name: string; version: string; file: string },
  documents: SourceDocument[],
  opts: ImportOptions = {},
): Promise<DocumentImportSummary> {
  const started = Date.now();
  const files = await describeFiles([source.file]);
  const docRows: CopyValue[][] = [];
  const passageRows: CopyValue[][] = [];
  for (const doc of documents) {
    const id = `${source.name}:${doc.externalId}`;
    let offset = 0;
    doc.sections.forEach((section, ordinal) => {
      if (ordinal > 0) offset += SECTION_SEPARATOR.length;
      passageRows.push([`${id}:${ordinal}`, id, ordinal, offset, offset + section.text.length, section.label, section.text]);
      offset += section.text.length;
    });
    const text = doc.sections.map((s) => s.text).join(SECTION_SEPARATOR);
    docRows.push([id, source.name, doc.externalId, doc.title, text, JSON.stringify(doc.meta)]);
  }

  return inTransaction(poolOf(opts), async (client) => {
    await client.query('delete from documents where source = $1', [source.name]);
    await copyInto(client, 'documents', ['id', 'source', 'external_id', 'title', 'text', 'meta'], docRows);
    await copyInto(client, 'passages', ['id', 'document_id', 'ordinal', 'start', 'end', 'label', 'text'], passageRows);
    // The tsvector is computed by the server so full-text queries use exactly its parser and dictionary.
    await client.query(`update passages p set tsv = to_tsvector('english', p.text) from documents d where d.id = p.document_id and d.source = $1`, [
      source.name,
    ]);
    const record = await recordImport(client, {
      source: source.name,
      version: source.version,
      kind: 'documents',
      nodeCount: 0,
      edgeCount: 0,
      counts: { documents: docRows.length, passages: passageRows.length },
      files,
      durationMs: Date.now() - started,
    });
    return { ...record, documents: docRows.length, passages: passageRows.length };
  });
}
