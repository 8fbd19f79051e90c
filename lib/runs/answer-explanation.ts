import { z } from 'zod';
import type { ChannelName } from '@/lib/trace/types';

/**
 * Why an answer is what it is, read from the run's own record (pure): why it
 * abstained, in one line; whether a list or count may be partial and which cap
 * or switch limited it; how many claims rest on evidence. Nothing here reads
 * gold answers: it explains what the run did, not whether it was right.
 */

/** A cap of a method that bounds how much evidence reaches the answer (defaults are the papers'). */
export interface EvidenceCap {
  param: string;
  /** What the cap bounds, as a phrase after the value: "K = 15 triples kept per hop". */
  what: string;
}

/** The evidence caps of each method, by parameter name. */
export const EVIDENCE_CAPS: Readonly<Record<string, readonly EvidenceCap[]>> = {
  'kg-rag': [
    { param: 'topK', what: 'triples of the ranked neighbourhood shown to the model' },
    { param: 'neighbourhoodLimit', what: 'neighbours read per linked entity' },
  ],
  xr2: [
    { param: 'topK', what: 'KG units per iteration shown to the model' },
    { param: 'candidatePool', what: 'candidate hits kept before ranking' },
  ],
  regram: [
    { param: 'k', what: 'triples kept per hop region (MMR top-K)' },
    { param: 'hubCap', what: 'candidate triples read per linked node' },
  ],
  bioweave: [
    // A KG unit holds every path of one metapath, and the answer is the operator over the refined graph's paths:
    // K picks which evidence reaches the answer, not how many items it has.
    { param: 'k', what: "evidence units the selector keeps (a KG unit holds every path of its metapath, so K does not bound the answer's length)" },
    { param: 'w2', what: 'units kept by the cross-score' },
    { param: 'rawPathCap', what: 'KG paths retrieved per round before ranking' },
  ],
  eigen1: [{ param: 'queryTopK', what: 'records retrieved per query' }],
};

export interface ExplainInput {
  method: string;
  status: string;
  question: string;
  answerType: string;
  answer: {
    abstained: boolean;
    text: string;
    items?: string[];
    count?: number | null;
    claims: { evidenceIds: string[] }[];
    rationale?: string;
    /** A method's own record; `capsReached` (cap parameters its retrieval hit) is read when present. */
    extra?: Record<string, unknown>;
  } | null;
  switches: Record<ChannelName, boolean> | null;
  params: Record<string, unknown> | null;
  seeds: readonly unknown[];
  steps: readonly { kind: string; status: string; headline: string | null }[];
  evidence: readonly { channel: string; selected: boolean }[];
}

export interface PartialNote {
  /** One line: why the list or count may miss items. */
  line: string;
  /** The caps that bound it, with the run's values. */
  caps: { param: string; value: unknown; what: string }[];
  /** Switched-off channels that could have added items. */
  switchedOff: ChannelName[];
  /** KG candidates ranked below a cut (recorded but not selected). */
  unselected: number;
}

export interface AnswerExplanation {
  /** Why the run abstained, one line; null when it answered. */
  abstention: string | null;
  partial: PartialNote | null;
  claims: { supported: number; unsupported: number };
}

/** Methods that read the knowledge graph (direct and cot never do). */
const KG_METHODS = new Set(['kg-rag', 'xr2', 'regram', 'bioweave', 'eigen1']);

const firstLine = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^(.{0,220}?[.;])\s.*$/, '$1');

/**
 * The rationale's own statement of why it abstained: from its last
 * "Abstained…" to the end of that sentence (a method's reasoning chain comes
 * first and its verdict last), else its first sentence.
 */
function abstentionLine(rationale: string): string {
  const flat = rationale.replace(/\s+/g, ' ').trim();
  const at = flat.search(/\bAbstain\w*\b(?![\s\S]*\bAbstain)/);
  const said = at < 0 ? firstLine(flat) : flat.slice(at).replace(/^(.*?[.!?])(\s.*)?$/, '$1');
  // The box already says "Why no answer:", so a leading "Abstained:" is dropped.
  const reason = (said.length <= 300 ? said : firstLine(said)).replace(/^Abstain\w*:\s*(?=\S)/, '');
  return reason.charAt(0).toUpperCase() + reason.slice(1);
}

