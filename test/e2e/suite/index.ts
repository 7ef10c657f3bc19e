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
  const expected = (JSON.parse(process.env.KEYWARD_E2E ?? '{}') as { emulator?: { routerBaseUrl?: string } }).emulator?.routerBaseUrl;
  const started = Date.now();
  while (expected && vscode.workspace.getConfiguration('keyward').get('router.baseUrl') !== expected) {
    if (Date.now() - started > 20_000) throw new Error('the user settings never reached the extension host');
    await new Promise((r) => setTimeout(r, 100));
  }
  console.log(`settings loaded after ${Date.now() - started} ms`);
}

export async function run(): Promise<void> {
  await settingsLoaded();
  const mocha = new Mocha({ ui: 'tdd', timeout: 30_000, color: false, reporter: 'spec' });
  const only = process.env.KEYWARD_E2E_GREP;
  if (only) mocha.grep(only);
  for (const file of readdirSync(__dirname).filter((f) => f.endsWith('.test.js')).sort()) mocha.addFile(join(__dirname, file));
  return new Promise<void>((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} in-host test(s) failed`)) : resolve()));
  });
}
