// "Check whether this key is live" in the real host: a code action on a flagged
// key (and a command at the cursor) asks the key's own service of the emulator;
// the answer words the diagnostic and the hover of every place that key
// appears, and a live key git holds is escalated.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { folder, keyward, open, write } from './editor.ts';
import { activateKeyward, admin, leakKey, waitFor } from './env.ts';

const TITLE = 'Check whether this key is live';
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'core.hooksPath=/dev/null', ...args], { cwd: folder(), encoding: 'utf8', stdio: 'pipe' });

interface Verification {
  status: string;
  reason: string;
}

async function liveAction(uri: vscode.Uri, range: vscode.Range): Promise<vscode.CodeAction> {
  return waitFor('the live-check code action', async () => {
    const all = await vscode.commands
      .executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, range)
      .then(
        (list) => list,
        () => [],
      );
    return all.find((a) => a.title === TITLE);
  });
}

async function flagged(
  path: string,
  severity: vscode.DiagnosticSeverity,
): Promise<{ editor: vscode.TextEditor; diagnostic: vscode.Diagnostic }> {
  const editor = await open(path);
  // Git's answer can lag a moment behind a `git add`: wait for the grade, not just the mark.
  const diagnostic = await waitFor(`a Keyward diagnostic of severity ${severity} in ${path}`, () =>
    keyward(editor.document.uri).find((d) => d.severity === severity),
  );
  return { editor, diagnostic };
}

async function hoverText(uri: vscode.Uri, position: vscode.Position): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position);
  return hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
}

suite('is this key live', () => {
  const made: string[] = [];
  suiteSetup(async () => {
    await activateKeyward();
  });
  suiteTeardown(() => {
    for (const path of made) {
      try {
        git('rm', '-q', '--cached', '--', path);
      } catch {
        // was never staged
      }
      rmSync(join(folder(), path), { force: true });
    }
  });

  test('live key git holds: the action says live, the diagnostic and hover escalate, the same key elsewhere too', async () => {
    const account = await admin<{ id: string }>('POST', '/router/accounts', { name: 'e2e liveness' });
    const { key } = await admin<{ key: string }>('POST', '/router/keys', { accountId: account.id, name: 'found' });
    leakKey(key);
    made.push('live-tracked.ts', 'live-copy.md');
    write('live-tracked.ts', `export const key = "${key}";\n`);
    git('add', '--', 'live-tracked.ts');
    write('live-copy.md', `Also here: ${key}\n`);
    const copy = await flagged('live-copy.md', vscode.DiagnosticSeverity.Warning);
    const { editor, diagnostic } = await flagged('live-tracked.ts', vscode.DiagnosticSeverity.Error);
    assert.doesNotMatch(diagnostic.message, /live/i, 'nothing is asked before the person asks');

    const action = await liveAction(editor.document.uri, diagnostic.range);
    const result = await vscode.commands.executeCommand<Verification>(
      action.command!.command,
      ...(action.command!.arguments ?? []),
    );
    assert.equal(result.status, 'live');

    const escalated = await waitFor('the escalated diagnostic', () =>
      keyward(editor.document.uri).find((d) => d.message.startsWith('Live key in git history: rotate now.')),
    );
    assert.equal(escalated.severity, vscode.DiagnosticSeverity.Error);
    const hover = await hoverText(editor.document.uri, diagnostic.range.start.translate(0, 12));
    assert.match(hover, /Live: live: the service accepts it/);
    assert.match(hover, /\*\*Live key in git history: rotate now\.\*\*/);
    assert.ok(!hover.includes(key), 'the hover shows the key');

    // The copy in a file git would commit: the same fingerprint, answered without asking again; now an Error.
    const other = await waitFor('the copy worded as live', () =>
      keyward(copy.editor.document.uri).find((d) => /The service says the key is live\./.test(d.message)),
    );
    assert.equal(other.severity, vscode.DiagnosticSeverity.Error);
  });

  test('a revoked key, checked from the command at the cursor, is inactive and not escalated', async () => {
    const org = await admin<{ id: string }>('POST', '/direct/orgs', { name: 'e2e liveness' });
    const { id, key } = await admin<{ id: string; key: string }>('POST', '/direct/keys', {
      orgId: org.id,
      permissions: 'All',
    });
    leakKey(key);
    await admin('DELETE', `/direct/keys/${id}`);
    made.push('revoked.js');
    write('revoked.js', `const key = '${key}';\n`);
    const { editor, diagnostic } = await flagged('revoked.js', vscode.DiagnosticSeverity.Warning);
    editor.selection = new vscode.Selection(
      diagnostic.range.start.translate(0, 5),
      diagnostic.range.start.translate(0, 5),
    );
    const result = await vscode.commands.executeCommand<Verification>('keyward.checkKeyLive');
    assert.equal(result.status, 'inactive');
    assert.match(result.reason, /HTTP 401/);
    const worded = await waitFor('the inactive wording', () =>
      keyward(editor.document.uri).find((d) => /no longer live/.test(d.message)),
    );
    assert.equal(worded.severity, vscode.DiagnosticSeverity.Warning);
    assert.match(await hoverText(editor.document.uri, diagnostic.range.start), /Live: inactive/);
  });
});