export function explainAnswer(run: ExplainInput): AnswerExplanation {
  const answer = run.answer;
  const claims = {
    supported: answer?.claims.filter((c) => c.evidenceIds.length > 0).length ?? 0,
    unsupported: answer?.claims.filter((c) => !c.evidenceIds.length).length ?? 0,
  };
  if (!answer) return { abstention: null, partial: null, claims };
  const abstained = answer.abstained || !answer.text.trim();
  return { abstention: abstained ? abstentionReason(run) : null, partial: abstained ? null : partialNote(run), claims };
}

function abstentionReason(run: ExplainInput): string {
  const usesKg = KG_METHODS.has(run.method);
  if (usesKg && run.switches && !run.switches.kg)
    return 'The kg switch was off, so the method could not read the knowledge graph, and nothing else it read supported an answer.';
  if (!/[a-z]{3,}/i.test(run.question)) return 'The question has no words to link or search for, so there was nothing to reason from.';
  const linking = run.steps.filter((s) => s.kind === 'channel.entity' && s.status === 'succeeded');
  if (usesKg && !run.seeds.length && linking.length) return 'No entity of the question was found in the knowledge graph, so no KG evidence could be retrieved.';
  if (!usesKg && run.switches && !run.switches.doc && !run.switches.web && !run.switches.param)
    return 'This method reads no knowledge graph, and its document, web and parametric channels were off.';
  const rationale = run.answer?.rationale?.trim();
  if (rationale) return abstentionLine(rationale);
  const failed = run.steps.find((s) => s.status === 'failed' && s.headline);
  if (failed) return `A step failed: ${failed.headline}`;
  if (!usesKg) return 'This method reads no knowledge graph, and the documents and recall it read did not state an answer.';
  return 'The evidence the method retrieved did not support an answer.';
}

function partialNote(run: ExplainInput): PartialNote | null {
  const answer = run.answer!;
  const counted = run.answerType === 'count' || answer.count != null;
  const listLike = counted || run.answerType === 'list' || (answer.items?.length ?? 0) > 1;
  if (!listLike) return null;
  const unselected = run.evidence.filter((e) => e.channel === 'kg' && !e.selected).length;
  const switchedOff = run.switches ? (['kg', 'doc', 'entity', 'web', 'param'] as const).filter((c) => !run.switches![c]) : [];
  const caps = (EVIDENCE_CAPS[run.method] ?? []).flatMap((c) =>
    run.params && run.params[c.param] !== undefined ? [{ param: c.param, value: run.params[c.param], what: c.what }] : [],
  );
  // The caps the run recorded reaching, when the method records them; else a cap the answer's size equals is taken as
  // reached (what lay past it was never retrieved, so nothing shows as unselected).
  const recorded = recordedCaps(answer.extra);
  const size = answer.count ?? (answer.items?.length || null);
  const reached = recorded ? caps.find((c) => recorded.includes(c.param)) : caps.find((c) => typeof c.value === 'number' && c.value === size);
  // A method that records its caps is taken at its word: uncited records are not then read as cut by a cap.
  const capped = ((recorded === null && unselected > 0) || reached !== undefined) && caps.length > 0;
  if (!capped && !switchedOff.length) return null;
  const parts: string[] = [];
  if (capped) {
    const main = reached ?? caps[0];
    const why = !reached ? '' : recorded ? ', and the run reached it' : ', and the answer has exactly that many items';
    parts.push(`${main.param} = ${String(main.value)} ${main.what}${why}`);
    if (unselected > 0) parts.push(`${unselected} KG candidate${unselected === 1 ? ' was' : 's were'} ranked below the cut`);
  }
  if (switchedOff.length) parts.push(`switched off: ${switchedOff.join(', ')}`);
  return { line: `This ${counted ? 'count' : 'list'} may be partial: ${parts.join('; ')}.`, caps, switchedOff, unselected };
}

const CapsReachedSchema = z.array(z.object({ param: z.string() }).passthrough());

/** The cap parameters a method recorded reaching (`extra.capsReached`); null when it records none. */
function recordedCaps(extra: Record<string, unknown> | undefined): string[] | null {
  const parsed = CapsReachedSchema.safeParse(extra?.capsReached);
  return parsed.success ? parsed.data.map((c) => c.param) : null;
}
