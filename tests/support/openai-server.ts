import http from 'node:http';
import type { AddressInfo } from 'node:net';

// No test-runner imports here: the benchmark (scripts/bench) serves its model mode from this server too.

/**
 * A real HTTP server speaking the OpenAI chat-completions and embeddings protocol, driven by a
 * script, so the openai backend is tested through the actual `openai` client
 * and network stack: JSON and SSE responses, errors, Retry-After, hangs,
 * dropped connections and servers that refuse optional parameters.
 */

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
}

export type ScriptedReply =
  /** The assistant text; streamed as one chunk when the request asked for a stream. */
  | { kind: 'ok'; text: string; usage: Usage | null; finishReason: string; delayMs?: number }
  /** The assistant text in these chunks; joined when the request was not streamed. */
  | { kind: 'stream'; chunks: string[]; delayMs: number; stallAfter: number | null; usage: Usage | null; finishReason: string }
  | { kind: 'status'; status: number; message: string; retryAfter: string | null }
  /** 200 with a JSON content type and a body that is not JSON. */
  | { kind: 'malformed' }
  /** Accepts the request and never answers. */
  | { kind: 'hang' }
  /** Closes the connection without an HTTP response. */
  | { kind: 'drop' };

/** The replies that fail a request, the same on every route. */
export type ScriptedFailure = Extract<ScriptedReply, { kind: 'status' | 'malformed' | 'hang' | 'drop' }>;

export const reply = {
  /** `delayMs`: answer only after this long (a slow model). */
  ok: (text: string, opts: { usage?: Usage | null; finishReason?: string; delayMs?: number } = {}): ScriptedReply => ({
    kind: 'ok',
    text,
    usage: opts.usage === undefined ? { prompt_tokens: 10, completion_tokens: 5 } : opts.usage,
    finishReason: opts.finishReason ?? 'stop',
    ...(opts.delayMs ? { delayMs: opts.delayMs } : {}),
  }),
  /** `stallAfter`: go silent (connection open) after that many chunks, as an overloaded server can. */
  stream: (chunks: string[], opts: { delayMs?: number; stallAfter?: number; usage?: Usage | null; finishReason?: string } = {}): ScriptedReply => ({
    kind: 'stream',
    chunks,
    delayMs: opts.delayMs ?? 0,
    stallAfter: opts.stallAfter ?? null,
    usage: opts.usage === undefined ? { prompt_tokens: 10, completion_tokens: chunks.length } : opts.usage,
    finishReason: opts.finishReason ?? 'stop',
  }),
  status: (status: number, opts: { message?: string; retryAfter?: number | string } = {}): ScriptedFailure => ({
    kind: 'status',
    status,
    message: opts.message ?? `scripted ${status}`,
    retryAfter: opts.retryAfter === undefined ? null : String(opts.retryAfter),
  }),
  malformed: (): ScriptedFailure => ({ kind: 'malformed' }),
  hang: (): ScriptedFailure => ({ kind: 'hang' }),
  drop: (): ScriptedFailure => ({ kind: 'drop' }),
};

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body. */
  body: Record<string, any>;
  receivedAt: number;
  /** performance.now() when the request's headers arrived, before its body was read. */
  arrivedAt: number;
  /** Set when the client closed the connection before the reply was complete (a stopped stream). */
  closedEarly: boolean;
}

/** Replies in order, or one per request (a promise: the server answers when it settles, as a slow model would). */
export type Script = ScriptedReply[] | ((request: RecordedRequest, index: number) => ScriptedReply | Promise<ScriptedReply>);

/** How /v1/embeddings answers one request: a vector per input, or a failure as chat replies fail. */
export type EmbeddingReply = { kind: 'vectors' } | ScriptedFailure;

export interface EmbeddingScript {
  /** Replies in order (then vectors), or one per request; default: always vectors. */
  replies?: EmbeddingReply[] | ((request: RecordedRequest, index: number) => EmbeddingReply);
  /** The vector of one input; default: its hashed bag of words (bagOfWordsVector). */
  vector?: (text: string) => number[];
}

export interface ScriptedServerOptions {
  /** Refuse any request carrying one of these body keys with a 400 naming it, as servers without that feature do. */
  unsupportedParams?: string[];
  /** How POST /v1/embeddings answers; it answers with hashed bags of words when not given. */
  embeddings?: EmbeddingScript;
}

export const EMBEDDING_DIMS = 256;

/**
 * A deterministic stand-in for a sentence embedding: each lower-case word adds
 * ±1 at a hashed position, then the vector is scaled to length 1. Texts that
 * share words are close, texts that share none are near orthogonal.
 */
export function bagOfWordsVector(text: string, dims = EMBEDDING_DIMS): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let h = 2166136261;
    for (const c of word) h = Math.imul(h ^ c.codePointAt(0)!, 16777619);
    v[(h >>> 1) % dims] += h & 1 ? 1 : -1;
  }
  const norm = Math.hypot(...v);
  return norm ? v.map((x) => x / norm) : v;
}

