import { z } from 'zod';
import { baselineSteps } from './steps/baselines';
import { bioweaveSteps } from './steps/bioweave';
import { channelSteps, FailedOutputSchema, SkippedOutputSchema } from './steps/common';
import { eigen1Steps } from './steps/eigen1';
import { legacyVerifySteps } from './steps/k2v';
import { regramSteps } from './steps/regram';
import { xr2Steps } from './steps/xr2';
import { checkedRecord, type RecordMarks } from './recorded';

/**
 * The typed contract of step outputs: one zod schema per step kind (per-method
 * modules under ./steps), in one registry. The recorder checks every output
 * against its kind's schema when it records the step, and `TraceRecorder.step`
 * only accepts a kind of this registry and an output its schema's type allows,
 * so a method cannot record a shape the renderers do not know. Renderers and
 * the run views parse stored outputs (and the inputs they read) through the
 * same schemas instead of guessing shapes. Objects are open (extra fields
 * pass), so a kind can grow; a field added later is optional, so older traces
 * stay readable. Client-safe.
 *
 * Adding a step kind: add `'method.stage': { output: Schema }` to its method's
 * module in ./steps (with `input` when a view reads the input);
 * tests/integration/step-contracts.test.ts fails for a recorded kind without one.
 */

interface StepContract {
  output: z.ZodType;
  input?: z.ZodType;
}

export const STEP_CONTRACTS = {
  ...channelSteps,
  ...baselineSteps,
  ...xr2Steps,
  ...regramSteps,
  ...bioweaveSteps,
  ...eigen1Steps,
  ...legacyVerifySteps,
} as const satisfies Record<string, StepContract>;

export type StepKind = keyof typeof STEP_CONTRACTS;
export type StepOutput<K extends StepKind> = z.infer<(typeof STEP_CONTRACTS)[K]['output']>;
export type StepInput<K extends StepKind> = (typeof STEP_CONTRACTS)[K] extends { input: infer S extends z.ZodType } ? z.infer<S> : unknown;

export function isStepKind(kind: string): kind is StepKind {
  return Object.hasOwn(STEP_CONTRACTS, kind);
}

const contractOf = (kind: string): StepContract | undefined => (isStepKind(kind) ? STEP_CONTRACTS[kind] : undefined);

/** A method recorded an output its step kind's contract does not allow (or a kind with no contract). */
export class StepContractError extends Error {
  constructor(
    readonly kind: string,
    readonly issues: string,
  ) {
    super(`The output of a ${kind} step breaks its contract (lib/trace/step-schemas.ts): ${issues}`);
  }
}

/**
 * When recording: what is wrong with `output` (and `input`, where the kind has
 * an input schema) as the kind's contract sees it, or null. Checked in the
 * stored form (JSON), which is what a renderer will read back. `records`: the
 * recorder's evidence records (./recorded), each checked whole once.
 */
export function stepContractIssues(kind: string, output: unknown, input?: unknown, records?: RecordMarks): string | null {
  return records ? records.checking(() => contractIssues(kind, output, input)) : contractIssues(kind, output, input);
}

function contractIssues(kind: string, output: unknown, input?: unknown): string | null {
  const contract = contractOf(kind);
  if (!contract) return `no step contract for kind ${kind}: add one in lib/trace/steps`;
  const issues: string[] = [];
  const out = contract.output.safeParse(asStored(output));
  if (!out.success) issues.push(z.prettifyError(out.error));
  const inp = input === undefined ? null : contract.input?.safeParse(asStored(input));
  if (inp && !inp.success) issues.push(`input: ${z.prettifyError(inp.error)}`);
  return issues.length ? issues.join('\n') : null;
}

/** When recording: throws if `output` breaks the schema of `kind`. */
export function checkStepOutput(kind: string, output: unknown): void {
  const issues = stepContractIssues(kind, output);
  if (issues) throw new StepContractError(kind, issues);
}

export type Parsed<T> = { data: T; error: null } | { data: null; error: string };

const parsed = <T>(result: z.ZodSafeParseResult<unknown>): Parsed<T> =>
  result.success ? { data: result.data as T, error: null } : { data: null, error: z.prettifyError(result.error) };

/** When reading: the stored output parsed through its kind's schema, or null (with why) when it does not fit. */
export function parseStepOutput<K extends StepKind>(kind: K, output: unknown): Parsed<StepOutput<K>> {
  return parsed(STEP_CONTRACTS[kind].output.safeParse(output));
}

/** When reading: the stored input parsed through its kind's input schema (kinds without one: the input as it is). */
export function parseStepInput<K extends StepKind>(kind: K, input: unknown): Parsed<StepInput<K>> {
  const contract: StepContract = STEP_CONTRACTS[kind];
  return contract.input ? parsed(contract.input.safeParse(input)) : { data: input as StepInput<K>, error: null };
}

/** A stored step's output as its status says it was written: the kind's contract, `{reason}` when skipped, `{error}` when failed. */
export function parseStoredOutput(kind: string, status: string, output: unknown): Parsed<unknown> {
  if (status === 'skipped') return parsed(SkippedOutputSchema.safeParse(output));
  if (status === 'failed') return parsed(FailedOutputSchema.safeParse(output));
  const contract = contractOf(kind);
  return contract ? parsed(contract.output.safeParse(output)) : { data: null, error: `no step contract for kind ${kind}` };
}

/**
 * The value as a JSON column gives it back (undefined dropped, Dates as strings).
 * Most outputs are plain JSON already: those are checked as they are, without a copy.
 */
function asStored(value: unknown): unknown {
  if (value === undefined) return null;
  return isPlainJson(value) ? value : JSON.parse(JSON.stringify(value));
}

/** Whether JSON.stringify then JSON.parse would give back an equal value: only finite numbers, strings, booleans, null, arrays and plain objects, nothing undefined. */
function isPlainJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!(i in value) || !isPlainJson(value[i])) return false;
    return true;
  }
  // A record a contract checked before was plain JSON then (../recorded.ts).
  if (checkedRecord(value)) return true;
  const proto = Object.getPrototypeOf(value);
  if ((proto !== Object.prototype && proto !== null) || 'toJSON' in value) return false;
  for (const k in value) if (!isPlainJson((value as Record<string, unknown>)[k])) return false;
  return true;
}
export type { RegramCandidateTable } from './steps/regram';
