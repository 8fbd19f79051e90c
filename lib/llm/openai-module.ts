type OpenaiModule = typeof import('openai');

let loaded: OpenaiModule | null = null;
let loading: Promise<OpenaiModule> | null = null;

/**
 * The `openai` package, imported with the first client: an offline run or a CLI command never loads it (~0.14 s of
 * module loading on a slow machine). Imported once: under tsx every `import()` asks its loader thread again.
 */
export function importOpenai(): Promise<OpenaiModule> {
  return (loading ??= import('openai').then((module) => (loaded = module)));
}

/** The package once a client was made; null before, when no error can have come from it. */
export function loadedOpenai(): OpenaiModule | null {
  return loaded;
}