function sendEmbeddings(res: http.ServerResponse, request: RecordedRequest, vector: (text: string) => number[]) {
  const input: string[] = Array.isArray(request.body.input) ? request.body.input : [request.body.input];
  const base64 = request.body.encoding_format === 'base64';
  const encode = (v: number[]) => (base64 ? Buffer.from(new Float32Array(v).buffer).toString('base64') : v);
  const tokens = input.reduce((n, t) => n + t.split(/\s+/).length, 0);
  sendJson(res, 200, {
    object: 'list',
    model: request.body.model,
    data: input.map((text, index) => ({ object: 'embedding', index, embedding: encode(vector(text)) })),
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}

export interface ScriptedServer {
  /** Base URL for the openai client, ending in /v1. */
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function completionId(index: number) {
  return `chatcmpl-scripted-${index}`;
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function sendError(res: http.ServerResponse, status: number, message: string, param: string | null, retryAfter: string | null) {
  const type = status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
  sendJson(res, status, { error: { message, type, param, code: null } }, retryAfter ? { 'retry-after': retryAfter } : {});
}

function completion(index: number, model: string, text: string, finishReason: string, usage: Usage | null) {
  return {
    id: completionId(index),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: finishReason, logprobs: null }],
    ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
  };
}

async function sendStream(
  res: http.ServerResponse,
  request: RecordedRequest,
  index: number,
  chunks: string[],
  opts: { delayMs: number; stallAfter: number | null; usage: Usage | null; finishReason: string },
) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const chunk = (delta: Record<string, unknown>, finishReason: string | null, extra: Record<string, unknown> = {}) => ({
    id: completionId(index),
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: request.body.model,
    choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
    ...extra,
  });
  const write = (data: unknown) => !res.destroyed && res.write(`data: ${JSON.stringify(data)}\n\n`);
  write(chunk({ role: 'assistant', content: '' }, null));
  for (const [sent, piece] of chunks.entries()) {
    if (sent === opts.stallAfter) return;
    if (opts.delayMs) await sleep(opts.delayMs);
    if (res.destroyed) return;
    write(chunk({ content: piece }, null));
  }
  write(chunk({}, opts.finishReason));
  if (opts.usage && request.body.stream_options?.include_usage) {
    const usage = { ...opts.usage, total_tokens: opts.usage.prompt_tokens + opts.usage.completion_tokens };
    write({ ...chunk({}, null), choices: [], usage });
  }
  if (!res.destroyed) res.end('data: [DONE]\n\n');
}

/** The scripted failures, the same on every route. */
function fail(res: http.ServerResponse, req: http.IncomingMessage, step: ScriptedFailure) {
  switch (step.kind) {
    case 'status':
      return sendError(res, step.status, step.message, null, step.retryAfter);
    case 'malformed':
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"id": "chatcmpl-broken", "choices": [');
    case 'hang':
      return;
    case 'drop':
      return req.socket.destroy();
  }
}

export async function startScriptedOpenAIServer(script: Script, options: ScriptedServerOptions = {}): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const queue = Array.isArray(script) ? [...script] : null;
  const embeddingScript = options.embeddings?.replies;
  const embeddingQueue = Array.isArray(embeddingScript) ? [...embeddingScript] : null;

  const server = http.createServer(async (req, res) => {
    const arrivedAt = performance.now();
    let raw = '';
    for await (const part of req) raw += part;
    const request: RecordedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: raw ? JSON.parse(raw) : {},
      receivedAt: Date.now(),
      arrivedAt,
      closedEarly: false,
    };
    const index = requests.push(request) - 1;
    res.on('close', () => {
      if (!res.writableFinished) request.closedEarly = true;
    });

    if (req.method === 'POST' && req.url?.endsWith('/embeddings')) {
      const step: EmbeddingReply = (typeof embeddingScript === 'function' ? embeddingScript(request, index) : embeddingQueue?.shift()) ?? { kind: 'vectors' };
      if (step.kind === 'vectors') return sendEmbeddings(res, request, options.embeddings?.vector ?? ((t) => bagOfWordsVector(t)));
      return fail(res, req, step);
    }
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      return sendError(res, 404, `no route ${req.method} ${req.url}`, null, null);
    }
    const refused = options.unsupportedParams?.find((param) => param in request.body);
    if (refused) return sendError(res, 400, `${refused} is not supported by this server`, refused, null);

    // An exhausted script answers loudly instead of inventing a reply.
    const step = queue ? queue.shift() : await (script as Exclude<Script, ScriptedReply[]>)(request, index);
    if (!step) return sendError(res, 500, `script exhausted at request ${index}`, null, null);

    switch (step.kind) {
      case 'ok':
        if (step.delayMs) await sleep(step.delayMs);
        if (request.body.stream)
          return sendStream(res, request, index, [step.text], { delayMs: 0, stallAfter: null, usage: step.usage, finishReason: step.finishReason });
        return sendJson(res, 200, completion(index, request.body.model, step.text, step.finishReason, step.usage));
      case 'stream':
        if (request.body.stream) return sendStream(res, request, index, step.chunks, step);
        return sendJson(res, 200, completion(index, request.body.model, step.chunks.join(''), step.finishReason, step.usage));
      default:
        return fail(res, req, step);
    }
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        // Hanging requests would otherwise keep the server (and the test run) alive.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The name a JSON-output request gave its schema: the template id, so a script can answer by role. */
export const schemaNameOf = (r: RecordedRequest): string => String(r.body.response_format?.json_schema?.name ?? '');

/**
 * Points the model configuration (process env, read per run) at a scripted
 * server, as a deployment's OPENAI_BASE_URL would; returns the restore function.
 */
export function setScriptedModelEnv(
  server: Pick<ScriptedServer, 'baseUrl'>,
  vars: { model?: string; apiKey?: string; embeddingModel?: string } = {},
): () => void {
  const next: Record<string, string | undefined> = {
    OPENAI_BASE_URL: server.baseUrl,
    HOPSCOPE_MODEL: vars.model ?? 'scripted-model',
    OPENAI_API_KEY: vars.apiKey,
    HOPSCOPE_EMBEDDING_MODEL: vars.embeddingModel,
  };
  const saved = Object.fromEntries(Object.keys(next).map((k) => [k, process.env[k]]));
  const apply = (vals: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(vals)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  apply(next);
  return () => apply(saved);
}
