// Code from an answer into a file, in the real host: Replace keeps the
// selection's line endings, and Apply writes the block into the file it is for,
// merged into its region, with Keep and Undo (issue 21 item 8).
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { KeywardTestApi } from '../../../src/extension.ts';
import type { HostMessage } from '../../../src/shared/protocol.ts';
import { folder, open, write } from './editor.ts';
import { PATIENCE, activateKeyward, e2eEnv, waitFor } from './env.ts';

let api: KeywardTestApi;

async function editorWith(content: string, selection: vscode.Selection): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument({ language: 'typescript', content });
  const editor = await vscode.window.showTextDocument(document, vscode.ViewColumn.One);
  editor.selection = selection;
  return editor;
}

const id = () => randomBytes(6).toString('hex');

/** The last state the chat was told of for an Apply. */
function lastState(applyId: string): Extract<HostMessage, { type: 'code/applyState' }> | undefined {
  return api.panelProbe.sent
    .filter((m): m is Extract<HostMessage, { type: 'code/applyState' }> => m.type === 'code/applyState')
    .filter((m) => m.applyId === applyId)
    .at(-1);
}
const stateOf = (applyId: string) => lastState(applyId)?.state;
const textOf = (applyId: string) => lastState(applyId)?.text ?? '';

async function closeAll(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
}

