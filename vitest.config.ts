import path from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = { '@': path.resolve(import.meta.dirname) };

/**
 * Two projects: `unit` needs no database (pure code, colocated `lib/**\/*.test.ts`
 * or under tests/unit) and runs in seconds; `integration` starts the test
 * PostgreSQL and loads the knowledge base once in its global setup.
 * `npm run test:unit` / `npm run test:integration` pick one; `vitest run` runs both.
 */
export default defineConfig({
  resolve: { alias },
  test: {
    testTimeout: 60_000,
    hookTimeout: 300_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'lib/**/*.test.ts', 'components/**/*.test.ts'],
          setupFiles: ['tests/support/hetionet-metagraph.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: ['tests/support/global-setup.ts'],
          setupFiles: ['tests/support/hetionet-metagraph.ts'],
        },
      },
    ],
  },
});
