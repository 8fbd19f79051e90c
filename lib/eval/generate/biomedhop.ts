import { countFamily } from './families/count';
import { intersectionFamily } from './families/intersection';
import { pathFamily } from './families/path';
import { sharedNeighborFamily } from './families/shared-neighbor';
import { assertQuestionCount, GenerationError, InvalidGenerationOptions } from './errors';
import type { FamilyBuilder } from './instance';
import { loadedMetaedges } from './kg-reads';
import { Rng } from './random';
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
}

/**
 * A BioMedHop-style question set over the loaded KG (METHODS.md §7). The same
 * seed and count on the same graph give the identical set: every question slot
 * draws from its own seeded stream, and the KG samplers are seeded from it.
 */
export async function generateBiomedhopSet(opts: BiomedhopOptions): Promise<GeneratedQuestion[]> {
  const slots = planSlots(opts);
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
    const question = await fillSlot({ seed, slot, family, rendering, variants: variants.get(family)!, seen });
    if (!question) throw new GenerationError(`no valid ${family} question (${rendering}) in ${ATTEMPTS_PER_QUESTION} draws for slot ${slot}; the KG may be too small for this family`);
    questions.push(question);
  }
  return questions;
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
  if (!plan.length) throw new InvalidGenerationOptions(`none of ${families.join(', ')} can be rendered as ${renderings.join(' or ')} (count questions are count-only)`);
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
}): Promise<GeneratedQuestion | null> {
  const { seed, slot, family, rendering, variants, seen } = args;
  for (let attempt = 0; attempt < ATTEMPTS_PER_QUESTION; attempt++) {
    const rng = new Rng(`${seed}:${slot}:${attempt}`);
    const variant = rng.pick(variants);
    const instance = await BUILDERS[family].instantiate(variant, rng);
    if (!instance || seen.has(instance.key) || rejectionReason(instance)) continue;
    const rendered = await renderInstance(instance, rendering, rng);
    if (!rendered) continue;
    seen.add(instance.key);
    const { text, template, options, answer, answerType, distractorIds } = rendered;
    return {
      text,
      options,
      answer,
      answerType,
      family,
      goldGraph: instance.goldGraph,
      meta: { generator: 'biomedhop', seed, slot, rendering, template, variant, pattern: instance.pattern, ...(distractorIds ? { distractorIds } : {}) },
    };
  }
  return null;
}
