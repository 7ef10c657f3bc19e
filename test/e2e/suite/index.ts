// Entry of the in-host suite: VS Code calls run() inside the real extension host.
// node:test hangs there and vitest workers cannot require('vscode'), so mocha.
import Mocha from 'mocha';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * On a fresh profile the remote user settings can arrive after the extension
 * host starts; wait for them so every test sees the emulator's base URLs.
 */
async function settingsLoaded(): Promise<void> {
  const vscode = await import('vscode');
  const emulator = (
    JSON.parse(process.env.KEYWARD_E2E ?? '{}') as { emulator?: { routerBaseUrl?: string; directBaseUrl?: string } }
  ).emulator;
  const started = Date.now();
  const section = () => vscode.workspace.getConfiguration('keyward');
  while (emulator && section().get('router.baseUrl') !== emulator.routerBaseUrl) {
    if (Date.now() - started > 3_000) {
      // The test window may start on a profile that has not read the user settings file: write them through the API.
      await section().update('router.baseUrl', emulator.routerBaseUrl, vscode.ConfigurationTarget.Global);
      await section().update('direct.baseUrl', emulator.directBaseUrl, vscode.ConfigurationTarget.Global);
      console.log('user settings written through the configuration API');
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  console.log(`settings ready after ${Date.now() - started} ms`);
}

export async function run(): Promise<void> {
  await settingsLoaded();
  // Waits inside the tests follow state with their own ceilings; this only stops a test that hangs.
  const mocha = new Mocha({ ui: 'tdd', timeout: 600_000, color: false, reporter: 'spec' });
  const only = process.env.KEYWARD_E2E_GREP;
  // A regular expression, as KEYWARD_E2E_UI_GREP is: two suites can be run together ("suite a|suite b").
  if (only) mocha.grep(new RegExp(only, 'i'));
  for (const file of readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.js'))
    .sort())
    mocha.addFile(join(__dirname, file));
  return new Promise<void>((resolve, reject) => {
    const runner = mocha.run((failures) =>
      failures > 0 ? reject(new Error(`${failures} in-host test(s) failed`)) : resolve(),
    );
    // The reporter names a test when it ends: a test that never ends is named here, as it starts.
    runner.on('test', (test) => console.log(`    … ${test.title}`));
  });
}
