import { z } from 'zod';
import type { RoleName, RoleTemplate } from '../types';

/**
 * The registry of role templates. Each method defines its templates with
 * defineTemplate in its own module; the trace stores template id + version, and
 * getTemplate resolves an id back to the prompt that produced a recorded call.
 */

export interface TemplateSpec<I, O> {
  role: RoleName;
  id: string;
  version: number;
  system: string;
  /** The task-specific user message; the JSON-output instruction is appended for you. */
  render(input: I): string;
  /** Output schema; null for free-text roles. */
  output: z.ZodType<O> | null;
}

const registry = new Map<string, RoleTemplate<never, unknown>>();

/** Draft-7 without $schema: the dialect vLLM/llama.cpp grammar compilers and OpenAI all accept. */
function toJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-7' }) as Record<string, unknown>;
  return rest;
}

/**
 * The schema goes into the prompt itself, not only into response_format: many
 * OpenAI-compatible servers ignore or reject json_schema, and keeping it in the
 * prompt makes the rendered messages the same whichever way the server behaves.
 */
function jsonInstruction(jsonSchema: Record<string, unknown>): string {
  return `Answer in JSON matching this schema (one JSON object, no other text):\n${JSON.stringify(jsonSchema)}`;
}

export function defineTemplate<I, O>(spec: TemplateSpec<I, O>): RoleTemplate<I, O> {
  // Derived on first use, not when the module loads: a process (a one-question command) renders the
  // few templates its method uses, and converting every method's schemas cost it tens of milliseconds.
  let jsonSchema: Record<string, unknown> | null | undefined;
  const schemaOf = () => (jsonSchema ??= spec.output ? toJsonSchema(spec.output) : null);
  const template: RoleTemplate<I, O> = {
    role: spec.role,
    id: spec.id,
    version: spec.version,
    system: spec.system,
    render: spec.output ? (input) => `${spec.render(input)}\n\n${jsonInstruction(schemaOf()!)}` : spec.render,
    outputSchema: spec.output,
    get jsonSchema() {
      return schemaOf();
    },
  };
  const existing = registry.get(spec.id);
  // A module evaluated twice (dev reload) redefines the same template; two
  // different templates sharing an id would make recorded calls ambiguous.
  if (existing && (existing.version !== spec.version || existing.system !== spec.system || existing.role !== spec.role)) {
    throw new Error(`Template id '${spec.id}' is already defined with a different role, version or system prompt`);
  }
  registry.set(spec.id, template as RoleTemplate<never, unknown>);
  return template;
}

export function getTemplate(id: string): RoleTemplate<never, unknown> | undefined {
  return registry.get(id);
}

export function listTemplates(): RoleTemplate<never, unknown>[] {
  return [...registry.values()].sort((a, b) => a.id.localeCompare(b.id));
}
