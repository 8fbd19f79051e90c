/**
 * The one redaction every read path applies before run data leaves the server
 * (API routes, pages, exports, permalinks, evaluation exports): keys named like
 * secrets are dropped, URLs lose their user-info and the values of secret-named
 * query parameters, and every secret this server is configured with (the API
 * key, credentials inside the model endpoint's URL or the database URL) is
 * blanked wherever it appears, including model output that echoed it.
 */

const SECRET_FIELD = /^(api[-_]?key|apikey|authorization|auth|secret|client[-_]?secret|password|passwd|access[-_]?token|refresh[-_]?token|bearer|cookie)$/i;
/** Query parameters whose value is a credential (`?key=`, `?api-key=`, `?access_token=`, `?sig=`, …). */
const SECRET_PARAM = /(key|token|secret|pass|pwd|auth|sig|credential|session)/i;
const REDACTED = '[redacted]';
/** Shorter strings are not treated as secrets: blanking "a" everywhere would wreck every text. */
const MIN_SECRET_LENGTH = 6;

/** A URL without user-info and with secret-named query values replaced; text that is not a URL comes back as it was. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  let changed = false;
  if (parsed.username || parsed.password) {
    parsed.username = '';
    parsed.password = '';
    changed = true;
  }
  for (const name of [...new Set(parsed.searchParams.keys())]) {
    if (SECRET_PARAM.test(name)) {
      parsed.searchParams.set(name, REDACTED);
      changed = true;
    }
  }
  return changed ? parsed.toString() : url;
}

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

function redactString(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= MIN_SECRET_LENGTH) out = out.split(secret).join(REDACTED);
  // user:pass@ and ?key=… in any URL inside free text.
  return out.replace(URL_IN_TEXT, (url) => redactUrl(url));
}

/** A deep copy of a JSON value with secrets removed. Pure (the secrets are passed in). */
export function redactSecrets<T>(value: T, secrets: readonly string[] = []): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactString(v, secrets);
    if (Array.isArray(v)) return v.map(walk);
    if (v instanceof Date) return v;
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, inner] of Object.entries(v)) {
        if (SECRET_FIELD.test(k)) continue;
        out[k] = walk(inner);
      }
      return out;
    }
    return v;
  };
  return walk(value) as T;
}

/** The credentials inside a URL: user-info and secret-named query values. */
function urlSecrets(url: string | undefined): string[] {
  if (!url) return [];
  try {
    const parsed = new URL(url);
    const params = [...parsed.searchParams].filter(([name]) => SECRET_PARAM.test(name)).map(([, value]) => value);
    return [decodeURIComponent(parsed.password), parsed.password, ...params];
  } catch {
    return [];
  }
}

/**
 * The secrets of this process's configuration: the model and embedding
 * endpoints' keys, the credentials in their URLs and in the database URL, the
 * sign-in secret.
 */
export function configuredSecrets(env: NodeJS.ProcessEnv = process.env): string[] {
  const secrets = [
    env.OPENAI_API_KEY,
    env.HOPSCOPE_EMBEDDING_API_KEY,
    env.AUTH_SECRET,
    ...urlSecrets(env.OPENAI_BASE_URL),
    ...urlSecrets(env.HOPSCOPE_EMBEDDING_BASE_URL),
    ...urlSecrets(env.DATABASE_URL),
  ];
  // Longest first, so a secret containing another is blanked whole.
  return [...new Set(secrets.filter((s): s is string => !!s && s.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
}

/**
 * Model output as it may be kept: every configured secret (and `extra`, the
 * calling backend's own key) blanked, URL credentials dropped. Applied where
 * the output enters (lib/llm/openai-backend.ts), before the trace, the answer,
 * the trace pack or the response cache store it, so a key the model echoed is
 * never stored and a later key rotation leaves nothing behind.
 */
export function redactModelText(text: string, extra: (string | undefined)[] = []): string {
  const secrets = [...extra.filter((s): s is string => !!s && s.length >= MIN_SECRET_LENGTH), ...configuredSecrets()].sort((a, b) => b.length - a.length);
  return redactString(text, secrets);
}

/** What every read path calls on run data before it leaves the server. */
export function redactForClient<T>(value: T): T {
  return redactSecrets(value, configuredSecrets());
}
