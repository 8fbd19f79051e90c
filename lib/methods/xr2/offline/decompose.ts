/**
 * Offline Decompose: the rule kit's reading of Q gives the sub-questions,
 * constraints and required evidence. Step 1 targets the whole question when
 * every constraint is one hop from a named entity, else the first hop. A
 * re-decomposition targets the first hop the findings so far leave open,
 * naming the entities they reached ("Which diseases are treated by A and
 * B?"); with no open hop but unexamined candidates for a list or count, it
 * asks for further candidates; otherwise it asks the question again.
 */

import { EvidenceGraph, startAt } from '@/lib/llm/offline/evidence';
import { kindPlural } from '@/lib/llm/offline/metaedges';
import { hopEdges } from '@/lib/llm/offline/reason';
import { clause } from '@/lib/reading/subquestions';
import type { QuestionReading } from '@/lib/llm/offline/types';
import { bundleOf, type EvidenceLine } from '../../baselines/evidence';
import { understand } from '../../baselines/offline/solve';
import type { DecomposeInput, Decomposition } from '../templates';
import { chainTerm, listed, wantsAll } from './reading';

export const FURTHER = ', beyond the candidates already examined?';

export function decomposeQuestion(input: DecomposeInput): Decomposition {
  const u = understand(input.frame);
  const base = { subquestions: u.subquestions, constraints: constraintsOf(u) };
  const previous = input.previous;
  if (!previous) return { ...base, required_evidence: requiredOf(u), current: firstStep(u) };
  const open = openHop(u, input.established);
  if (open) return { ...base, required_evidence: [open.need, ...previous.check.missing], current: open.question };
  if (previous.unexamined > 0 && wantsAll(u)) {
    return { ...base, required_evidence: previous.check.missing, current: `${previous.current.replace(FURTHER, '').replace(/[?.\s]+$/, '')}${FURTHER}` };
  }
  return { ...base, required_evidence: previous.check.missing, current: u.stem };
}

function firstStep(u: QuestionReading): string {
  const resolved = u.anchors.filter((a) => a.chain.length);
  if (u.propositions.length || resolved.every((a) => a.chain.length === 1)) return u.stem;
  return u.subquestions[0] ?? u.stem;
}

/** The first hop of an anchor's chain that the findings do not reach across, as a question about what they reached before it. */
function openHop(u: QuestionReading, established: EvidenceLine[]): { question: string; need: string } | null {
  const graph = new EvidenceGraph(bundleOf(established));
  for (const anchor of u.anchors.filter((a) => a.chain.length && !a.negated)) {
    let reach = startAt(anchor.entity.nodeId);
    for (const [i, hop] of anchor.chain.entries()) {
      const next = graph.step(reach, hop, hopEdges(hop, true));
      if (next.size) {
        reach = next;
        continue;
      }
      const from = [...reach.entries()].sort((a, b) => b[1].edges.size - a[1].edges.size).map(([id]) => graph.node(id)?.name ?? anchor.entity.name);
      const relation = hop.edges.map((e) => e.metaedge).join('|');
      return {
        question: `Which ${kindPlural(hop.to)} ${clause(hop, listed(from))}?`,
        need: `${relation} triples ${hop.from} → ${hop.to} from ${i === 0 ? anchor.entity.name : `the ${from.length} ${kindPlural(hop.from)} reached so far`}`,
      };
    }
  }
  return null;
}

function constraintsOf(u: QuestionReading): string[] {
  return [
    `the answer is ${u.outputFormat === 'count' ? 'the number of' : u.outputFormat === 'list' ? 'every' : 'a'} ${u.answerKind ?? 'entity'}${u.outputFormat === 'yesno' ? ' claim to decide yes or no' : ''}`,
    ...u.anchors.filter((a) => a.chain.length).map((a) => `${a.negated ? 'not reached by' : 'reached by'} ${chainTerm(a)}`),
    ...(u.options.length ? [`one of the options ${u.options.map((o) => o.letter).join(', ')}`] : []),
    ...u.notes,
  ];
}

function requiredOf(u: QuestionReading): string[] {
  return u.anchors.flatMap((a) =>
    a.chain.map((hop, i) => `${hop.edges.map((e) => e.metaedge).join('|')} triples ${hop.from} → ${hop.to}${i === 0 ? ` at ${a.entity.name}` : ''}`),
  );
}
