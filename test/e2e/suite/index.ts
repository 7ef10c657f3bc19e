// Entry of the in-host suite: VS Code calls run() inside the real extension host.
// node:test hangs there and vitest workers cannot require('vscode'), so mocha.
import Mocha from 'mocha';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'tdd', timeout: 30_000, color: false, reporter: 'spec' });
  const only = process.env.KEYWARD_E2E_GREP;
  if (only) mocha.grep(only);
  for (const file of readdirSync(__dirname).filter((f) => f.endsWith('.test.js')).sort()) mocha.addFile(join(__dirname, file));
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} in-host test(s) failed`)) : resolve()));
  });
}
