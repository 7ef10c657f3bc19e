// The vitest suites of `npm run test:e2e` (test/e2e/system): they need tools
// beyond Node and git (Debian's pre-commit), which .ci/run installs, so
// `npm test` stays runnable on a machine with Node and git alone.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/e2e/system/**/*.test.ts'],
    testTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/cacheHome.ts'],
  },
});
