/**
 * Offline Extract: the rule kit reads Q_t through the entity channel's links.
 * E_t are the entities that constrain the answer; R_t per entity the first
 * hop's relations (the triples anchored on it), direction and target kind,
 * plus the question's conditions, attributes, comparisons and output format.
 */

import { findQuestionCues } from '@/lib/reading/question-cues';
import { readingOf, readQuestion } from '@/lib/reading';
import type { Hop } from '@/lib/llm/offline/types';
import type { ExtractInput, Extraction } from '../templates';

function direction(hop: Hop | undefined): 'out' | 'in' | 'both' {
  const ends = new Set(hop?.edges.map((e) => e.fromEnd));
  if (ends.size !== 1) return 'both';
  return ends.has('source') ? 'out' : ends.has('target') ? 'in' : 'both';
}

export function extractCues(input: ExtractInput): Extraction {
  // Q_t is read as a step of Q: what Q sets aside is never a step entity to start from.
  const u = readQuestion(input.current, {
    links: input.recognised,
    options: input.frame.options ?? undefined,
    optionLinks: input.frame.optionLinks,
    within: readingOf(input.frame),
  });
  const entities = [...new Map(u.anchors.map((a) => [a.entity.nodeId, { mention: a.entity.mention, kind: a.entity.kind }])).values()];
  const relations = u.anchors.map((a) => ({
    entity: a.entity.mention,
    metaedges: a.chain[0]?.edges.map((e) => e.metaedge) ?? [],
    direction: direction(a.chain[0]),
    targetKind: a.chain[0]?.to ?? null,
    cue: a.cue,
    negated: a.negated,
  }));
  const constraints: Extraction['constraints'] = [
    ...u.anchors.filter((a) => a.negated).map((a) => ({ type: 'negation' as const, text: `the answer must not relate to ${a.entity.name}` })),
    ...u.anchors.flatMap((a) =>
      a.chain.slice(1).map((hop) => ({
        type: 'condition' as const,
        text: `from ${a.entity.name}, then ${hop.edges.map((e) => e.metaedge).join('|')}: ${hop.from} → ${hop.to}`,
      })),
    ),
    ...findQuestionCues(u.stem)
      .filter((c) => c.cue === 'comparison' || c.cue === 'shared' || c.cue === 'count')
      .map((c) => ({ type: c.cue as 'comparison' | 'shared' | 'count', text: c.phrase })),
    ...(u.answerKind ? [{ type: 'attribute' as const, text: `the answer is a ${u.answerKind}` }] : []),
    ...(u.options.length ? [{ type: 'option' as const, text: `choose among ${u.options.map((o) => `${o.letter}. ${o.text}`).join('; ')}` }] : []),
  ];
  return { entities, relations, answerKind: u.answerKind, outputFormat: u.outputFormat, constraints };
}
