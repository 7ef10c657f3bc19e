// Diagnostics for a document over the fake vscode: where the key is, how loud by where git
// stands, which rule it matched, and a message that names the key only masked.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scannerKeys } from '../../../src/core/keys/keyStore.ts';
import { scanText } from '../../../src/core/scan/scanner.ts';
import type { FileState } from '../../../src/host/scan/keyDiagnostics.ts';
import { makeRepo, tempDir } from '../../cli/gitFixtures.ts';
import { directKey, routerKey } from '../../emulator/keyFactory.ts';
import { type EditorParts, editorParts, nextChange } from '../editorParts.ts';
import { DiagnosticSeverity, fakeDocument, fileUri } from '../fakeVscode.ts';
import { fake } from '../vscodeShim.ts';

let parts: EditorParts;
afterEach(() => parts.dispose());

describe('key diagnostics', () => {
  it('marks the key exactly, with the rule as code, the source, and only the masked key in the message', async () => {
    parts = editorParts();
    const key = routerKey();
    const legacy = directKey('legacy');
    const text = `// config\nconst a = "${key}";\nconst b = '${legacy}';\n`;
    const doc = fakeDocument('/untitled-1', text, 'javascript', 'untitled');
    await parts.diagnostics.full(doc as never);
    const published = parts.collection.get(doc.uri as never)!;
    expect(published.map((d) => [d.code, d.source, d.severity])).toEqual([
      ['router-key', 'Keyward', DiagnosticSeverity.Warning],
      ['direct-key-legacy', 'Keyward', DiagnosticSeverity.Warning],
    ]);
    const [first, second] = published;
    expect([first!.range.start.line, first!.range.start.character, first!.range.end.character]).toEqual([
      1,
      11,
      11 + key.length,
    ]);
    expect(doc.getText(first!.range)).toBe(key);
    expect(doc.getText(second!.range)).toBe(legacy);
    expect(first!.message).toBe(`A routing service key, sk-or-v1-…${key.slice(-4)}. This file is not saved yet.`);
    for (const d of published) {
      expect(d.message).not.toContain(key);
      expect(d.message).not.toContain(legacy);
    }
    expect(parts.diagnostics.all(doc.uri as never).map((e) => e.git)).toEqual(['unsaved', 'unsaved']);
  });

  it.each<[FileState, number | undefined, RegExp]>([
    ['tracked', DiagnosticSeverity.Error, /tracked by git: the key is in its history/],
    ['untracked', DiagnosticSeverity.Warning, /would be committed/],
    ['ignored', DiagnosticSeverity.Information, /ignored by git/],
    ['outside', DiagnosticSeverity.Warning, /not in a git repository/],
    ['restricted', DiagnosticSeverity.Warning, /Restricted Mode/],
    ['refused', DiagnosticSeverity.Error, /Git refuses this file's repository/],
  ])('a file git calls %s is flagged at severity %s', (state, severity, text) => {
    parts = editorParts();
    const uri = fileUri('/w/app.js');
    parts.diagnostics.set(uri as never, scanText(`k = "${routerKey()}"\n`), state);
    const [diagnostic] = parts.collection.get(uri as never)!;
    expect(diagnostic!.severity).toBe(severity);
    expect(diagnostic!.message).toMatch(text);
  });

  it('shows nothing for an ignored file when keyward.diagnostics.ignoredFiles is off, and names a bad value', () => {
    parts = editorParts({ 'keyward.diagnostics.ignoredFiles': 'off' });
    const uri = fileUri('/w/.env');
    parts.diagnostics.set(uri as never, scanText(`KEY=${routerKey()}\n`), 'ignored');
    expect(parts.collection.get(uri as never)).toEqual([]);
    parts.dispose();
    parts = editorParts({ 'keyward.diagnostics.ignoredFiles': 'loud' });
    parts.diagnostics.set(uri as never, scanText(`KEY=${routerKey()}\n`), 'ignored');
    expect(parts.collection.get(uri as never)!.map((d) => d.severity)).toEqual([DiagnosticSeverity.Information]);
    expect(parts.configuration.value.diagnostics.ignoredFiles).toBe('information');
    expect(parts.configuration.value.scan.maxFileSizeKb).toBe(1024);
  });

  it.each<FileState>(['ignored', 'untracked', 'outside', 'unsaved'])(
    'an admin key is an Error in a file git calls %s, even with ignored files off, and says what it can do',
    (state) => {
      // Issue 33: an admin key manages the organization (its keys, projects, costs); no file is a place for it.
      parts = editorParts({ 'keyward.diagnostics.ignoredFiles': 'off' });
      const uri = fileUri('/w/.env');
      const admin = directKey('admin');
      parts.diagnostics.set(uri as never, scanText(`OPENAI_ADMIN_KEY=${admin}\nKEY=${routerKey()}\n`), state);
      const [first, ...rest] = parts.collection.get(uri as never)!;
      expect([first!.code, first!.severity]).toEqual(['direct-admin-key', DiagnosticSeverity.Error]);
      expect(first!.message).toMatch(
        /^An admin key of the direct service, sk-admin-…[\w-]{4}: it manages the organization/,
      );
      expect(first!.message).not.toContain(admin);
      // The ordinary key beside it keeps its own grade.
      expect(rest.map((d) => d.severity)).toEqual(state === 'ignored' ? [] : [DiagnosticSeverity.Warning]);
    },
  );

  it('grades a saved file by real git: tracked is an Error, ignored is Information, a new file a Warning', async () => {
    parts = editorParts();
    const repo = makeRepo();
    const key = routerKey();
    const body = `export const k = "${key}";\n`;
    repo.write('.gitignore', 'secret.js\n');
    repo.write('tracked.js', body);
    repo.git('add', '.gitignore', 'tracked.js');
    repo.git('commit', '-q', '-m', 'a key');
    repo.write('secret.js', body);
    repo.write('new.js', body);
    const outside = join(tempDir(), 'loose.js');
    writeFileSync(outside, body);
    const severities: Record<string, number | undefined> = {};
    for (const path of [join(repo.dir, 'tracked.js'), join(repo.dir, 'secret.js'), join(repo.dir, 'new.js'), outside]) {
      const doc = fakeDocument(path, body);
      await parts.diagnostics.full(doc as never);
      severities[path.endsWith('loose.js') ? 'outside' : path.slice(repo.dir.length + 1)] = parts.collection.get(
        doc.uri as never,
      )![0]!.severity;
    }
    expect(severities).toEqual({
      'tracked.js': DiagnosticSeverity.Error,
      'secret.js': DiagnosticSeverity.Information,
      'new.js': DiagnosticSeverity.Warning,
      outside: DiagnosticSeverity.Warning,
    });
  });

  // Issue 19, item 4, in the editor: a repository git refuses was "not in a git repository" (a Warning), though
  // the file may be tracked. The CLI's side: test/cli/scanGitRefused.test.ts.
  it('a file in a repository git refuses is no file "not in a git repository": an Error that says git refuses it', async () => {
    parts = editorParts();
    const repo = makeRepo();
    const body = `export const k = "${routerKey()}";\n`;
    repo.write('tracked.js', body);
    repo.git('add', 'tracked.js');
    repo.git('commit', '-q', '-m', 'a key');
    writeFileSync(join(repo.dir, '.git', 'HEAD'), 'not a ref\n');
    const doc = fakeDocument(join(repo.dir, 'tracked.js'), body);
    await parts.diagnostics.full(doc as never);
    const [diagnostic] = parts.collection.get(doc.uri as never)!;
    expect(diagnostic!.severity).toBe(DiagnosticSeverity.Error);
    expect(diagnostic!.message).toMatch(/Git refuses this file's repository/);
    expect(diagnostic!.message).not.toMatch(/not in a git repository/);
    expect(parts.diagnostics.all(doc.uri as never).map((e) => e.git)).toEqual(['refused']);
  });

  it('reads a detect-secrets pragma in an open YAML file only after "#", as the CLI does', async () => {
    parts = editorParts();
    const line = (key: string, comment: string) => `token: ${key} ${comment} pragma: allowlist secret\n`;
    const yaml = fakeDocument('/w/ci.yaml', line(routerKey(), '//'), 'yaml', 'untitled');
    const hashed = fakeDocument('/w/other.yaml', line(routerKey(), '#'), 'yaml', 'untitled');
    const script = fakeDocument('/w/ci.js', line(routerKey(), '//'), 'javascript', 'untitled');
    for (const doc of [yaml, hashed, script]) await parts.diagnostics.full(doc as never);
    expect([yaml, hashed, script].map((doc) => parts.collection.get(doc.uri as never)!.length)).toEqual([1, 0, 0]);
  });

  it('says "your key" for an open document once that key is stored in Keyward', async () => {
    parts = editorParts();
    const key = routerKey();
    const doc = fakeDocument('/untitled-2', `k = "${key}"\n`, 'javascript', 'untitled');
    fake.api.workspace.textDocuments = [doc];
    try {
      await parts.diagnostics.full(doc as never);
      expect(parts.collection.get(doc.uri as never)![0]!.message).toMatch(/^A routing service key/);
      await parts.keys.setKey('router', key);
      // The store's change reaches the diagnostics asynchronously; other rescans may publish first.
      const message = () => parts.collection.get(doc.uri as never)![0]!.message;
      for (let i = 0; i < 20 && !message().startsWith('Your'); i++) await nextChange(parts);
      expect(message()).toMatch(/^Your routing service key sk-or-v1-…\w{4}, the one stored in Keyward\./);
    } finally {
      fake.api.workspace.textDocuments = [];
    }
  });

  it('calls a stored management key what it is, an Error even in a file git ignores', async () => {
    // Issue 33: the management key mints keys that spend the balance; its shape is any routing key's.
    parts = editorParts({ 'keyward.diagnostics.ignoredFiles': 'off' });
    const manager = routerKey();
    const doc = fakeDocument('/w/.env', `OPENROUTER_MANAGEMENT_KEY=${manager}\n`, 'dotenv', 'file');
    fake.api.workspace.textDocuments = [doc];
    try {
      await parts.keys.setAccountKey('router', manager);
      parts.diagnostics.set(doc.uri as never, scanText(doc.getText(), await scannerKeys(parts.keys)), 'ignored');
      const first = () => parts.collection.get(doc.uri as never)?.[0];
      expect([first()!.code, first()!.severity]).toEqual(['router-management-key', DiagnosticSeverity.Error]);
      expect(first()!.message).toMatch(/^Your routing service management key sk-or-v1-…[\w-]{4}, the one stored/);
      expect(first()!.message).not.toContain(manager);
    } finally {
      fake.api.workspace.textDocuments = [];
    }
  });
});
