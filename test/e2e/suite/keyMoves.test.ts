// Moving a key out of a file, in the real host: the .env fix never writes
// through a link, outside the folder, into a tracked .env or over another value;
// the store fix checks the key with the service first and asks before replacing
// the stored key. Also: a tracked file opened through a symlinked folder, and
// "ignore this line" in dotenv files.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { KeywardTestApi } from '../../../src/extension.ts';
import { actions, diagnosticsOf, folder, keyward, open, run, write } from './editor.ts';
import { activateKeyward, admin, e2eEnv, leakKey, waitFor, withoutAccountKeys } from './env.ts';

let api: KeywardTestApi;
let realAnswer: KeywardTestApi['dialogs']['answer'];
const routerKey = () => ['sk', 'or', 'v1', randomBytes(32).toString('hex')].join('-');
const masked = (key: string) => `sk-or-v1-…${key.slice(-4)}`;
const fingerprint = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 16);
const git = (...args: string[]) =>
  execFileSync(
    'git',
    ['-c', 'user.email=e2e@keyward.test', '-c', 'user.name=Keyward e2e', '-c', 'core.hooksPath=/dev/null', ...args],
    { cwd: folder(), encoding: 'utf8' },
  );
const read = (path: string) => readFileSync(join(folder(), path), 'utf8');

/** Scripts the fixes' questions: each answer in turn; the questions are kept. */
function answer(...answers: (string | undefined)[]): string[] {
  const asked: string[] = [];
  api.dialogs.answer = async (message) => {
    asked.push(message);
    return answers.shift();
  };
  return asked;
}

function removeEnv(): void {
  rmSync(join(folder(), '.env'), { force: true });
}

async function envFix(path: string, key: string): Promise<{ uri: vscode.Uri; fix: vscode.CodeAction; source: string }> {
  const source = `export const client = { apiKey: "${key}" };\n`;
  const uri = write(path, source);
  const [diagnostic] = await diagnosticsOf(path);
  const fix = (await actions(uri, diagnostic!.range)).find((a) =>
    a.title.startsWith('Read OPENROUTER_API_KEY from the environment'),
  );
  assert.ok(fix, 'the .env fix is offered');
  return { uri, fix, source };
}

async function lastSaid(pattern: RegExp): Promise<string> {
  return waitFor(`a message matching ${String(pattern)}`, () => api.dialogs.told.find((m) => pattern.test(m)));
}

