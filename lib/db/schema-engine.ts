import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';

/**
 * Prisma's own schema engine, loaded from its WebAssembly build.
 * The CLI would download a native binary from a host this machine cannot reach;
 * the wasm build applies and generates migrations exactly like `prisma migrate`.
 */
type WasmModule = typeof import('@prisma/schema-engine-wasm');
export type SchemaEngine = Awaited<ReturnType<WasmModule['SchemaEngine']['new']>>;

let wasmModule: Promise<WasmModule> | null = null;
let lastPanic: string | null = null;

function loadWasm(): Promise<WasmModule> {
  wasmModule ??= (async () => {
    const require = createRequire(import.meta.url);
    const pkgDir = path.dirname(require.resolve('@prisma/schema-engine-wasm'));
    // The package entry imports a .wasm file, which Node refuses; wire the glue by hand.
    const bg = (await import(/* webpackIgnore: true */ path.join(pkgDir, 'schema_engine_bg.js'))) as WasmModule & { __wbg_set_wasm(w: unknown): void };
    // The engine reports Rust panics through this global; keep the message for the error we throw.
    (globalThis as { PRISMA_WASM_PANIC_REGISTRY?: unknown }).PRISMA_WASM_PANIC_REGISTRY = {
      set_message: (message: string) => {
        lastPanic = message;
      },
    };
    const bytes = fs.readFileSync(path.join(pkgDir, 'schema_engine_bg.wasm'));
    const { instance } = await WebAssembly.instantiate(bytes, {
      './schema_engine_bg.js': bg as unknown as WebAssembly.ModuleImports,
    });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start?: () => void }).__wbindgen_start?.();
    return bg;
  })();
  return wasmModule;
}

export const SCHEMA_PATH = path.resolve('prisma', 'schema.prisma');
export const MIGRATIONS_DIR = path.resolve('prisma', 'migrations');
export const NO_FILTERS = { externalTables: [], externalEnums: [] };

export function readSchemaFiles() {
  return [{ path: 'schema.prisma', content: fs.readFileSync(SCHEMA_PATH, 'utf8') }];
}

/**
 * Explicit fields rather than a connection string: the adapter opens its shadow
 * database by overriding `database`, which a connection string would shadow.
 */
function poolConfigFromUrl(url: string) {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 5432),
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.slice(1)),
    ssl: u.searchParams.get('sslmode') === 'require' ? { rejectUnauthorized: false } : undefined,
    max: 2,
  };
}

const PG_CHAR_OID = 18;
const CHAR_MARKER_OID = 0x7fff0012; // ≥ 16384: the adapter reads it as text instead of refusing it
const COLUMN_TYPE_CHARACTER = 6; // ColumnTypeEnum.Character of @prisma/driver-adapter-utils

type Queryable = {
  performIO(query: object): Promise<pg.QueryResult>;
  queryRaw(query: object): Promise<{ columnTypes: number[] }>;
};
let charPatched = false;

/**
 * The engine's schema describer reads catalog columns of PostgreSQL's internal
 * `"char"` type, which adapter-pg 7 refuses; report them to the engine as
 * Character. Patched once on the adapter's shared queryable base class.
 */
function teachAdapterTheCharType(adapter: object) {
  if (charPatched) return;
  charPatched = true;
  let proto = Object.getPrototypeOf(adapter);
  while (proto && !Object.hasOwn(proto, 'performIO')) proto = Object.getPrototypeOf(proto);
  if (!proto) return;
  const base = proto as Queryable;
  const charColumns = new WeakMap<object, number[]>();
  const performIO = base.performIO;
  const queryRaw = base.queryRaw;
  base.performIO = async function (this: Queryable, query: object) {
    const res = await performIO.call(this, query);
    const idx: number[] = [];
    res.fields.forEach((f, i) => {
      if (f.dataTypeID === PG_CHAR_OID) {
        f.dataTypeID = CHAR_MARKER_OID;
        idx.push(i);
      }
    });
    if (idx.length) charColumns.set(query, idx);
    return res;
  };
  base.queryRaw = async function (this: Queryable, query: object) {
    const rs = await queryRaw.call(this, query);
    for (const i of charColumns.get(query) ?? []) rs.columnTypes[i] = COLUMN_TYPE_CHARACTER;
    return rs;
  };
}

function enginePool(config: pg.PoolConfig) {
  const pool = new pg.Pool(config);
  pool.on('error', () => undefined); // idle clients of a dropped shadow database
  return pool;
}

/**
 * A factory whose shadow database is closed before it is dropped (the adapter's
 * own drops it while its pool still holds a connection, which PostgreSQL refuses).
 */
function engineAdapterFactory(url: string): { factory: PrismaPg; close(): Promise<void> } {
  const base = poolConfigFromUrl(url);
  const pool = enginePool(base);
  const factory = new PrismaPg(pool);
  factory.connectToShadowDb = async () => {
    const database = `hopscope_shadow_${randomUUID().replace(/-/g, '')}`;
    await runAdminSql(base, `create database "${database}"`);
    const shadowPool = enginePool({ ...base, database });
    const adapter = await new PrismaPg(shadowPool).connect();
    teachAdapterTheCharType(adapter);
    adapter.dispose = async () => {
      await shadowPool.end();
      await runAdminSql(base, `drop database if exists "${database}" with (force)`);
    };
    return adapter;
  };
  return { factory, close: () => pool.end() };
}

async function runAdminSql(config: pg.ClientConfig, sql: string) {
  const client = new pg.Client(config);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Runs `fn` with a schema engine connected to `url`, and always releases the connection. */
export async function withSchemaEngine<T>(url: string, fn: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  const wasm = await loadWasm();
  const { factory: adapterFactory, close } = engineAdapterFactory(url);
  const factory = bindMigrationAwareSqlAdapterFactory(adapterFactory);
  const files = readSchemaFiles();
  const logs: string[] = [];
  const engine = await wasm.SchemaEngine.new(
    { datamodels: files.map((f) => [f.path, f.content] as [string, string]) },
    (line: string) => logs.push(line),
    factory,
  );
  try {
    return await fn(engine);
  } catch (e) {
    if (lastPanic) throw new Error(`Prisma schema engine panicked: ${lastPanic}`, { cause: e });
    throw e;
  } finally {
    engine.free();
    await close();
  }
}

/** The migrations folder in the form the engine takes (the standard prisma/migrations layout). */
export function readMigrationList() {
  const dirs = fs.existsSync(MIGRATIONS_DIR)
    ? fs
        .readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  const lockPath = path.join(MIGRATIONS_DIR, 'migration_lock.toml');
  return {
    baseDir: MIGRATIONS_DIR,
    lockfile: { path: 'migration_lock.toml', content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories: dirs.map((name) => {
      const file = path.join(MIGRATIONS_DIR, name, 'migration.sql');
      return {
        path: name,
        migrationFile: {
          path: 'migration.sql',
          content: fs.existsSync(file)
            ? ({ tag: 'ok', value: fs.readFileSync(file, 'utf8') } as const)
            : ({ tag: 'error', value: 'migration.sql is missing' } as const),
        },
      };
    }),
  };
}
