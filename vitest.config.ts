import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['contracts/src/**/*.test.ts', 'ratings/src/**/*.test.ts', 'platform/src/**/*.test.ts', 'server/src/**/*.test.ts', 'worker/src/**/*.test.ts', 'client/src/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // Suites share one Redis and one PostgreSQL: run files one after another.
          fileParallelism: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          globalSetup: ['test/helpers/global-setup.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          // One browser and one Duet per file, files one after another: two cores.
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          globalSetup: ['test/helpers/global-setup.ts', 'test/e2e/build-client.ts'],
        },
      },
      {
        test: {
          // The Compose stack on a real container engine: run after the others (`npm test`), alone.
          name: 'deployment',
          include: ['test/deployment/**/*.test.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 300_000,
          globalSetup: ['test/deployment/setup.ts'],
        },
      },
    ],
  },
});
