// Scan Git History in the real host: keys ever committed land in the Keys in
// Git History view (commit, file, line, masked key, actions), and a git that
// fails is reported as a failure, never as "no key found".
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { KeywardTestApi } from '../../../src/extension.ts';
import type { HistoryNode } from '../../../src/host/scan/gitHistoryView.ts';
import type { HistoryScanOutcome } from '../../../src/host/scan/workspaceScan.ts';
import { activateKeyward, e2eEnv } from './env.ts';

const folder = () => e2eEnv().workspace.folder;
const git = (...args: string[]) => execFileSync('git', args, { cwd: folder(), encoding: 'utf8' }).trim();

async function api(): Promise<KeywardTestApi> {
  return (await activateKeyward()).exports as KeywardTestApi;
}

suite('keys in git history', () => {
  test('Scan Git History lists every committed key with commit, file and line in a lasting view', async () => {
    const outcome = await vscode.commands.executeCommand<HistoryScanOutcome>('keyward.scanHistory');
    assert.equal(outcome.failure, undefined);
    assert.equal(outcome.cancelled, false);
    assert.ok(
      outcome.commits >= 1 && outcome.commits === outcome.total,
      `${outcome.commits} of ${outcome.total} commits`,
    );
    const initial = git('rev-list', '--max-parents=0', 'HEAD');
    const view = (await api()).historyView();
    const router = view.find(
      (node) =>
        /^sk-or-v1-…[0-9a-f]{4}$/.test(node.label) &&
        node.children.some((c) => c.description === `${e2eEnv().workspace.files.tracked}:2`),
    );
    const direct = view.find(
      (node) =>
        /^sk-proj-…/.test(node.label) &&
        node.children.some((c) => c.description === `${e2eEnv().workspace.files.trackedSource}:4`),
    );
    assert.ok(router, `the tracked .env key is listed: ${JSON.stringify(view)}`);
    assert.ok(direct, `the tracked source key is listed: ${JSON.stringify(view)}`);
    assert.equal(router.contextValue, 'keyward.historyKey');
    assert.match(router.description, /^routing service key · 1 commit\(s\)$/);
    const commit = router.children.find((c) => c.description === `${e2eEnv().workspace.files.tracked}:2`)!;
    assert.equal(commit.label, `${initial.slice(0, 7)} initial`);
    assert.equal(commit.contextValue, 'keyward.historyCommit');
    // The view is a real contributed view, and stays after the scan.
    await vscode.commands.executeCommand('keyward.historyFindings.focus');
    assert.deepEqual((await api()).historyView(), view);
  });

  test('the commit actions copy the full commit id and open the file at the line', async () => {
    const initial = git('rev-list', '--max-parents=0', 'HEAD');
    const node: HistoryNode = {
      kind: 'hit',
      hit: {
        root: folder(),
        path: e2eEnv().workspace.files.tracked!,
        line: 1,
        commit: initial,
        subject: 'initial',
        masked: 'sk-or-v1-…',
        fingerprint: 'x',
        service: 'router',
      },
    };
    const copied = await vscode.commands.executeCommand<string>('keyward.historyCopyCommit', node);
    assert.equal(copied, initial);
    const clipboard = await vscode.env.clipboard.readText().then(
      (text) => text,
      () => undefined,
    );
    if (clipboard !== undefined && clipboard !== '') assert.equal(clipboard, initial);
    await vscode.commands.executeCommand('keyward.historyOpen', node);
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.fsPath, join(folder(), e2eEnv().workspace.files.tracked!));
    assert.equal(editor?.selection.active.line, 1);
  });

  test('a failing git is reported as a failure, never as "no key found"', async () => {
    // Hide one blob of the first commit: git log -p cannot read it and fails.
    const blob = git('rev-parse', `HEAD:${e2eEnv().workspace.files.clean!}`);
    const objectPath = join(folder(), '.git', 'objects', blob.slice(0, 2), blob.slice(2));
    const hidden = `${objectPath}.hidden`;
    renameSync(objectPath, hidden);
    try {
      const outcome = await vscode.commands.executeCommand<HistoryScanOutcome>('keyward.scanHistory');
      assert.ok(outcome.failure, 'the scan says it failed');
      assert.match(outcome.failure, /git log failed/);
      const view = (await api()).historyView();
      assert.equal(view[0]?.contextValue, 'keyward.historyNote');
      assert.match(view[0]!.label, /^Could not read the git history: git log failed/);
    } finally {
      renameSync(hidden, objectPath);
    }
    const again = await vscode.commands.executeCommand<HistoryScanOutcome>('keyward.scanHistory');
    assert.equal(again.failure, undefined);
  });
});
