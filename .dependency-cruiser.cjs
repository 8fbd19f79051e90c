/**
 * Import rules (docs/architecture.md): no cycles, only stores and lib/db touch the
 * database, and imports go down the layers
 *   app, components → lib services → methods → channels/llm/trace → kg/corpus → stores → lib/db
 * (lib/nlp with kg/corpus) with lib/base and lib/config.ts usable from every layer.
 *
 * `npm run lint:deps` fails on any violation not recorded in
 * .dependency-cruiser-known-violations.json (the violations that predate a rule, one
 * from → to pair each). That list only shrinks: after removing violations, rewrite it
 * with `npm run lint:deps:baseline` and commit the smaller file.
 */

/** A store: `lib/<domain>/store.ts` or a module under `lib/<domain>/store/`. */
const STORE = ['^lib/.*/store\\.ts$', '^lib/.*/store/'];
const DB = '^lib/db/';
/**
 * An npm package, wherever it resolves: `node_modules/…` under the tree, or a path outside it
 * when node_modules is a link (a shared install), with its type package.
 */
const npm = (names) => `(^|/)node_modules/(@types/)?(${names})/`;
/** The database client; the schema's enums (lib/db/generated/enums.ts) are plain values any layer may use. */
const DB_CLIENT = {
  path: ['^lib/db/client\\.ts$', '^lib/db/generated/', npm('pg|pg-copy-streams|@prisma/client|@prisma/adapter-pg')],
  pathNot: ['^lib/db/generated/(enums|browser)\\.ts$'],
};
/** The KG import streams COPY on the connection its store opens (lib/kg/store/bulk.ts): the one named exception. */
const BULK_IMPORT = '^lib/kg/import/';

const UI = '^(app|components)/';
const SERVICES = '^lib/(runs|eval|reproduce|auth|api|security)/';
const METHODS = '^lib/(methods|verify)/';
const MIDDLE = '^lib/(channels|llm|trace)/';
/** English analysis (lib/nlp) is a tool of linking, so it sits with the KG. */
const DATA = '^lib/(kg|corpus|nlp)/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle of imports (type-only imports included) makes the modules one unit: move the shared part down a layer.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'db-only-in-stores',
      severity: 'error',
      comment: "Only a store (lib/**/store.ts, lib/**/store/**) and lib/db touch the database; everything else calls its domain's store.",
      from: { path: '^(lib|app|components|scripts)/', pathNot: [...STORE, DB, BULK_IMPORT] },
      to: DB_CLIENT,
    },
    {
      name: 'bulk-import-streams-only',
      severity: 'error',
      comment:
        'The KG import streams COPY on the connection lib/kg/store/bulk.ts opens: it may name that connection (pg) and stream on it (pg-copy-streams), nothing else of the database client.',
      from: { path: BULK_IMPORT },
      to: { path: DB_CLIENT.path, pathNot: [...DB_CLIENT.pathNot, npm('pg|pg-copy-streams')] },
    },
    {
      name: 'lib-not-to-ui',
      severity: 'error',
      comment: 'lib/ is below the pages and components.',
      from: { path: '^lib/' },
      to: { path: UI },
    },
    {
      name: 'domain-not-to-services',
      severity: 'error',
      comment:
        'Methods, channels, the model layer, the trace, the KG and the corpus do not reach up into runs, eval, reproduce, auth or the API (their stores, a layer below, excepted).',
      from: { path: [METHODS, MIDDLE, DATA] },
      to: { path: SERVICES, pathNot: STORE },
    },
    {
      name: 'middle-not-to-methods',
      severity: 'error',
      comment: 'Channels, the model layer and the trace serve every method and know none.',
      from: { path: [MIDDLE, DATA] },
      to: { path: METHODS },
    },
    {
      name: 'data-not-to-middle',
      severity: 'error',
      comment: 'The KG and the corpus are below channels, the model layer and the trace.',
      from: { path: DATA },
      to: { path: MIDDLE },
    },
    {
      name: 'db-at-the-bottom',
      severity: 'error',
      comment: 'lib/db imports nothing of the application but lib/base and the configuration.',
      from: { path: DB },
      to: { path: '^lib/', pathNot: [DB, '^lib/base/', '^lib/config\\.ts$'] },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to nothing.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // npm packages and the generated client stay in the graph as leaves (not followed), so the
    // database rule sees an import of them; excluding them would hide it.
    doNotFollow: { path: ['node_modules', '^lib/db/generated/'] },
    exclude: { path: '^(\\.next|\\.data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
