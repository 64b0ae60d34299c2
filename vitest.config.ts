import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const shared = fileURLToPath(new URL('./packages/shared/src/index.ts', import.meta.url));
const webSrc = fileURLToPath(new URL('./apps/web/src', import.meta.url));

/** Unit tests (shared, web) and API tests (server): `npm test` runs them all. */
export default defineConfig({
  test: {
    // One worker per core (Vitest's default leaves one idle): the suites wait on password hashes, SQLite
    // files and PostgreSQL as much as on the CPU, and each worker has its own template database.
    maxWorkers: '100%',
    projects: [
      // docs/deploy/nginx.conf run by Debian's nginx (scripts/nginx-config.test.mjs).
      { test: { name: 'deploy', environment: 'node', include: ['scripts/**/*.test.mjs'], testTimeout: 30_000 } },
      {
        resolve: { alias: { '@portal/shared': shared } },
        test: { name: 'shared', environment: 'node', include: ['packages/shared/src/**/*.test.ts'] },
      },
      {
        resolve: { alias: { '@portal/shared': shared } },
        test: {
          name: 'server',
          environment: 'node',
          include: ['apps/server/src/**/*.test.ts'],
          // One template database per worker, copied for each test app (testing/test-templates.ts).
          globalSetup: ['apps/server/src/testing/global-setup.ts'],
          // A worker loads the server's modules once for all its files instead of once per file (most of
          // the suite's time was imports). Files share no state: each builds its own app on its own copy
          // of the worker's template database, and restores what it stubs.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias: { '@portal/shared': shared, '@': webSrc } },
        test: {
          name: 'web',
          environment: 'happy-dom',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          setupFiles: ['apps/web/src/testing/setup.ts'],
          // antd gives every element the same id under NODE_ENV=test, which ties every dialog to
          // one title (aria-labelledby); the tests find dialogs and fields by their names.
          env: { NODE_ENV: 'development' },
          // Page tests render antd and load lazy modules: on a busy 2-core CI runner one can take
          // well over vitest's 5 s default without anything being wrong.
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});
