import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    reporters: ['default', './test/support/summary-reporter.ts'],
    // Integration tests start real HTTP servers on loopback; keep them from competing for 2 cores.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // A screen's answer under a loaded machine (CI beside other work) can take seconds: the
    // default of 1 s failed a keychain screen test at load 10. A poll still ends as soon as it
    // holds; only a failure takes longer to report.
    expect: { poll: { timeout: 10_000 } },
  },
});
