// Browser-side access to the JSON routes. Errors carry the status and the
// server's message, so views can tell "not found" from "failed".

export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

export async function fetchJson<T>(url: string, init?: RequestInit): Promise<T> {
  let response: Response;
  try {
    // A write says it is JSON even without a body: the server refuses other content types (lib/security/request-guard.ts).
    const write = !!init?.method && !['GET', 'HEAD'].includes(init.method.toUpperCase());
    response = await fetch(url, {
      ...init,
      headers: { accept: 'application/json', ...(write ? { 'content-type': 'application/json' } : {}), ...init?.headers },
    });
  } catch {
    throw new ApiRequestError(0, 'The server could not be reached. Check that Hopscope is running.');
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const message =
      typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string' ? body.error : `Request failed (${response.status})`;
    throw new ApiRequestError(response.status, message);
  }
  return body as T;
}

function withQuery(path: string, query: Record<string, string | number | readonly string[] | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length) params.set(key, value.join(','));
    } else if (value !== '') params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** URLs of the KG routes. */
export const kgApiUrls = {
  search: (q: string, opts: { kinds?: readonly string[]; limit?: number } = {}) => withQuery('/api/kg/search', { q, kinds: opts.kinds, limit: opts.limit }),
  node: (id: string) => `/api/kg/nodes/${encodeURIComponent(id)}`,
  neighbors: (
    id: string,
    opts: { metaedges?: readonly string[]; direction?: 'out' | 'in' | 'both'; limit?: number; offset?: number; order?: 'degree' | 'id' | 'diverse' } = {},
  ) =>
    withQuery(`/api/kg/nodes/${encodeURIComponent(id)}/neighbors`, {
      metaedges: opts.metaedges,
      direction: opts.direction,
      limit: opts.limit,
      offset: opts.offset,
      order: opts.order,
    }),
};
