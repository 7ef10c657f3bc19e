// Code from an answer into a file, in the real host: Replace keeps the
// selection's line endings, and Apply shows a diff that is accepted (the file
// changes) or discarded (it does not), from the notification or the title bar.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { KeywardTestApi } from '../../../src/extension.ts';
import { activateKeyward, waitFor } from './env.ts';

let api: KeywardTestApi;

async function editorWith(content: string, selection: vscode.Selection): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument({ language: 'typescript', content });
  const editor = await vscode.window.showTextDocument(document, vscode.ViewColumn.One);
  editor.selection = selection;
  return editor;
}

const diffTabs = () =>
  vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === 'keyward-proposal');

async function closeAll(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
}

suite('code from an answer into a file', () => {
  suiteSetup(async () => {
    api = (await activateKeyward()).exports as KeywardTestApi;
  });

  teardown(async () => {
    api.panel.session.proposals.answer = undefined;
    await closeAll();
  });

  test('Replace keeps the selection without a line break from gaining a blank line', async () => {
    const editor = await editorWith('const a = 1;\nconst b = 2;\n', new vscode.Selection(0, 0, 0, 12));
    api.panel.handleMessage({ type: 'code/insert', code: 'const a = 3;\n', mode: 'replace' });
    await waitFor('the replaced line', () =>
      editor.document.getText() === 'const a = 3;\nconst b = 2;\n' ? true : undefined,
    );
    // Revealed with the new text selected.
    assert.equal(editor.document.getText(vscode.window.activeTextEditor!.selection), 'const a = 3;');
  });

  test("Replace of whole CRLF lines keeps the file's CRLF and one line break", async () => {
    const editor = await editorWith('one\r\ntwo\r\nthree\r\n', new vscode.Selection(0, 0, 2, 0));
    api.panel.handleMessage({ type: 'code/insert', code: 'uno\ndos\n', mode: 'replace' });
    await waitFor('the replaced lines', () =>
      editor.document.getText() === 'uno\r\ndos\r\nthree\r\n' ? true : undefined,
    );
  });

  test('Apply shows the file with the change in a diff; Discard leaves the file as it was', async () => {
    const editor = await editorWith('function f() {\n  return 1;\n}\n', new vscode.Selection(1, 2, 1, 11));
    let proposed = '';
    api.panel.session.proposals.answer = async (uri) => {
      await waitFor('the diff editor', () => (diffTabs().length === 1 ? true : undefined));
      proposed = (await vscode.workspace.openTextDocument(uri)).getText();
      return 'discard';
    };
    api.panel.handleMessage({ type: 'code/apply', code: 'return 2;\n', languageId: 'ts' });
    await waitFor('the diff to close', () => (proposed !== '' && diffTabs().length === 0 ? true : undefined));
    assert.equal(proposed, 'function f() {\n  return 2;\n}\n');
    assert.equal(editor.document.getText(), 'function f() {\n  return 1;\n}\n');
  });

  test('Apply accepted from the notification writes the change and reveals it', async () => {
    const editor = await editorWith('function f() {\n  return 1;\n}\n', new vscode.Selection(1, 2, 1, 11));
    api.panel.session.proposals.answer = async () => {
      await waitFor('the diff editor', () => (diffTabs().length === 1 ? true : undefined));
      return 'accept';
    };
    api.panel.handleMessage({ type: 'code/apply', code: 'return 2;\n', languageId: 'ts' });
    await waitFor('the accepted change', () =>
      editor.document.getText() === 'function f() {\n  return 2;\n}\n' && diffTabs().length === 0 ? true : undefined,
    );
    assert.equal(vscode.window.activeTextEditor?.document, editor.document);
  });

  test("Apply accepted from the diff editor's title bar, with the notification left unanswered", async () => {
    const editor = await editorWith('a\nb\n', new vscode.Selection(1, 0, 1, 0));
    api.panel.session.proposals.answer = async () => undefined;
    api.panel.handleMessage({ type: 'code/apply', code: 'inserted\n', languageId: '' });
    await waitFor('the diff editor', () => (diffTabs().length === 1 ? true : undefined));
    assert.equal(await vscode.commands.executeCommand('keyward.acceptProposal'), 'accepted');
    assert.equal(editor.document.getText(), 'a\ninserted\nb\n');
    assert.equal(diffTabs().length, 0);
  });
});
