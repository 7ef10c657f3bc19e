// `npm start`: the whole product in a sandbox. Builds the VSIX, starts the
// emulator with its seeded accounts, and opens a sandbox VS Code (code-server)
// with Keyward installed, pointed at the emulator, the sandbox keys offered for
// import from the environment, and a sample workspace with a generated key in
// it. The workspace is kept between runs (`--fresh` starts a new one); the
// VS Code profile is not, because the emulator mints new keys on every start.
// Ctrl-C stops everything it started.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startEmulator } from '../test/emulator/server.ts';
import { startCodeServer } from '../test/e2e/harness/codeServer.ts';
import { CACHE, ensureSandboxToolchain } from '../test/e2e/harness/install.ts';
import { cleanupAll, onCleanup } from '../test/e2e/harness/processes.ts';
import { createWorkspace } from '../test/e2e/harness/workspace.ts';

const USAGE = `usage: npm start -- [--port N] [--emulator-port N] [--fresh]
  --port N           serve the sandbox VS Code on port N (default: a free port)
  --emulator-port N  serve the emulator on port N (default: a free port)
  --fresh            throw away the sandbox workspace kept from earlier runs and start a new one
`;

function port(value: string | undefined, name: string): number {
  const n = Number(value ?? '0');
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${name} must be a port number, not "${value}"`);
  return n;
}

try {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      'emulator-port': { type: 'string' },
      fresh: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const codePort = port(values.port, '--port');
  const emulatorPort = port(values['emulator-port'], '--emulator-port');

  process.stdout.write('keyward: building the extension...\n');
  execFileSync('npm', ['run', '-s', 'package'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const tools = await ensureSandboxToolchain();
  const sandboxDir = join(CACHE, 'sandbox');
  mkdirSync(sandboxDir, { recursive: true });
  const folder = join(sandboxDir, 'workspace');
  if (values.fresh) rmSync(folder, { recursive: true, force: true });
  const kept = existsSync(folder);
  if (!kept) renameSync(createWorkspace(sandboxDir).folder, folder);
  const runDir = mkdtempSync(join(sandboxDir, 'run-'));
  onCleanup(() => rmSync(runDir, { recursive: true, force: true }));
  const emulator = await startEmulator({
    port: emulatorPort,
    sandbox: true,
    config: { tokenDelayMs: 25, answerTokens: 40 },
  });
  onCleanup(() => emulator.close());
  const keys = emulator.sandbox!.keys;
  const server = await startCodeServer(tools, {
    runDir,
    port: codePort,
    vsix: resolve('keyward.vsix'),
    // A person's VS Code: notifications shown (the test driver would drop them all).
    testDriver: false,
    settings: {
      'keyward.router.baseUrl': emulator.routerBaseUrl,
      'keyward.direct.baseUrl': emulator.directBaseUrl,
      'workbench.colorTheme': 'Default Dark Modern',
    },
    // Keyward offers to import keys it finds in the environment: the sandbox keys arrive that way.
    env: { OPENROUTER_API_KEY: keys.routerFunded, OPENAI_API_KEY: keys.direct },
  });
  onCleanup(() => server.stop());
  const url = `${server.url}/?folder=${encodeURIComponent(folder)}`;
  // These keys are fake: the emulator minted them for this run and nothing else accepts them.
  process.stdout.write(
    [
      '',
      `Keyward sandbox is ready: ${url}`,
      `  workspace ${folder} (${kept ? 'kept from the last run; --fresh starts a new one' : 'new'})`,
      `  emulator  ${emulator.url} (admin ${emulator.adminUrl})`,
      '  sandbox keys (fake, valid only against this emulator, new on every start):',
      `    routing service, funded     ${keys.routerFunded}`,
      `    routing service, free only  ${keys.routerFree}`,
      `    direct service              ${keys.direct}`,
      '  Accept the key import offers (or run "Keyward: Import Keys from the Environment"), then open the',
      '  Keyward chat in the activity bar.',
      '  Press Ctrl-C to stop everything.',
      '',
    ].join('\n'),
  );
  process.stdout.write(JSON.stringify({ sandbox: url, emulator: emulator.url }) + '\n');
  await new Promise(() => undefined);
} catch (error) {
  process.stderr.write(`keyward start: ${(error as Error).message}\n`);
  await cleanupAll();
  process.exit(1);
}
