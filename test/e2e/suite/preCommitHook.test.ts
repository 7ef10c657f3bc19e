// Keyward: Install Pre-commit Hook in the real host, on the workspace's repository:
// it says what it installs before writing, and another tool's hook stays unless replacing it is confirmed.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as vscode from 'vscode';
import type { KeywardTestApi } from '../../../src/extension.ts';
import { activateKeyward, e2eEnv } from './env.ts';

const MARK = '# installed by keyward install-hook';
const FOREIGN = '#!/bin/sh\n# another tool\nexit 0\n';
let api: KeywardTestApi;
let realAnswer: KeywardTestApi['dialogs']['answer'];
let hook: string;
let before: string | undefined;

/** Scripts the command's questions: each answer in turn; the questions (and their explanations) are kept. */
function answer(...answers: (string | undefined)[]): { message: string; detail: string; items: string[] }[] {
  const asked: { message: string; detail: string; items: string[] }[] = [];
  api.dialogs.answer = async (message, detail, ...items) => {
    asked.push({ message, detail: detail ?? '', items });
    return answers.shift();
  };
  return asked;
}

const run = () =>
  vscode.commands.executeCommand<Awaited<ReturnType<KeywardTestApi['preCommitHook']['run']>>>(
    'keyward.installPreCommitHook',
  );

suite('Install Pre-commit Hook', () => {
  suiteSetup(async () => {
    api = (await activateKeyward()).exports as KeywardTestApi;
    realAnswer = api.dialogs.answer;
    const folder = e2eEnv().workspace.folder;
    const hooks = execFileSync('git', ['rev-parse', '--git-path', 'hooks'], {
      cwd: folder,
      encoding: 'utf8',
    }).trim();
    hook = resolve(folder, hooks, 'pre-commit');
    before = existsSync(hook) ? readFileSync(hook, 'utf8') : undefined;
    rmSync(hook, { force: true });
  });

  suiteTeardown(() => {
    api.dialogs.answer = realAnswer;
    // Later tests commit in this repository: leave its hooks as they were.
    if (before === undefined) rmSync(hook, { force: true });
    else writeFileSync(hook, before, { mode: 0o755 });
  });

  test('explains what it installs, and installs only on Install', async () => {
    const declined = answer(undefined);
    assert.deepEqual(await run(), { kind: 'declined', path: hook });
    assert.equal(existsSync(hook), false, 'nothing is written when the person says no');
    assert.match(declined[0]!.message, /^Install Keyward's pre-commit hook in .*pre-commit\?$/);
    assert.match(declined[0]!.detail, /keyward scan --staged/);
    assert.match(declined[0]!.detail, /npm install --save-dev keyward/);
    assert.match(declined[0]!.detail, /git commit --no-verify/);

    answer('Install');
    // No keyward on this host's PATH outside the repository: the hook records none, and refuses commits until one is.
    assert.deepEqual(await run(), { kind: 'installed', path: hook, replaced: 'nothing', keyward: [] });
    const text = readFileSync(hook, 'utf8');
    assert.ok(text.startsWith('#!/bin/sh\n') && text.includes(MARK));
    assert.ok(!text.includes(e2eEnv().workspace.folder), 'the hook names no path of this machine');
    assert.ok(api.dialogs.told.some((m) => m === `Keyward's pre-commit hook is installed at ${hook}.`));
    assert.ok(api.dialogs.told.some((m) => /No keyward command was found on PATH outside this repository/.test(m)));

    const again = answer('Update');
    assert.deepEqual(await run(), { kind: 'installed', path: hook, replaced: 'keyward', keyward: [] });
    assert.deepEqual(again[0]!.items, ['Update']);
  });

  test('another hook stays unless replacing it is confirmed in a modal question', async () => {
    writeFileSync(hook, FOREIGN, { mode: 0o755 });
    const asked = answer(undefined);
    assert.deepEqual(await run(), { kind: 'declined', path: hook });
    assert.equal(readFileSync(hook, 'utf8'), FOREIGN);
    assert.match(asked[0]!.message, /already holds another pre-commit hook\. Replace it with Keyward's\?$/);
    assert.match(asked[0]!.detail, /would stop running/);
    assert.deepEqual(asked[0]!.items, ['Replace']);

    answer('Replace');
    assert.deepEqual(await run(), { kind: 'installed', path: hook, replaced: 'foreign', keyward: [] });
    assert.ok(readFileSync(hook, 'utf8').includes(MARK));
  });

  test('the command is registered in the real host', async () => {
    assert.ok((await vscode.commands.getCommands(true)).includes('keyward.installPreCommitHook'));
  });
});
