// Code from an answer into a file, in the real host: Replace keeps the
// selection's line endings, and Apply shows a diff that is accepted (the file
// changes) or discarded (it does not), from the notification or the title bar.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { KeywardTestApi } from '../../../src/extension.ts';
import { open, write } from './editor.ts';
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
    // A file on disk: its line endings come from its bytes, not from an untitled buffer's defaults.
    const editor = await open(write('apply/crlf.ts', 'one\r\ntwo\r\nthree\r\n').fsPath);
    editor.selection = new vscode.Selection(0, 0, 2, 0);
    api.panel.handleMessage({ type: 'code/insert', code: 'uno\ndos\n', mode: 'replace' });
    await waitFor(
      'the replaced lines',
      () => (editor.document.getText() === 'uno\r\ndos\r\nthree\r\n' ? true : undefined),
      20_000,
    ).catch(() => undefined);
    assert.deepEqual(
      { text: editor.document.getText(), eol: editor.document.eol },
      { text: 'uno\r\ndos\r\nthree\r\n', eol: vscode.EndOfLine.CRLF },
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
    // Discard closes the diff and shows the file again.
    await waitFor('the file shown again', () =>
      proposed !== '' && diffTabs().length === 0 && vscode.window.activeTextEditor?.document === editor.document
        ? true
        : undefined,
    );
    assert.equal(proposed, 'function f() {\n  return 2;\n}\n');
    assert.equal(editor.document.getText(), 'function f() {\n  return 1;\n}\n');
  });

  test('Apply accepted from the notification writes the change into the file and reveals it', async () => {
    const uri = write('apply/accept.ts', 'function f() {\n  return 1;\n}\n');
    const editor = await open(uri.fsPath);
    editor.selection = new vscode.Selection(1, 2, 1, 11);
    let left = '';
    api.panel.session.proposals.answer = async () => {
      const diff = await waitFor('the diff editor', () => (diffTabs().length === 1 ? diffTabs()[0] : undefined));
      left = (diff.input as vscode.TabInputTextDiff).original.toString();
      return 'accept';
    };
    api.panel.handleMessage({ type: 'code/apply', code: 'return 2;\n', languageId: 'ts' });
    await waitFor('the accepted change', () =>
      editor.document.getText() === 'function f() {\n  return 2;\n}\n' && diffTabs().length === 0 ? true : undefined,
    );
    assert.equal(left, uri.toString());
    assert.equal(vscode.window.activeTextEditor?.document, editor.document);
    assert.ok(editor.document.isDirty, 'accepted, not saved behind the person');
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

  test("Discard from the title bar with the file's side focused: given the file, it finds that file's proposal", async () => {
    const editor = await editorWith('a\nb\n', new vscode.Selection(1, 0, 1, 0));
    api.panel.session.proposals.answer = async () => undefined;
    api.panel.handleMessage({ type: 'code/apply', code: 'proposed\n', languageId: '' });
    await waitFor('the diff editor', () => (diffTabs().length === 1 ? true : undefined));
    // Another tab in front: the active tab no longer names the proposal, only the argument does.
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content: 'other' }), {
      preview: false,
    });
    assert.equal(await vscode.commands.executeCommand('keyward.discardProposal', editor.document.uri), 'discarded');
    assert.equal(editor.document.getText(), 'a\nb\n');
    assert.equal(diffTabs().length, 0);
    assert.equal(vscode.window.activeTextEditor?.document, editor.document, 'the file is shown again');
  });

  test('with the diff open, Insert goes into the file, not into the read-only proposal', async () => {
    const editor = await editorWith('a\nb\n', new vscode.Selection(1, 0, 1, 0));
    api.panel.session.proposals.answer = async () => undefined;
    api.panel.handleMessage({ type: 'code/apply', code: 'proposed\n', languageId: '' });
    await waitFor('the diff editor', () =>
      vscode.window.activeTextEditor?.document.uri.scheme === 'keyward-proposal' ? true : undefined,
    );
    api.panel.handleMessage({ type: 'code/insert', code: 'typed\n', mode: 'cursor' });
    await waitFor(
      'the insertion in the file',
      () => (editor.document.getText() === 'a\ntyped\nb\n' ? true : undefined),
      30_000,
    );
    assert.equal(await vscode.commands.executeCommand('keyward.discardProposal'), 'discarded');
    assert.equal(diffTabs().length, 0);
  });
});
