import path from 'node:path';
import { ImportError } from './errors';
import { writeEntityKnowledge, type EntityImportSummary, type EntityKnowledge } from './entity-writer';
import { readLines } from './lines';
import type { ImportOptions } from './options';
import { narrowerTerms, type OntologyTerm } from './ontology-genus';
import { DO_NARROWER } from '../linking/store';

const HEADER = ['disease_id', 'name', 'description'];
/** The rules that derive aliases from the file: a change imports it again (lib/kg/import/default-knowledge.ts). */
export const DISEASE_ONTOLOGY_RULES = 'rules 2';

/**
 * Disease Ontology definitions (`disease_id  name  description`) become the
 * profiles of the graph's `Disease::<DOID>` nodes, and the DO name (and its
 * everyday short forms) an alias where it differs from the node's name. A
 * term the graph lacks whose definition's genus leads, a few steps up, to a
 * disease of the graph names that disease too (DO_NARROWER: "lymphoma", "a
 * hematologic cancer that …"; "prostate carcinoma", "a prostate cancer that …").
 */
export function importDiseaseOntology(file: string, opts: ImportOptions & { version?: string } = {}): Promise<EntityImportSummary> {
  return writeEntityKnowledge(
    {
      recordSource: 'profiles:disease-ontology',
      version: opts.version ?? `${path.basename(file)}; ${DISEASE_ONTOLOGY_RULES}`,
      file,
      profileSource: 'disease-ontology',
      aliasSources: ['do-name', DO_NARROWER],
      kind: 'Disease',
      read: (nodes) => readDiseaseOntology(file, nodes, opts),
    },
    opts,
  );
}

async function readDiseaseOntology(file: string, nodes: Map<string, string>, opts: ImportOptions): Promise<EntityKnowledge> {
  const knowledge: EntityKnowledge = { profiles: [], aliases: [], rowsRead: 0 };
  const terms: OntologyTerm[] = [];
  for await (const { number, text } of readLines(file, { phase: 'disease ontology', onProgress: opts.onProgress })) {
    const cells = text.split('\t');
    if (number === 1) {
      if (cells.join('\t').replace(/^\uFEFF/, '') !== HEADER.join('\t')) throw new ImportError(file, 1, `expected the header '${HEADER.join('\\t')}'`);
      continue;
    }
    if (!text) continue;
    if (cells.length !== 3) throw new ImportError(file, number, `expected 3 tab-separated columns (disease_id, name, description), found ${cells.length}`);
    const [doid, name, description] = cells.map((c) => c.trim());
    if (!/^DOID:\d+$/.test(doid)) throw new ImportError(file, number, `'${doid}' is not a DOID`);
    knowledge.rowsRead++;
    terms.push({ doid, name, description });
    const nodeId = `Disease::${doid}`;
    if (!nodes.has(nodeId)) continue;
    if (description) knowledge.profiles.push({ nodeId, text: description });
    if (name) for (const alias of [name, ...everydayNames(name)]) knowledge.aliases.push({ nodeId, alias, source: 'do-name' });
  }
  const graphDiseases = new Map([...nodes].map(([id, name]) => [id.replace(/^Disease::/, ''), name]));
  for (const { name, doid } of narrowerTerms(terms, graphDiseases))
    for (const alias of [name, ...everydayNames(name)]) knowledge.aliases.push({ nodeId: `Disease::${doid}`, alias, source: DO_NARROWER });
  return knowledge;
}

/**
 * How people usually shorten a disease's formal name: "type 2 diabetes" for
 * "type 2 diabetes mellitus", "Crohn's" for "Crohn's disease". Only qualifiers
 * whose removal cannot name something else ("heart disease" → "heart" would).
 */
export function everydayNames(name: string): string[] {
  const out: string[] = [];
  const mellitus = name.match(/^(.+\S)\s+mellitus$/i);
  if (mellitus) out.push(mellitus[1]);
  const eponym = name.match(/^(.+['’]s)\s+disease$/i);
  if (eponym) out.push(eponym[1]);
  return out;
}
