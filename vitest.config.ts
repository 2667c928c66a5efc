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
  },
});
