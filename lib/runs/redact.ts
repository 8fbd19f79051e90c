/**
 * What leaves the server as a shared or exported record never carries a
 * credential: keys named like secrets are dropped, URLs lose their user-info,
 * and the configured API key is blanked wherever a server echoed it.
 */

const SECRET_KEY = /^(api[-_]?key|apikey|authorization|auth|secret|client[-_]?secret|password|passwd|access[-_]?token|bearer)$/i;

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}

function redactString(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 6) out = out.split(secret).join('[redacted]');
  // user:pass@ in any URL inside free text.
  return out.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+(?::[^/\s@]*)?@/gi, '$1');
}

/** A deep copy of a JSON value with secrets removed. Pure (the secrets are passed in). */
export function redactSecrets<T>(value: T, secrets: readonly string[] = []): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactString(v, secrets);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, inner] of Object.entries(v)) {
        if (SECRET_KEY.test(k)) continue;
        out[k] = walk(inner);
      }
      return out;
    }
    return v;
  };
  return walk(value) as T;
}

/** The secrets of this process's configuration (the model endpoint's key). */
export function configuredSecrets(env: NodeJS.ProcessEnv = process.env): string[] {
  return [env.OPENAI_API_KEY].filter((s): s is string => !!s);
}