suite('code from an answer into a file', () => {
  suiteSetup(async () => {
    api = (await activateKeyward()).exports as KeywardTestApi;
  });

  teardown(async () => {
    api.panelProbe.chooseFile = undefined;
    // Whatever a failed test left waiting is undone, so the next one starts clean.
    while ((await vscode.commands.executeCommand('keyward.discardProposal')) === 'undone');
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

  // Issue 21 item 8: a JS line once went into README.md at its caret. Apply goes to the file the code is for,
  // merges it into the region it rewrites, and offers Keep and Undo in words; Undo gives back exactly the old text.
  test('Apply goes to the file a first-line comment names, replaces the function of the same name, and Undo restores it', async () => {
    const before = 'function f() {\n  return 1;\n}\n\nfunction g() {\n  return 1;\n}\n';
    const uri = write('apply/region.ts', before);
    // Another file is active, its caret somewhere: neither is where the block goes.
    const other = await editorWith('# notes\n\nsome text\n', new vscode.Selection(2, 4, 2, 4));
    const applyId = `a${id()}`;
    api.panel.handleMessage({
      type: 'code/apply',
      code: '// apply/region.ts\nfunction g() {\n  return 2;\n}\n',
      languageId: 'ts',
      applyId,
    });
    await waitFor('the pending Apply', () => (stateOf(applyId) === 'pending' ? true : undefined));
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(
      document.getText(),
      'function f() {\n  return 1;\n}\n\n// apply/region.ts\nfunction g() {\n  return 2;\n}\n',
    );
    assert.equal(other.document.getText(), '# notes\n\nsome text\n', 'the active editor is untouched');
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), uri.toString(), 'the file is shown');
    // Keep and Undo, in words, above the change.
    const lenses = await waitFor('the Keep and Undo lenses', async () => {
      const found = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
      const titles = (found ?? []).map((lens) => lens.command?.title ?? '');
      return titles.some((title) => title.includes('Keep')) ? titles : undefined;
    });
    assert.deepEqual(
      lenses.filter((title) => /Keep|Undo/.test(title)),
      ['$(check) Keep', '$(discard) Undo'],
    );
    api.panel.handleMessage({ type: 'code/applyResolve', applyId, keep: false });
    await waitFor('the Undo', () => (stateOf(applyId) === 'undone' ? true : undefined));
    assert.equal(document.getText(), before, 'exactly the text from before');
  });

  test('Apply to the file named in the fence info; Keep leaves the change in the editor, unsaved', async () => {
    const uri = write('apply/info.ts', 'export const a = 1;\n');
    const applyId = `a${id()}`;
    api.panel.handleMessage({
      type: 'code/apply',
      code: 'export const b = 2;\n',
      languageId: 'ts apply/info.ts',
      applyId,
    });
    await waitFor('the pending Apply', () => (stateOf(applyId) === 'pending' ? true : undefined));
    const document = await vscode.workspace.openTextDocument(uri);
    // Nothing in common with the file: appended as whole lines, never at a caret.
    assert.equal(document.getText(), 'export const a = 1;\n\nexport const b = 2;\n');
    assert.equal(await vscode.commands.executeCommand('keyward.acceptProposal', applyId), 'kept');
    assert.equal(stateOf(applyId), 'kept');
    assert.equal(document.getText(), 'export const a = 1;\n\nexport const b = 2;\n');
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
    assert.equal((lenses ?? []).filter((lens) => lens.command?.command === 'keyward.acceptProposal').length, 0);
  });

  test('a block that names no file asks which one, offering the open editors; the chosen file gets it', async () => {
    const uri = write('apply/chosen.py', 'import os\n\ndef run():\n    return 1\n');
    await open(uri.fsPath);
    let offered: string[] = [];
    api.panelProbe.chooseFile = async (candidates) => {
      offered = candidates.map((c) => c.toString());
      return uri;
    };
    const applyId = `a${id()}`;
    api.panel.handleMessage({ type: 'code/apply', code: 'def run():\n    return 2\n', languageId: 'python', applyId });
    await waitFor('the pending Apply', () => (stateOf(applyId) === 'pending' ? true : undefined));
    assert.ok(offered.includes(uri.toString()), `the open file was offered: ${offered.join(', ')}`);
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(document.getText(), 'import os\n\ndef run():\n    return 2\n');
    assert.equal(await vscode.commands.executeCommand('keyward.discardProposal', uri), 'undone');
    assert.equal(document.getText(), 'import os\n\ndef run():\n    return 1\n');
  });

  test('a block that names no file goes to the file attached to the prompt it answers, not the active editor', async () => {
    await vscode.commands.executeCommand('keyward.setRouterKey', {
      key: e2eEnv().sandboxKeys.routerFunded,
      quiet: true,
    });
    const uri = write('apply/attached.ts', 'export function h() {\n  return 1;\n}\n');
    const editor = await open(uri.fsPath);
    editor.selection = new vscode.Selection(0, 0, 3, 0);
    const before = api.panelProbe.sent.length;
    await vscode.commands.executeCommand('keyward.askAboutSelection');
    const added = await waitFor('the attachment', () =>
      api.panelProbe.sent.slice(before).find((m) => m.type === 'attachment/add'),
    );
    const requestId = id();
    api.panel.handleMessage({
      type: 'chat/send',
      requestId,
      service: 'router',
      model: 'openai/gpt-4o-mini',
      prompt: 'make h return 2',
      attachments: [(added as Extract<HostMessage, { type: 'attachment/add' }>).attachment],
    });
    const done = await waitFor(
      'the answer',
      () =>
        api.panelProbe.sent.find(
          (m): m is Extract<HostMessage, { type: 'chat/done' }> => m.type === 'chat/done' && m.requestId === requestId,
        ),
      PATIENCE,
    );
    // Another editor is active now: the attachment, not the caret, says where the code goes.
    await editorWith('# notes\n', new vscode.Selection(0, 0, 0, 0));
    let asked = false;
    api.panelProbe.chooseFile = async () => {
      asked = true;
      return undefined;
    };
    const applyId = `a${id()}`;
    api.panel.handleMessage({
      type: 'code/apply',
      code: 'export function h() {\n  return 2;\n}\n',
      languageId: 'ts',
      applyId,
      turnId: done.turn.id,
    });
    await waitFor('the pending Apply', () => (stateOf(applyId) === 'pending' ? true : undefined));
    assert.equal(asked, false, 'the attached file needs no question');
    assert.equal((await vscode.workspace.openTextDocument(uri)).getText(), 'export function h() {\n  return 2;\n}\n');
    assert.equal(await vscode.commands.executeCommand('keyward.discardProposal', uri), 'undone');
  });

  test('a path that leaves the workspace, or a link inside it, is refused by name and nothing is written', async () => {
    let asked = false;
    api.panelProbe.chooseFile = async () => {
      asked = true;
      return undefined;
    };
    const outside = `a${id()}`;
    api.panel.handleMessage({
      type: 'code/apply',
      code: '// ../outside.ts\nconst a = 1;\n',
      languageId: 'ts',
      applyId: outside,
    });
    await waitFor('the refusal', () => (stateOf(outside) === 'refused' ? true : undefined));
    assert.match(textOf(outside), /Apply refused: \.\.\/outside\.ts is outside the workspace\./);
    const real = write('apply/real.ts', 'const real = 1;\n');
    const link = join(folder(), 'apply', 'link.ts');
    rmSync(link, { force: true });
    symlinkSync(real.fsPath, link);
    const linked = `a${id()}`;
    api.panel.handleMessage({
      type: 'code/apply',
      code: 'const real = 2;\n',
      languageId: 'ts apply/link.ts',
      applyId: linked,
    });
    await waitFor('the refusal', () => (stateOf(linked) === 'refused' ? true : undefined));
    assert.match(textOf(linked), /symbolic link/);
    assert.equal(readFileSync(real.fsPath, 'utf8'), 'const real = 1;\n');
    assert.equal((await vscode.workspace.openTextDocument(real)).getText(), 'const real = 1;\n');
    assert.equal(asked, false, 'a refused path is not turned into a question');
  });
});
