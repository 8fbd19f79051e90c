import { z } from 'zod';

/**
 * Reading JSON out of model text. Servers without JSON-schema support (and
 * models that ignore it) wrap the object in prose, code fences or a reasoning
 * block, so the reader is tolerant; the zod schema then decides validity.
 */

export type StructuredParse<O> = { ok: true; value: O } | { ok: false; error: string };

/** Reasoning models (DeepSeek-R1, Qwen3 on vLLM) emit <think> blocks whose braces are not the answer. */
function withoutThinking(text: string): string {
  return text.replace(/<think>[\s\S]*?<\/think>/gi, '');
}

function fencedBlocks(text: string): string[] {
  return [...text.matchAll(/```(?:json|JSON)?\s*\n?([\s\S]*?)```/g)].map((m) => m[1]);
}

/** The balanced {...} starting at `start`, respecting strings and escapes; null when unbalanced. */
function balancedObjectAt(text: string, start: number): string | null {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  return null;
}

function tryParse(candidate: string): { value: unknown } | null {
  try {
    return { value: JSON.parse(candidate) };
  } catch {
    return null;
  }
}

/** The first JSON value found in `text`: the whole text, a fenced block, else the first balanced object that parses. */
export function extractJson(text: string): { value: unknown } | null {
  const cleaned = withoutThinking(text).trim();
  const direct = tryParse(cleaned);
  if (direct) return direct;
  for (const block of fencedBlocks(cleaned)) {
    const parsed = tryParse(block.trim());
    if (parsed) return parsed;
  }
  for (let i = cleaned.indexOf('{'); i !== -1; i = cleaned.indexOf('{', i + 1)) {
    const object = balancedObjectAt(cleaned, i);
    const parsed = object && tryParse(object);
    if (parsed) return parsed;
  }
  return null;
}

export function parseStructured<O>(text: string, schema: z.ZodType<O>): StructuredParse<O> {
  const extracted = extractJson(text);
  if (!extracted) return { ok: false, error: 'the reply contains no JSON object' };
  const result = schema.safeParse(extracted.value);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, error: z.prettifyError(result.error) };
}
