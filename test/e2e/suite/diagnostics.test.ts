// Key diagnostics in the real host: severities by git status, hover, every
// quick fix applied with its edits checked, typing and closing.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { actions, diagnosticsOf, folder, keyward, open, run, write } from './editor.ts';
import { activateKeyward, e2eEnv, waitFor, withoutAccountKeys } from './env.ts';

const routerKey = () => ['sk', 'or', 'v1', randomBytes(32).toString('hex')].join('-');

suite('key diagnostics', () => {
  suiteSetup(async () => {
    await activateKeyward();
    await withoutAccountKeys();
  });

  test('a file git tracks gets an Error that says rotating is the only fix', async () => {
    const [diagnostic] = await diagnosticsOf(e2eEnv().workspace.files.tracked!);
    assert.equal(diagnostic!.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(diagnostic!.code, 'router-key');
    assert.match(
      diagnostic!.message,
      /^A routing service key, sk-or-v1-…[0-9a-f]{4}\. This file is tracked by git: the key is in its history, so rotating the key is the only fix\.$/,
    );
    const [source] = await diagnosticsOf(e2eEnv().workspace.files.trackedSource!);
    assert.equal(source!.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(source!.code, 'direct-key');
  });

  test('an untracked file that is not ignored gets a Warning; an ignored one Information', async () => {
    write('host-untracked.js', `const key = "${routerKey()}";\n`);
    const [untracked] = await diagnosticsOf('host-untracked.js');
    assert.equal(untracked!.severity, vscode.DiagnosticSeverity.Warning);
    assert.match(untracked!.message, /would be committed/);
    const [ignored] = await diagnosticsOf(e2eEnv().workspace.files.ignored!);
    assert.equal(ignored!.severity, vscode.DiagnosticSeverity.Information);
  });

  test('the hover says service, masked key, git status and what to do', async () => {
    const editor = await open(e2eEnv().workspace.files.tracked!);
    const [diagnostic] = keyward(editor.document.uri);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      editor.document.uri,
      diagnostic!.range.start.translate(0, 12),
    );
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(text, /\*\*Keyward\*\*/);
    assert.match(text, /Git: tracked/);
    assert.match(text, /rotate the key at the service/);
    assert.ok(!text.includes(editor.document.getText(diagnostic!.range)), 'the hover shows the key');
  });

  test('diagnostics follow typing (debounced) and are cleared on close', async () => {
    const uri = write('typed.ts', 'export const a = 1;\n');
    const editor = await open('typed.ts');
    await editor.edit((b) => b.insert(new vscode.Position(1, 0), `export const k = "${routerKey()}";\n`));
    await waitFor('a diagnostic after typing', () => (keyward(uri).length === 1 ? true : undefined));
    await editor.edit((b) => b.delete(new vscode.Range(1, 20, 1, 30)));
    await waitFor('no diagnostic after breaking the key', () => (keyward(uri).length === 0 ? true : undefined));
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), `// ${routerKey()}\n`));
    await waitFor('a diagnostic on an unsaved edit', () => (keyward(uri).length === 1 ? true : undefined));
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await waitFor('cleared on close', () => (keyward(uri).length === 0 ? true : undefined));
  });

  test('quick fix: read from the environment, key moved to .env, .env git-ignored', async () => {
    // The UI run may have moved another key to .env already: start from none (an existing value is a question).
    rmSync(join(folder(), '.env'), { force: true });
    const key = routerKey();
    const uri = write('config.ts', `export const client = { apiKey: "${key}" };\n`);
    const [diagnostic] = await diagnosticsOf('config.ts');
    const fix = (await actions(uri, diagnostic!.range)).find((a) =>
      a.title.startsWith('Read OPENROUTER_API_KEY from the environment'),
    );
    assert.ok(fix, 'the env fix is offered');
    assert.equal(fix.isPreferred, true);
    await run(fix);
    assert.equal(
      readFileSync(join(folder(), 'config.ts'), 'utf8'),
      'export const client = { apiKey: process.env.OPENROUTER_API_KEY };\n',
    );
    assert.match(readFileSync(join(folder(), '.env'), 'utf8'), new RegExp(`^OPENROUTER_API_KEY=${key}$`, 'm'));
    assert.match(readFileSync(join(folder(), '.gitignore'), 'utf8'), /^\.env$/m);
    const ignored = execFileSync('git', ['check-ignore', '.env'], { cwd: folder() }).toString().trim();
    assert.equal(ignored, '.env');
    await waitFor('the diagnostic is gone', () => (keyward(uri).length === 0 ? true : undefined));
  });

  test('quick fix: ignore this line', async () => {
    const uri = write('ignore-me.py', `KEY = "${routerKey()}"\n`);
    const [diagnostic] = await diagnosticsOf('ignore-me.py');
    const fix = (await actions(uri, diagnostic!.range)).find((a) => a.title === 'Ignore this line (keyward-ignore)');
    assert.ok(fix);
    await run(fix);
    const document = await vscode.workspace.openTextDocument(uri);
    assert.match(document.lineAt(0).text, /" # keyward-ignore$/);
    await waitFor('the ignored line is quiet', () => (keyward(uri).length === 0 ? true : undefined));
  });

  test('quick fix: add the file to .gitignore turns the Warning into Information', async () => {
    const uri = write('scratch-notes.md', `Key: ${routerKey()}\n`);
    const [diagnostic] = await diagnosticsOf('scratch-notes.md');
    const list = await actions(uri, diagnostic!.range);
    const fix = list.find((a) => a.title === 'Add scratch-notes.md to .gitignore');
    assert.ok(fix, `offered: ${list.map((a) => a.title).join(' | ')}; ${diagnostic!.message}`);
    await run(fix);
    assert.match(readFileSync(join(folder(), '.gitignore'), 'utf8'), /^\/scratch-notes\.md$/m);
    await waitFor('Information after ignoring', () =>
      keyward(uri)[0]?.severity === vscode.DiagnosticSeverity.Information ? true : undefined,
    );
  });

  test('quick fix: store the key in Keyward and remove it; the stored key is then recognised as yours', async () => {
    const key = e2eEnv().sandboxKeys.routerFunded;
    const uri = write('store-me.js', `const k = '${key}';\n`);
    const [diagnostic] = await diagnosticsOf('store-me.js');
    const list = await actions(uri, diagnostic!.range);
    // When an earlier run stored this key already, the fix only removes it.
    const store = list.find(
      (a) =>
        a.title === 'Store the key in Keyward and remove it from this file' ||
        a.title === 'Remove the key from this file (it is stored in Keyward)',
    );
    assert.ok(store);
    assert.ok(list.some((a) => a.title === 'Rotate this key at the routing service'));
    await run(store);
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(document.lineAt(0).text, 'const k = process.env.OPENROUTER_API_KEY;');
    const again = write('store-me-again.txt', `${key}\n`);
    await open('store-me-again.txt');
    const mine = await waitFor('the stored key is recognised', () =>
      keyward(again).find((d) => /the one stored in Keyward/.test(d.message)),
    );
    assert.equal(mine.code, 'router-key');
  });

  test('the Problems panel gets keys from the workspace scan, files not open included', async () => {
    const uri = write('never-opened.yaml', `token: ${routerKey()}\n`);
    const result = await vscode.commands.executeCommand<{ files: number; findings: number }>('keyward.scanWorkspace');
    assert.ok(result.findings >= 1);
    assert.equal(keyward(uri).length, 1);
  });

  test('the workspace scan searches binary files and names a file over the size cap instead of calling it clean', async () => {
    // NUL bytes around the key, as in a compiled bundle or an image's metadata.
    const binary = write('bundle.bin', `\0\0\0${routerKey()}\0\0`);
    const big = write('big.log', 'x'.repeat(1100 * 1024));
    try {
      const result = await vscode.commands.executeCommand<{
        findings: number;
        notScanned: { path: string; reason: string }[];
      }>('keyward.scanWorkspace');
      assert.equal(keyward(binary).length, 1);
      const skipped = result.notScanned.find((s) => s.path.endsWith('big.log'));
      assert.ok(skipped, `big.log is named as not scanned: ${JSON.stringify(result.notScanned)}`);
      assert.match(skipped.reason, /maxFileSizeKb/);
    } finally {
      rmSync(big.fsPath, { force: true });
      rmSync(binary.fsPath, { force: true });
    }
  });

  // Issue 31 item 9, each in a repository of its own inside the workspace (its own .keywardignore at its root).
  function nestedRepo(name: string, ignore: string): string {
    const root = join(folder(), name);
    rmSync(root, { recursive: true, force: true });
    write(join(root, '.keywardignore'), ignore);
    execFileSync('git', ['init', '-q'], { cwd: root });
    return root;
  }

  test('a .keywardignore line that covers every file is an Error on that line, and suppresses nothing', async () => {
    const root = nestedRepo('ignore-wide', '?*  # generated\n');
    try {
      write(join(root, 'src/app.js'), `const key = "${routerKey()}";\n`);
      const [onKey] = await diagnosticsOf(join(root, 'src/app.js'));
      assert.equal(onKey!.severity, vscode.DiagnosticSeverity.Warning);
      assert.doesNotMatch(onKey!.message, /Suppressed/);
      const refused = await waitFor('the refused line', () => {
        const list = keyward(vscode.Uri.file(join(root, '.keywardignore')));
        return list.length > 0 ? list : undefined;
      });
      assert.deepEqual(
        refused.map((d) => [d.range.start.line, d.severity]),
        [[0, vscode.DiagnosticSeverity.Error]],
      );
      assert.match(refused[0]!.message, /suppresses nothing: "\?\*" would suppress every file/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('the key stored in Keyward stays an Error whatever .keywardignore or an allow comment says', async () => {
    const key = e2eEnv().sandboxKeys.routerFunded;
    await vscode.commands.executeCommand('keyward.setRouterKey', { key, quiet: true });
    const root = nestedRepo('ignore-mine', 'src/  # generated\n');
    try {
      write(join(root, 'src/mine.js'), `const a = '${key}';\nconst b = '${key}'; // keyward-ignore\n`);
      const editor = await open(join(root, 'src/mine.js'));
      const [a, b] = await waitFor('both lines flagged as the stored key', () => {
        const list = keyward(editor.document.uri);
        return list.length === 2 && list.every((d) => /the one stored in Keyward/.test(d.message)) ? list : undefined;
      });
      assert.deepEqual([a!.severity, b!.severity], [vscode.DiagnosticSeverity.Error, vscode.DiagnosticSeverity.Error]);
      assert.match(a!.message, /\.keywardignore:1 would suppress it, but a repository's file never suppresses/);
      assert.match(b!.message, /An allow comment does not hide the key stored in Keyward\./);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      rmSync(root, { recursive: true, force: true });
    }
  });
});
