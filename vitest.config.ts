import { defineConfig } from 'vitest/config';

/**
 * Test levels (design.md rule 11): *.test.ts pure units; *.int.test.ts against the real services;
 * *.serial.int.test.ts stop and start services (Kafka) and so run alone, after the rest (one file at a time); *.e2e.test.ts
 * drive the built console in headless chromium, one backend and one chromium for the level.
 */
export default defineConfig({
  test: {
    // 2 cores: at most two test files at once; scripts/test.sh runs the serial and e2e levels one file at a time
    maxWorkers: 2,
    minWorkers: 1,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{events,services,scripts}/**/*.test.ts', 'console/src/**/*.test.{ts,tsx}'],
          exclude: ['**/node_modules/**', '**/*.int.test.ts', '**/*.e2e.test.ts'],
        },
      },
      {
        test: {
          name: 'int',
          globalSetup: ['scripts/test-support/global-setup.ts'],
          include: ['{events,services,scripts}/**/*.int.test.ts'],
          exclude: ['**/node_modules/**', '**/*.serial.int.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          // alone this does not make files share a process: vitest 3.2's forks pool takes isolation from the root's
          // poolOptions, which scripts/test.sh sets for this level (docs/testing.md "Files sharing a fork")
          isolate: false,
        },
      },
      {
        test: {
          name: 'serial',
          globalSetup: ['scripts/test-support/global-setup.ts'],
          include: ['{events,services,scripts}/**/*.serial.int.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          pool: 'forks',
        },
      },
      {
        test: {
          name: 'e2e',
          globalSetup: ['scripts/test-support/global-setup.ts'],
          include: ['console/**/*.e2e.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // one process for every browser test file, its modules kept between files: the harness's backend and
          // chromium start once for the level (console/test/harness.ts)
          pool: 'forks',
          isolate: false,
          poolOptions: { forks: { singleFork: true } },
        },
      },
    ],
  },
});
