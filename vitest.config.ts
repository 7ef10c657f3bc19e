import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Host adapters under unit test talk to a small fake of the vscode API.
    alias: { vscode: fileURLToPath(new URL('./test/host/vscodeShim.ts', import.meta.url)) },
  },
  test: {
    include: ['test/**/*.test.ts'],
    // test/e2e holds what needs more than Node and git (code-server, Chromium, Debian's pre-commit): `npm run test:e2e`.
    exclude: ['test/e2e/**', 'node_modules/**'],
    testTimeout: 20_000,
    pool: 'forks',
    globalSetup: ['test/cacheHome.ts'],
  },
});
