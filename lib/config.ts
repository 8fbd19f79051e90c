import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** A DNS name, an IPv4 address or a bracketed IPv6 address. */
const HOST_NAME = /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)$/;

/** Environment configuration, validated once at the boundary. */
const EnvSchema = z.object({
  DATABASE_URL: z.string().url().optional(),
  HOPSCOPE_PG_PORT: z.coerce.number().int().positive().default(54329),
  HOPSCOPE_PG_DIR: z.string().optional(),
  HOPSCOPE_DATA_DIR: z.string().optional(),
  HOPSCOPE_LOAD_KG: z.enum(['auto', 'demo', 'none']).default('auto'),
  OPENAI_BASE_URL: z
    .string()
    .url()
    .refine((u) => /^https?:$/i.test(new URL(u).protocol), 'must be an http(s) URL')
    .optional(),
  OPENAI_API_KEY: z.string().optional(),
  HOPSCOPE_MODEL: z.string().optional(),
  HOPSCOPE_MODEL_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  /** Set: similarity scores (ReGraM's Sim, BioWeave's s_rel and Sim) use this model's /v1/embeddings; unset: a labelled lexical stand-in. */
  HOPSCOPE_EMBEDDING_MODEL: z.string().min(1).optional(),
  /** The embedding endpoint, when not the chat endpoint (OPENAI_BASE_URL). */
  HOPSCOPE_EMBEDDING_BASE_URL: z
    .string()
    .url()
    .refine((u) => /^https?:$/i.test(new URL(u).protocol), 'must be an http(s) URL')
    .optional(),
  /** Its key, when not OPENAI_API_KEY. */
  HOPSCOPE_EMBEDDING_API_KEY: z.string().optional(),
  /** Model calls one run has in flight at once: a method's independent calls (EIGEN-1's proposers, K2V's criteria) go out together up to this. */
  HOPSCOPE_MODEL_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
  HOPSCOPE_WORKER_CONCURRENCY: z.coerce.number().int().positive().default(4),
  /** on: `npm start` runs the workers in a process of its own, restarted when it dies; inline: in the launcher's process; off: none, runs and evaluations wait for `npm run worker` processes. */
  HOPSCOPE_WORKERS: z.enum(['on', 'inline', 'off']).default('on'),
  /** The queue runs go through (lib/runs/queue.ts): processes that share it share the runs. */
  HOPSCOPE_RUN_QUEUE: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,60}$/, 'letters, digits, "_", "." and "-" only')
    .default('hopscope-runs'),
  /** on: the web server answers a finished run's page and JSON reads from what it sent for the run's state (lib/runs/kept-reads.ts); off: every read renders. */
  HOPSCOPE_KEPT_READS: z.enum(['on', 'off']).default('on'),
  /** A file the web server writes its event-loop delay to, between two SIGUSR2 (the load bench's probe, scripts/web.ts). */
  HOPSCOPE_WEB_LOOP_DELAY_FILE: z.string().min(1).optional(),
  /** A file the web server writes a CPU profile to, of the same window (`npm run bench -- --load --load-profile FILE`). */
  HOPSCOPE_WEB_PROFILE_FILE: z.string().min(1).optional(),
  PORT: z.coerce.number().int().positive().default(3000),
  /** The address the web server listens on; anything but loopback needs sign-in (AUTH_SECRET) or HOPSCOPE_ALLOW_UNAUTHENTICATED=1. */
  HOPSCOPE_HOST: z.string().min(1).default('127.0.0.1'),
  /** Sign-in: set to require it (the key that signs session cookies; 32+ random characters). */
  AUTH_SECRET: z.string().min(32, 'AUTH_SECRET must hold at least 32 characters').optional(),
  HOPSCOPE_ALLOW_UNAUTHENTICATED: z
    .enum(['0', '1', 'true', 'false'])
    .optional()
    .transform((v) => v === '1' || v === 'true'),
  /**
   * The host names requests may name (Host header; comma-separated, no port): without sign-in, loopback names
   * (localhost, 127.0.0.1, ::1) and HOPSCOPE_HOST by default, so a DNS-rebound name is refused (lib/security/request-guard.ts).
   */
  HOPSCOPE_ALLOWED_HOSTS: z
    .string()
    .optional()
    .transform((v) =>
      v
        ? v
            .split(',')
            .map((h) => h.trim().toLowerCase())
            .filter(Boolean)
        : undefined,
    )
    .refine(
      (hosts) => !hosts || hosts.every((h) => HOST_NAME.test(h)),
      'a comma-separated list of host names (no scheme, port or path), e.g. lab.example.org,10.0.0.5',
    ),
  /** The public URL sign-in redirects are built from; unset, they are built from the request's own Host. */
  NEXTAUTH_URL: z
    .string()
    .url()
    .refine((u) => /^https?:$/i.test(new URL(u).protocol), 'must be an http(s) URL')
    .optional(),
});

export type HopscopeEnv = z.infer<typeof EnvSchema>;

const ENV_KEYS = Object.keys(EnvSchema.shape);
/** The last environment read: its variables' values and what they parsed to. */
let lastRead: { values: (string | undefined)[]; env: HopscopeEnv } | null = null;

/**
 * The configuration, parsed again only when one of its variables changed since the last read: a
 * request reads it several times (≈ 0.2 ms a parse, a run submission paid four).
 */
export function readEnv(env: NodeJS.ProcessEnv = process.env): HopscopeEnv {
  const values = ENV_KEYS.map((k) => env[k]);
  if (lastRead && values.every((v, i) => v === lastRead!.values[i])) return lastRead.env;
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  lastRead = { values, env: Object.freeze(parsed.data) };
  return lastRead.env;
}

/** Whether sign-in is required (AUTH_SECRET set). */
export function authConfigured(env: HopscopeEnv = readEnv()): boolean {
  return !!env.AUTH_SECRET;
}

export const PROJECT_ROOT = process.cwd();

/** The data directory: HOPSCOPE_DATA_DIR, else ../shared/data when it exists, else none. */
export function resolveDataDir(env: HopscopeEnv = readEnv()): string | null {
  if (env.HOPSCOPE_DATA_DIR) return path.resolve(env.HOPSCOPE_DATA_DIR);
  const shared = path.resolve(PROJECT_ROOT, '..', 'shared', 'data');
  return fs.existsSync(shared) ? shared : null;
}