suite('moving keys out of files', () => {
  suiteSetup(async () => {
    api = (await activateKeyward()).exports as KeywardTestApi;
    realAnswer = api.dialogs.answer;
    await withoutAccountKeys();
  });

  suiteTeardown(() => {
    removeEnv();
    api.dialogs.answer = realAnswer;
  });

  test('.env: a link to a tracked .env.development is not written through, and nothing changes', async () => {
    removeEnv();
    write('.env.development', 'DEBUG=1\n');
    git('add', '.env.development');
    git('commit', '-q', '-m', 'development settings');
    symlinkSync('.env.development', join(folder(), '.env'));
    const { uri, fix, source } = await envFix('moves/linked.ts', routerKey());
    assert.equal(await run(fix), false);
    assert.equal(read('.env.development'), 'DEBUG=1\n');
    assert.equal(git('status', '--porcelain', '--', '.env.development'), '');
    assert.ok(lstatSync(join(folder(), '.env')).isSymbolicLink());
    assert.equal(read('moves/linked.ts'), source);
    assert.equal((await vscode.workspace.openTextDocument(uri)).getText(), source);
    assert.match(await lastSaid(/\.env is a symbolic link/), /The key stays where it is/);
  });

  test('.env: a link out of the workspace folder is not written through', async () => {
    removeEnv();
    const outside = join(mkdtempSync(join(tmpdir(), 'keyward-outside-')), 'secrets.env');
    writeFileSync(outside, '');
    symlinkSync(outside, join(folder(), '.env'));
    const { fix, source } = await envFix('moves/outside.ts', routerKey());
    assert.equal(await run(fix), false);
    assert.equal(readFileSync(outside, 'utf8'), '');
    assert.equal(read('moves/outside.ts'), source);
  });

  test('.env: a .env git tracks is refused, saying the key would be committed', async () => {
    removeEnv();
    write('.env', 'A=1\n');
    git('add', '-f', '.env');
    git('commit', '-q', '-m', 'tracked env');
    try {
      const { fix, source } = await envFix('moves/tracked.ts', routerKey());
      assert.equal(await run(fix), false);
      assert.equal(read('.env'), 'A=1\n');
      assert.equal(read('moves/tracked.ts'), source);
      assert.match(await lastSaid(/tracked by git/), /would be committed/);
    } finally {
      git('rm', '-q', '--cached', '.env');
      git('commit', '-q', '-m', 'untrack env');
      removeEnv();
    }
  });

  test('.env: another value under the name is never overwritten: cancel changes nothing; a new name is used when chosen', async () => {
    removeEnv();
    const other = routerKey();
    write('.env', `OPENROUTER_API_KEY=${other}\n`);
    const key = routerKey();
    const { uri, fix, source } = await envFix('moves/conflict.ts', key);
    const asked = answer(undefined);
    assert.equal(await run(fix), false);
    assert.equal(asked.length, 1);
    assert.match(
      asked[0]!,
      new RegExp(`OPENROUTER_API_KEY to another value \\(${masked(other)}\\).*OPENROUTER_API_KEY_2`),
    );
    assert.ok(!asked[0]!.includes(other) && !asked[0]!.includes(key), 'the question shows a key');
    assert.equal(read('.env'), `OPENROUTER_API_KEY=${other}\n`);
    assert.equal(read('moves/conflict.ts'), source);

    answer('Use OPENROUTER_API_KEY_2');
    assert.equal(await run(fix), true);
    assert.equal(read('.env'), `OPENROUTER_API_KEY=${other}\nOPENROUTER_API_KEY_2=${key}\n`);
    await waitFor('the fixed line on disk', () =>
      read('moves/conflict.ts') === 'export const client = { apiKey: process.env.OPENROUTER_API_KEY_2 };\n'
        ? true
        : undefined,
    );
    await waitFor('the diagnostic to go', () => (keyward(uri).length === 0 ? true : undefined));
  });

  test('.env: a new .env is created 0600 and git-ignored; the same value already there is reused without asking', async () => {
    removeEnv();
    const key = routerKey();
    const first = await envFix('moves/first.ts', key);
    const asked = answer();
    assert.equal(await run(first.fix), true);
    assert.equal(read('.env'), `OPENROUTER_API_KEY=${key}\n`);
    assert.equal(statSync(join(folder(), '.env')).mode & 0o777, 0o600);
    assert.equal(execFileSync('git', ['check-ignore', '.env'], { cwd: folder() }).toString().trim(), '.env');
    const second = await envFix('moves/second.ts', key);
    assert.equal(await run(second.fix), true);
    assert.equal(read('.env'), `OPENROUTER_API_KEY=${key}\n`);
    assert.ok(!api.dialogs.told.some((m) => /could not be saved/.test(m)), api.dialogs.told.join(' | '));
    await waitFor('the fixed line on disk', () =>
      read('moves/second.ts') === 'export const client = { apiKey: process.env.OPENROUTER_API_KEY };\n'
        ? true
        : undefined,
    );
    assert.deepEqual(asked, []);
  });

  test('.env from a tracked file: Rotate is the first fix, and the finding stays until the key is rotated', async () => {
    // A committed key is in every clone of the history: GitGuardian keeps such an incident open until the secret is
    // revoked (https://docs.gitguardian.com/internal-monitoring/detect/incident-statuses).
    removeEnv();
    const key = routerKey();
    const path = 'moves/committed.ts';
    write(path, `export const client = { apiKey: "${key}" };\n`);
    git('add', path);
    git('commit', '-q', '-m', 'a key committed by mistake');
    const uri = vscode.Uri.file(join(folder(), path));
    const [diagnostic] = await diagnosticsOf(path);
    assert.equal(diagnostic!.severity, vscode.DiagnosticSeverity.Error);
    const list = await actions(uri, diagnostic!.range);
    assert.equal(list[0]!.title, 'Rotate this key at the routing service', list.map((a) => a.title).join(' | '));
    assert.equal(list[0]!.isPreferred, true);
    const move = list.find((a) => a.title.startsWith('Read OPENROUTER_API_KEY from the environment'));
    assert.ok(move);
    answer();
    assert.equal(await run(move), true);
    await waitFor('the fixed line on disk', () =>
      read(path) === 'export const client = { apiKey: process.env.OPENROUTER_API_KEY };\n' ? true : undefined,
    );
    const kept = await waitFor('the finding to stay after the move', () =>
      keyward(uri).find((d) => d.code === 'committed-key'),
    );
    assert.equal(kept.severity, vscode.DiagnosticSeverity.Error);
    assert.ok(kept.message.includes(masked(key)) && !kept.message.includes(key), kept.message);
    const fixes = await actions(uri, kept.range);
    assert.equal(fixes[0]!.title, 'Rotate this key at the routing service');

    // A rotation: the stored routing key changes.
    const before = api.keyMetadata('router') as { fingerprint: string } | undefined;
    const { routerFunded, routerFree } = e2eEnv().sandboxKeys;
    const next = before?.fingerprint === fingerprint(routerFree) ? routerFunded : routerFree;
    try {
      await vscode.commands.executeCommand('keyward.setRouterKey', { key: next, quiet: true });
      await waitFor('the finding to go once the key is rotated', () =>
        keyward(uri).some((d) => d.code === 'committed-key') ? undefined : true,
      );
    } finally {
      await vscode.commands.executeCommand('keyward.setRouterKey', { key: routerFunded, quiet: true });
    }
  });

  test('store: a key the service refuses is never stored, and the file keeps it', async () => {
    const stored = e2eEnv().sandboxKeys.routerFunded;
    await vscode.commands.executeCommand('keyward.setRouterKey', { key: stored, quiet: true });
    const refused = routerKey();
    const uri = write('moves/refused.js', `const k = '${refused}';\n`);
    const [diagnostic] = await diagnosticsOf('moves/refused.js');
    const fix = (await actions(uri, diagnostic!.range)).find(
      (a) => a.title === 'Store the key in Keyward and remove it from this file',
    );
    assert.ok(fix);
    const asked = answer('Replace Stored Key');
    assert.equal(await run(fix), false);
    assert.deepEqual(asked, [], 'a refused key got as far as the replace question');
    assert.equal((api.keyMetadata('router') as { fingerprint: string }).fingerprint, fingerprint(stored));
    assert.equal((await vscode.workspace.openTextDocument(uri)).lineAt(0).text, `const k = '${refused}';`);
    assert.match(await lastSaid(/refuses the key/), new RegExp(`${masked(refused)}.*did not store it`));
  });

  test('store: a working key replaces the stored one only when the person says so, both shown masked', async () => {
    const stored = e2eEnv().sandboxKeys.routerFunded;
    await vscode.commands.executeCommand('keyward.setRouterKey', { key: stored, quiet: true });
    const { id } = await admin<{ id: string }>('POST', '/router/accounts', { name: 'store-fix' });
    await admin('POST', `/router/accounts/${id}/purchase`, { amount: 5 });
    const fresh = leakKey(
      (
        await admin<{ key: string }>('POST', '/router/keys', {
          accountId: id,
          name: 'in a file',
          limit: 2,
          expiresIn: '30d',
        })
      ).key,
    );
    try {
      const uri = write('moves/fresh.js', `const k = '${fresh}';\n`);
      const [diagnostic] = await diagnosticsOf('moves/fresh.js');
      const fix = (await actions(uri, diagnostic!.range)).find(
        (a) => a.title === 'Store the key in Keyward and remove it from this file',
      );
      assert.ok(fix);
      const asked = answer(undefined);
      assert.equal(await run(fix), false);
      assert.equal(asked.length, 1);
      assert.ok(asked[0]!.includes(masked(stored)) && asked[0]!.includes(masked(fresh)), asked[0]);
      assert.ok(!asked[0]!.includes(stored) && !asked[0]!.includes(fresh), 'the question shows a key');
      assert.equal((api.keyMetadata('router') as { fingerprint: string }).fingerprint, fingerprint(stored));
      assert.equal((await vscode.workspace.openTextDocument(uri)).lineAt(0).text, `const k = '${fresh}';`);

      answer('Replace Stored Key');
      assert.equal(await run(fix), true);
      assert.equal((api.keyMetadata('router') as { fingerprint: string }).fingerprint, fingerprint(fresh));
      assert.equal(
        (await vscode.workspace.openTextDocument(uri)).lineAt(0).text,
        'const k = process.env.OPENROUTER_API_KEY;',
      );
    } finally {
      await vscode.commands.executeCommand('keyward.setRouterKey', { key: stored, quiet: true });
    }
  });

  test('a tracked file opened through a symlinked folder is graded by its real path', async () => {
    const link = join(mkdtempSync(join(tmpdir(), 'keyward-link-')), 'linked-workspace');
    symlinkSync(folder(), link);
    const path = join(link, e2eEnv().workspace.files.tracked!);
    const [diagnostic] = await diagnosticsOf(path);
    assert.equal(diagnostic!.severity, vscode.DiagnosticSeverity.Error);
    assert.match(diagnostic!.message, /tracked by git/);
    assert.equal(api.findings(vscode.Uri.file(path))[0]!.git, 'tracked');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('ignore in a dotenv file: the marker goes on the line before, the value stays as it was', async () => {
    const key = routerKey();
    const uri = write('deploy/app.env', `A=1\nOPENROUTER_API_KEY=${key}\n`);
    const [diagnostic] = await diagnosticsOf('deploy/app.env');
    const list = await actions(uri, diagnostic!.range);
    const fix = list.find((a) => a.title === 'Ignore this line (keyward-ignore-next-line above it)');
    assert.ok(fix, list.map((a) => a.title).join(' | '));
    await run(fix);
    const document = await vscode.workspace.openTextDocument(uri);
    assert.deepEqual(
      [0, 1, 2].map((i) => document.lineAt(i).text),
      ['A=1', '# keyward-ignore-next-line', `OPENROUTER_API_KEY=${key}`],
    );
    await waitFor('the ignored line is quiet', () => (keyward(uri).length === 0 ? true : undefined));
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  test('ignore on a file git tracks says the key stays in git history', async () => {
    const editor = await open(e2eEnv().workspace.files.tracked!);
    const [diagnostic] = await diagnosticsOf(e2eEnv().workspace.files.tracked!);
    const list = await actions(editor.document.uri, diagnostic!.range);
    assert.ok(
      list.some(
        (a) =>
          a.title ===
          'Ignore this line (keyward-ignore-next-line above it): the key stays in git history, so rotate it too',
      ),
      list.map((a) => a.title).join(' | '),
    );
  });
});
