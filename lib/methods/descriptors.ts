import { z } from 'zod';
import { listMethods } from './registry';
import type { MethodDefinition, MethodId } from './types';

/** One run parameter as the run form shows it: read from the method's zod schema, default = the paper's. */
export interface ParamDescriptor {
  name: string;
  type: 'integer' | 'number' | 'boolean' | 'enum' | 'string' | 'json';
  default: unknown;
  min?: number;
  max?: number;
  options?: string[];
  description?: string;
}

export interface MethodDescriptor {
  id: MethodId;
  name: string;
  source: string;
  description: string;
  params: ParamDescriptor[];
  /** Every parameter at its default (the parsed empty object). */
  defaults: Record<string, unknown>;
}

interface JsonSchemaProp {
  type?: string | string[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  enum?: unknown[];
  description?: string;
  anyOf?: JsonSchemaProp[];
}

const SAFE_INTEGER = Number.MAX_SAFE_INTEGER;

/** A schema property → descriptor; anything the form cannot edit as a scalar is edited as JSON. */
export function describeParam(name: string, prop: JsonSchemaProp, fallbackDefault: unknown): ParamDescriptor {
  const base = { name, default: prop.default ?? fallbackDefault, ...(prop.description ? { description: prop.description } : {}) };
  const bound = (v: number | undefined) => (v === undefined || Math.abs(v) >= SAFE_INTEGER ? undefined : v);
  const range = { min: bound(prop.minimum ?? prop.exclusiveMinimum), max: bound(prop.maximum ?? prop.exclusiveMaximum) };
  const clean = (d: ParamDescriptor): ParamDescriptor => Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined)) as unknown as ParamDescriptor;
  if (prop.enum?.every((v) => typeof v === 'string')) return clean({ ...base, type: 'enum', options: prop.enum as string[] });
  switch (prop.type) {
    case 'integer':
      return clean({ ...base, type: 'integer', ...range });
    case 'number':
      return clean({ ...base, type: 'number', ...range });
    case 'boolean':
      return clean({ ...base, type: 'boolean' });
    case 'string':
      return clean({ ...base, type: 'string' });
    default:
      return clean({ ...base, type: 'json' });
  }
}

export function describeMethod(method: MethodDefinition): MethodDescriptor {
  const parsed = method.params.safeParse({});
  const defaults = parsed.success && parsed.data && typeof parsed.data === 'object' ? (parsed.data as Record<string, unknown>) : {};
  const schema = z.toJSONSchema(method.params, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, JsonSchemaProp> };
  const params = Object.entries(schema.properties ?? {}).map(([name, prop]) => describeParam(name, prop, defaults[name]));
  return { id: method.id, name: method.name, source: method.source, description: method.description, params, defaults };
}

/** The registered methods, in the order of METHOD_IDS: made once per process (the schemas never change; a JSON Schema per method costs a run page about 4 ms). */
let described: MethodDescriptor[] | null = null;
export function describeMethods(): MethodDescriptor[] {
  return (described ??= listMethods().map(describeMethod));
}
