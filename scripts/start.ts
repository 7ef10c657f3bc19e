// `npm start`: the whole product in a sandbox. Builds the VSIX, starts the
// emulator with its seeded accounts, and opens a sandbox VS Code (code-server)
// with Keyward installed, pointed at the emulator, the sandbox keys offered for
// import from the environment, and a sample workspace with a generated key in
// it. Ctrl-C stops everything it started.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startEmulator } from '../test/emulator/server.ts';
import { startCodeServer } from '../test/e2e/harness/codeServer.ts';
import { CACHE, ensureToolchain } from '../test/e2e/harness/install.ts';
import { cleanupAll, onCleanup } from '../test/e2e/harness/processes.ts';
import { createWorkspace } from '../test/e2e/harness/workspace.ts';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '0' }, 'emulator-port': { type: 'string', default: '0' } },
});

try {
  process.stdout.write('keyward: building the extension...\n');
  execFileSync('npm', ['run', '-s', 'package'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const tools = ensureToolchain();
  mkdirSync(join(CACHE, 'sandbox'), { recursive: true });
  const runDir = mkdtempSync(join(CACHE, 'sandbox', 'run-'));
  onCleanup(() => rmSync(runDir, { recursive: true, force: true }));
  const emulator = await startEmulator({
    port: Number(values['emulator-port']),
    sandbox: true,
    config: { tokenDelayMs: 25, answerTokens: 40 },
  });
  onCleanup(() => emulator.close());
  const workspace = createWorkspace(runDir);
  const keys = emulator.sandbox!.keys;
  const server = await startCodeServer(tools, {
    runDir,
    port: Number(values.port),
    vsix: resolve('keyward.vsix'),
    settings: {
      'keyward.router.baseUrl': emulator.routerBaseUrl,
      'keyward.direct.baseUrl': emulator.directBaseUrl,
      'workbench.colorTheme': 'Default Dark Modern',
    },
    // Keyward offers to import keys it finds in the environment: the sandbox keys arrive that way.
    env: { OPENROUTER_API_KEY: keys.routerFunded, OPENAI_API_KEY: keys.direct },
  });
  onCleanup(() => server.stop());
  const url = `${server.url}/?folder=${encodeURIComponent(workspace.folder)}`;
  process.stdout.write(`\nKeyward sandbox is ready: ${url}\n`);
  process.stdout.write(
    `  emulator ${emulator.url} (admin ${emulator.adminUrl}); accept the key import offers, then run "Keyward: Open Prompt Panel".\n`,
  );
  process.stdout.write('  Press Ctrl-C to stop everything.\n');
  process.stdout.write(JSON.stringify({ sandbox: url, emulator: emulator.url }) + '\n');
  await new Promise(() => undefined);
} catch (error) {
  process.stderr.write(`keyward start: ${(error as Error).message}\n`);
  await cleanupAll();
  process.exit(1);
}
