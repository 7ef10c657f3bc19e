import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activateKeyward, e2eEnv } from './env.ts';

suite('activation', () => {
  test('Keyward activates in the real host', async () => {
    const extension = await activateKeyward();
    assert.equal(extension.isActive, true);
    assert.ok(vscode.version.startsWith('1.'), `VS Code ${vscode.version}`);
  });

  test('every contributed command is registered', async () => {
    const extension = await activateKeyward();
    const manifest = JSON.parse(readFileSync(join(extension.extensionPath, 'package.json'), 'utf8')) as {
      contributes: { commands: { command: string }[] };
    };
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = manifest.contributes.commands.map((c) => c.command).filter((id) => !registered.has(id));
    assert.deepEqual(missing, []);
  });

  test('user settings point Keyward at the emulator', () => {
    const section = vscode.workspace.getConfiguration('keyward');
    assert.equal(section.get('router.baseUrl'), e2eEnv().emulator.routerBaseUrl);
    assert.equal(section.get('direct.baseUrl'), e2eEnv().emulator.directBaseUrl);
  });

  test('the workspace is the temporary git repository', () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.equal(folder, e2eEnv().workspace.folder);
  });
});
