import { saveQuestionSet, type QuestionSetSummary, type SaveSetOptions } from '@/lib/eval/sets';
import { latestGraphImport } from '@/lib/eval/store/generation';
import { conditionOf, generateBiomedhop, planSlots, type BiomedhopOptions } from './biomedhop';
import { generateK2vSet } from './k2v';
import type { Generator } from './request';

export { generateBiomedhop, generateBiomedhopSet, type BiomedhopOptions } from './biomedhop';
export { COVERAGE_POLICIES, runBundles, type EvidenceReport } from './evidence';
export { EVIDENCE_SOURCES } from './types';
export { generateK2vSet } from './k2v';
export { GenerationError, InvalidGenerationOptions, MAX_QUESTIONS } from './errors';
export { BIOMEDHOP_FAMILIES, RENDERINGS, type GeneratedQuestion, type QuestionPattern } from './types';

export { GENERATORS, GenerateRequestSchema, type GenerateRequest, type Generator } from './request';

const HETIONET_LICENSE = 'derived from Hetionet (CC0)';

/** What a generated set's license line says: Hetionet's (and the demo graph drawn from it) is CC0; another graph's sources keep theirs. */
function licenseOf(graph: { source: string; version: string } | null): string {
  return !graph || graph.source === 'hetionet' || graph.source === 'demo'
    ? HETIONET_LICENSE
    : `derived from ${graph.source} ${graph.version} (its sources keep their licenses)`;
}

const DESCRIPTIONS: Record<Generator, string> = {
  biomedhop: 'BioMedHop-style questions over the KG: shared neighbour, intersection, path and count families',
  k2v: 'K2V fill-in-the-blank questions from 2-hop KG paths, one entity masked',
};

/**
 * Generates a set and stores it under `name` (replacing the owner's earlier set
 * of that name from the same generator only when `save.replace` asks). The meta records the seed, the options and the
 * graph it was drawn from: the same three give the same set.
 */
export async function generateQuestionSet(
  opts: { generator: Generator; name: string } & BiomedhopOptions,
  save: SaveSetOptions = {},
): Promise<QuestionSetSummary> {
  const { generator, name, seed, count, families, renderings, sources, coverage } = opts;
  const generated =
    generator === 'biomedhop'
      ? await generateBiomedhop({ seed, count, families, renderings, sources, coverage })
      : { questions: await generateK2vSet({ seed, count }), report: null };
  const { questions, report } = generated;
  const graph = await latestGraphImport();
  return saveQuestionSet(
    {
      name,
      source: generator,
      license: licenseOf(graph),
      description: DESCRIPTIONS[generator],
      meta: {
        seed: String(seed),
        count,
        ...(generator === 'biomedhop' ? planSummary(opts) : {}),
        ...(report ? { evidence: report } : {}),
        kg: graph && { source: graph.source, version: graph.version, checksum: graph.checksum },
      },
      questions,
    },
    save,
  );
}

/** The families, renderings and source condition a BioMedHop set was planned with (the defaults spelled out). */
function planSummary(opts: BiomedhopOptions) {
  const slots = planSlots(opts);
  return { families: [...new Set(slots.map((s) => s.family))], renderings: [...new Set(slots.map((s) => s.rendering))], sources: conditionOf(opts.sources) };
}
