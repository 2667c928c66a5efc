import { defineConfig } from 'vitest/config';

// Every test file, in two projects. Most files leave nothing behind (servers, databases and
// browser pages are closed, environment variables put back), so they share workers: a worker
// spawned, and the modules they share evaluated, once per worker rather than once per file.
// Files that replace modules (vi.mock of electron), spy on globals or build a DOM (jsdom) get
// a worker each, as Vitest does by default.
const ISOLATED = ['test/unit/app/**/*.test.ts', 'test/unit/renderer/**/*.test.tsx'];

export default defineConfig({
  test: {
    environment: 'node',
    reporters: ['default', './test/support/summary-reporter.ts'],
    // Child processes rather than threads: tests spawn, kill and wait for processes of their own,
    // and a native addon (better-sqlite3, keytar) is loaded once per process.
    pool: 'forks',
    // Both cores: most of a file's time is waiting (a gateway's delay, a poll, a browser), which
    // another file can use. Vitest's default on two cores is one.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // A screen's answer under a loaded machine (CI beside other work) can take seconds: the
    // default of 1 s failed a keychain screen test at load 10. A poll still ends as soon as it
    // holds; only a failure takes longer to report.
    expect: { poll: { timeout: 10_000 } },
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: ISOLATED,
          isolate: false,
          // One headless Chromium per worker (test/harness/harness.ts closeSharedBrowser).
          env: { PAYDESK_SHARED_WORKER: '1' },
        },
      },
      {
        extends: true,
        test: { name: 'isolated', include: ISOLATED },
      },
    ],
  },
});
