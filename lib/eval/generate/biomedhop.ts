import { countFamily } from './families/count';
import { intersectionFamily } from './families/intersection';
import { pathFamily } from './families/path';
import { sharedNeighborFamily } from './families/shared-neighbor';
import { assertQuestionCount, GenerationError, InvalidGenerationOptions } from './errors';
import { buildEvidence, evidenceReport, type CoveragePolicy, type EvidenceReport } from './evidence';
import { EVIDENCE_SOURCES, type EvidenceSource } from './types';
import type { FamilyBuilder } from './instance';
import { loadedMetaedges } from '@/lib/eval/store/generation';
import { Rng } from './random';
import { loadMetagraph } from '@/lib/kg/loaded-metagraph';
import { drawFromKg, drawStated, type EdgeDraw } from './stated';
import { renderInstance } from './render';
import { BIOMEDHOP_FAMILIES, RENDERINGS, type BiomedhopFamily, type GeneratedQuestion, type Rendering } from './types';
import { rejectionReason } from './validate';

const BUILDERS: Record<BiomedhopFamily, FamilyBuilder> = {
  shared_neighbor: sharedNeighborFamily,
  intersection: intersectionFamily,
  path: pathFamily,
  count: countFamily,
};

/** Draws per question before the generator gives up on it; each draw samples several candidates. */
const ATTEMPTS_PER_QUESTION = 40;

export interface BiomedhopOptions {
  seed: string | number;
  count: number;
  families?: readonly BiomedhopFamily[];
  renderings?: readonly Rendering[];
  /** The source condition every question's evidence is built for (default: KG, documents and web, the hybrid condition). */
  sources?: readonly EvidenceSource[];
  /** 'label' (default): keep each question, its coverage labelled; 'require': redraw questions a text source of the condition cannot cover. */
  coverage?: CoveragePolicy;
}

/**
 * A BioMedHop-style question set over the loaded KG (METHODS.md §7). The same
 * seed and count on the same graph give the identical set: every question slot
 * draws from its own seeded stream, and the KG samplers are seeded from it.
 */
export async function generateBiomedhopSet(opts: BiomedhopOptions): Promise<GeneratedQuestion[]> {
  return (await generateBiomedhop(opts)).questions;
}

/** The set and the coverage report of its source-conditioned evidence. */
export async function generateBiomedhop(opts: BiomedhopOptions): Promise<{ questions: GeneratedQuestion[]; report: EvidenceReport }> {
  const slots = planSlots(opts);
  const condition = conditionOf(opts.sources);
  const policy = opts.coverage ?? 'label';
  const rejected: Record<string, number> = {};
  await loadMetagraph();
  // Requiring coverage, edge-seeded families draw among the edges every text source of the condition states.
  const text = condition.filter((s): s is 'doc' | 'web' => s !== 'kg');
  const draw = policy === 'require' && text.length ? await drawStated(text) : drawFromKg;
  const metaedges = await loadedMetaedges();
  const variants = new Map<BiomedhopFamily, string[]>();
  for (const family of new Set(slots.map((s) => s.family))) {
    const served = BUILDERS[family].variants(metaedges);
    if (!served.length) throw new GenerationError(`the loaded KG lacks the metaedges every ${family} question needs`);
    variants.set(family, served);
  }

  const seed = String(opts.seed);
  const seen = new Set<string>();
  const questions: GeneratedQuestion[] = [];
  for (const [slot, { family, rendering }] of slots.entries()) {
    const question = await fillSlot({ seed, slot, family, rendering, variants: variants.get(family)!, seen, condition, policy, rejected, draw });
    if (!question) {
      const why = policy === 'require' ? ` whose ${condition.join('+')} evidence covers a hop` : '';
      throw new GenerationError(
        `no valid ${family} question (${rendering})${why} in ${ATTEMPTS_PER_QUESTION} draws for slot ${slot}; the KG may be too small for this family`,
      );
    }
    questions.push(question);
  }
  return {
    questions,
    report: evidenceReport(
      condition,
      policy,
      questions.map((q) => q.evidence!),
      rejected,
    ),
  };
}

/** The condition in canonical order, KG always included: the gold graph is a KG pattern. */
export function conditionOf(sources: readonly EvidenceSource[] | undefined): EvidenceSource[] {
  const wanted = new Set(sources?.length ? sources : EVIDENCE_SOURCES);
  const unknown = [...wanted].filter((s) => !EVIDENCE_SOURCES.includes(s));
  if (unknown.length) throw new InvalidGenerationOptions(`unknown evidence source: ${unknown.join(', ')} (sources are ${EVIDENCE_SOURCES.join(', ')})`);
  wanted.add('kg');
  return EVIDENCE_SOURCES.filter((s) => wanted.has(s));
}

/**
 * Which family and rendering each question gets: families take turns, and each
 * family cycles through its renderings, so any prefix of a set is balanced.
 */
export function planSlots(opts: BiomedhopOptions): { family: BiomedhopFamily; rendering: Rendering }[] {
  assertQuestionCount(opts.count);
  const families = opts.families?.length ? opts.families : BIOMEDHOP_FAMILIES;
  const renderings = opts.renderings?.length ? opts.renderings : RENDERINGS;
  const unknown = [...families.filter((f) => !(f in BUILDERS)), ...renderings.filter((r) => !RENDERINGS.includes(r))];
  if (unknown.length) throw new InvalidGenerationOptions(`unknown family or rendering: ${unknown.join(', ')}`);
  const plan = families
    .map((family) => ({ family, renderings: BUILDERS[family].renderings.filter((r) => renderings.includes(r)) }))
    .filter((p) => p.renderings.length);
  if (!plan.length)
    throw new InvalidGenerationOptions(`none of ${families.join(', ')} can be rendered as ${renderings.join(' or ')} (count questions are count-only)`);
  return Array.from({ length: opts.count }, (_, i) => {
    const p = plan[i % plan.length];
    return { family: p.family, rendering: p.renderings[Math.floor(i / plan.length) % p.renderings.length] };
  });
}

async function fillSlot(args: {
  seed: string;
  slot: number;
  family: BiomedhopFamily;
  rendering: Rendering;
  variants: string[];
  seen: Set<string>;
  condition: EvidenceSource[];
  policy: CoveragePolicy;
  rejected: Record<string, number>;
  draw: EdgeDraw;
}): Promise<GeneratedQuestion | null> {
  const { seed, slot, family, rendering, variants, seen, condition, policy, rejected, draw } = args;
  for (let attempt = 0; attempt < ATTEMPTS_PER_QUESTION; attempt++) {
    const rng = new Rng(`${seed}:${slot}:${attempt}`);
    const variant = rng.pick(variants);
    const instance = await BUILDERS[family].instantiate(variant, rng, draw);
    if (!instance || seen.has(instance.key) || rejectionReason(instance)) continue;
    const rendered = await renderInstance(instance, rendering, rng);
    if (!rendered) continue;
    const evidence = await buildEvidence(instance.goldGraph, condition);
    if (policy === 'require' && evidence.coverage.status === 'uncovered') {
      const reason = evidence.coverage.reason!;
      rejected[reason] = (rejected[reason] ?? 0) + 1;
      continue;
    }
    seen.add(instance.key);
    const { text, template, options, answer, answerType, distractorIds } = rendered;
    return {
      text,
      options,
      answer,
      answerType,
      family,
      goldGraph: instance.goldGraph,
      evidence,
      meta: { generator: 'biomedhop', seed, slot, rendering, template, variant, pattern: instance.pattern, ...(distractorIds ? { distractorIds } : {}) },
    };
  }
  return null;
}
