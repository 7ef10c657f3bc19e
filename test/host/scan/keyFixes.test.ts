// The quick fixes over the fake vscode: which fixes each flagged key gets (by git state,
// stored or not, file kind), the commands they carry, and the edit the ignore fix makes.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scannerKeys } from '../../../src/core/keys/keyStore.ts';
import { scanText } from '../../../src/core/scan/scanner.ts';
import { type FileState, KeyDiagnostics } from '../../../src/host/scan/keyDiagnostics.ts';
import { FixCommand } from '../../../src/host/scan/fixCommands.ts';
import { directKey, routerKey } from '../../emulator/keyFactory.ts';
import { type EditorParts, editorParts, nextChange } from '../editorParts.ts';
import {
  CodeActionKind,
  Diagnostic,
  FakeMemento,
  type Range,
  type WorkspaceEdit,
  fakeDocument,
  fileUri,
} from '../fakeVscode.ts';
import { fake } from '../vscodeShim.ts';

let parts: EditorParts;
afterEach(() => parts.dispose());

type Doc = ReturnType<typeof fakeDocument>;

/** Publishes the document's findings at `state`, then asks for the fixes at the first key. */
async function fixesFor(doc: Doc, state: FileState, source = 'Keyward') {
  parts.diagnostics.set(doc.uri as never, scanText(doc.getText(), parts.diagnostics.scanOptions()), state);
  const published = parts.collection.get(doc.uri as never)!;
  const diagnostics = published.map((d) =>
    Object.assign(new Diagnostic(d.range, d.message, d.severity), d, { source }),
  );
  return {
    diagnostic: diagnostics[0]!,
    actions: await parts.fixes.provideCodeActions(
      doc as never,
      diagnostics[0]!.range as never,
      {
        diagnostics: diagnostics.slice(0, 1),
      } as never,
    ),
  };
}

describe('key quick fixes', () => {
  it('a key in a new JavaScript file gets every fix, the move to .env preferred, all tied to its diagnostic', async () => {
    parts = editorParts();
    const doc = fakeDocument('/w/app.js', `const key = "${routerKey()}";\n`);
    const { actions, diagnostic } = await fixesFor(doc, 'untracked');
    expect(actions.map((a) => a.title)).toEqual([
      'Read OPENROUTER_API_KEY from the environment and move the key to .env',
      'Store the key in Keyward and remove it from this file',
      'Add /w/app.js to .gitignore',
      'Ignore this line (keyward-ignore)',
      'Rotate this key at the routing service',
    ]);
    for (const action of actions) {
      expect(action.kind!.value).toBe(CodeActionKind.QuickFix.value);
      expect(action.diagnostics).toEqual([diagnostic]);
    }
    expect(actions.map((a) => a.isPreferred)).toEqual([true, false, false, false, false]);
    const range = parts.diagnostics.all(doc.uri as never)[0]!.range;
    expect(actions[0]!.command).toMatchObject({ command: FixCommand.moveToEnv, arguments: [doc.uri, range] });
    expect(actions[1]!.command).toMatchObject({ command: FixCommand.storeAndRemove, arguments: [doc.uri, range] });
    expect(actions[2]!.command).toMatchObject({ command: FixCommand.gitignoreFile, arguments: [doc.uri] });
    expect(actions[4]!.command).toMatchObject({ command: 'vscode.open' });
    expect(String((actions[4]!.command!.arguments as unknown[])[0])).toBe('https://openrouter.ai/settings/keys');
  });

  it('the ignore fix appends the marker at the end of the key line, and on a tracked file says to rotate too', async () => {
    parts = editorParts();
    const line = `KEY = '${directKey('proj')}'`;
    const doc = fakeDocument('/w/settings.py', `import os\n${line}\n`, 'python');
    const { actions } = await fixesFor(doc, 'tracked');
    // In a tracked file rotating comes first and is the preferred fix: the key is in history whatever else is done
    // (GitGuardian resolves a secret incident only once the secret is revoked:
    // https://docs.gitguardian.com/internal-monitoring/detect/incident-statuses).
    expect(actions.map((a) => a.title)).toEqual([
      'Rotate this key at the direct service',
      'Read OPENAI_API_KEY from the environment and move the key to .env',
      'Store the key in Keyward and remove it from this file',
      'Ignore this line (keyward-ignore): the key stays in git history, so rotate it too',
    ]);
    expect(actions.map((a) => a.isPreferred)).toEqual([true, false, false, false]);
    const ignore = actions[3]!;
    expect(ignore.command).toBeUndefined();
    const [edit] = (ignore.edit as unknown as WorkspaceEdit).edits as { uri: unknown; range: Range; newText: string }[];
    expect(edit!.uri).toBe(doc.uri);
    expect([edit!.range.start.line, edit!.range.start.character, edit!.range.isEmpty]).toEqual([1, line.length, true]);
    expect(edit!.newText).toBe(' # keyward-ignore');
  });

  it('in a .env file the ignore fix puts the next-line marker above the key, indented like it, and offers no move', async () => {
    parts = editorParts();
    const doc = fakeDocument('/w/.env.local', `A=1\n  OPENROUTER_API_KEY=${routerKey()}\n`, 'dotenv');
    const { actions } = await fixesFor(doc, 'ignored');
    expect(actions.map((a) => a.title)).toEqual([
      'Store the key in Keyward and remove it from this file',
      'Ignore this line (keyward-ignore-next-line above it)',
      'Rotate this key at the routing service',
    ]);
    const [edit] = (actions[1]!.edit as unknown as WorkspaceEdit).edits as { range: Range; newText: string }[];
    expect([edit!.range.start.line, edit!.range.start.character]).toEqual([1, 0]);
    expect(edit!.newText).toBe('  # keyward-ignore-next-line\n');
  });

  it('the stored key is removed, not stored again, and rotated with the rotate command', async () => {
    parts = editorParts();
    const key = routerKey();
    await parts.keys.setKey('router', key);
    const options = await scannerKeys(parts.keys);
    const doc = fakeDocument('/w/app.js', `const key = "${key}";\n`);
    parts.diagnostics.set(doc.uri as never, scanText(doc.getText(), options), 'untracked');
    const [published] = parts.collection.get(doc.uri as never)!;
    const actions = await parts.fixes.provideCodeActions(
      doc as never,
      published!.range as never,
      {
        diagnostics: [published],
      } as never,
    );
    expect(actions.map((a) => a.title)).toContain('Remove the key from this file (it is stored in Keyward)');
    // An allow comment does not hide the stored key: the fix that writes one is not offered.
    expect(actions.map((a) => a.title).filter((title) => title.startsWith('Ignore this line'))).toEqual([]);
    expect(actions.at(-1)!.command).toEqual({
      title: 'Rotate this key at the routing service',
      command: 'keyward.rotateRouterKey',
    });
  });

  it('offers nothing for another extension’s diagnostic, nor where no key is', async () => {
    parts = editorParts();
    const doc = fakeDocument('/w/app.js', `const key = "${routerKey()}";\nconst x = 1;\n`);
    expect((await fixesFor(doc, 'untracked', 'eslint')).actions).toEqual([]);
    const elsewhere = new Diagnostic(doc.lineAt(1).range, 'x', 1);
    elsewhere.source = 'Keyward';
    expect(
      await parts.fixes.provideCodeActions(
        doc as never,
        elsewhere.range as never,
        { diagnostics: [elsewhere] } as never,
      ),
    ).toEqual([]);
  });
});

describe('Move to .env: the save of the changed line', () => {
  const workspace = fake.api.workspace as unknown as Record<string, unknown>;
  const onSave = workspace.onDidSaveTextDocument;
  afterEach(() => {
    workspace.onDidSaveTextDocument = onSave;
    delete workspace.openTextDocument;
    delete workspace.getWorkspaceFolder;
    delete workspace.applyEdit;
  });

  /**
   * A JavaScript file with a key in a real folder, opened in a fake editor whose save answers as scripted: `answers`
   * says what each save() returns and whether the document is still dirty after it.
   */
  function moveSetup(answers: { saved: boolean; dirty: boolean }[], savePatienceMs?: number) {
    parts = editorParts({}, { savePatienceMs });
    const folder = mkdtempSync(join(tmpdir(), 'keyward-save-'));
    const key = routerKey();
    const path = join(folder, 'app.js');
    writeFileSync(path, `const key = "${key}";\n`);
    let saves = 0;
    const doc = Object.assign(fakeDocument(path, `const key = "${key}";\n`), {
      isDirty: true,
      isClosed: false,
      save: async () => {
        const answer = answers[Math.min(saves++, answers.length - 1)]!;
        doc.isDirty = answer.dirty;
        return answer.saved;
      },
    });
    workspace.openTextDocument = async () => doc;
    workspace.getWorkspaceFolder = () => ({ uri: fileUri(folder), name: 'w', index: 0 });
    workspace.applyEdit = async () => true;
    // git says .env is ignored: no .gitignore to write, and git itself is not needed here.
    Object.assign(parts.diagnostics.git, { status: async () => 'ignored', invalidate: () => undefined });
    parts.diagnostics.set(doc.uri as never, scanText(doc.getText()), 'untracked');
    const [entry] = parts.diagnostics.all(doc.uri as never);
    return { folder, key, doc, entry: entry!, saves: () => saves };
  }

  it('a first save() that answers false while VS Code still saves (busy machine) is waited on, not reported', async () => {
    // The in-host ".env: a new .env is created 0600…" step once read that first answer as a failed save under load.
    const setup = moveSetup([
      { saved: false, dirty: true },
      { saved: true, dirty: false },
    ]);
    // VS Code's own save ends a while later and says so; the move waits on that event, not on a timer (the default
    // patience is a minute, far past this test's limit).
    // Timed from when the move starts waiting: the fix's code loads first (dist/commands.js), which may take longer
    // than such a delay when nothing is cached yet.
    const listeners: ((d: unknown) => void)[] = [];
    workspace.onDidSaveTextDocument = (listener: (d: unknown) => void) => {
      if (listeners.length === 0)
        setTimeout(() => {
          setup.doc.isDirty = false;
          for (const waiting of [...listeners]) waiting(setup.doc);
        }, 30);
      listeners.push(listener);
      return { dispose: () => listeners.splice(listeners.indexOf(listener), 1) };
    };
    expect(await parts.fixes.moveToEnv(setup.doc.uri as never, setup.entry.range as never)).toBe(true);
    expect(readFileSync(join(setup.folder, '.env'), 'utf8')).toBe(`OPENROUTER_API_KEY=${setup.key}\n`);
    expect(setup.saves()).toBe(2);
    expect(parts.dialogs.told.filter((m) => /could not be saved/.test(m))).toEqual([]);
  });

  it('a save that really fails is still said, once no save came within the patience', async () => {
    const setup = moveSetup([{ saved: false, dirty: true }], 50);
    expect(await parts.fixes.moveToEnv(setup.doc.uri as never, setup.entry.range as never)).toBe(true);
    expect(setup.saves()).toBeGreaterThanOrEqual(2);
    expect(parts.dialogs.told).toEqual([expect.stringMatching(/the file could not be saved yet/)]);
  });
});

// Secrets are once-leaked, always-leaked: GitGuardian keeps the incident open until the secret is revoked
// (https://docs.gitguardian.com/internal-monitoring/detect/incident-statuses), and GitLab never marks a secret
// finding "no longer detected" when it leaves the files (gitlab-org/gitlab merge request 145442).
describe('a key moved out of a tracked file stays a finding until it is rotated', () => {
  const workspace = fake.api.workspace as unknown as Record<string, unknown>;
  afterEach(() => {
    delete workspace.openTextDocument;
    delete workspace.getWorkspaceFolder;
    delete workspace.applyEdit;
  });

  /** Moves the key of a tracked file to .env, then publishes the file's text after the edit (no key left in it). */
  async function moveTracked() {
    parts = editorParts();
    const folder = mkdtempSync(join(tmpdir(), 'keyward-tracked-'));
    const key = routerKey();
    const path = join(folder, 'app.js');
    writeFileSync(path, `const key = "${key}";\n`);
    const doc = Object.assign(fakeDocument(path, `const key = "${key}";\n`), {
      isDirty: true,
      isClosed: false,
      save: async () => true,
    });
    workspace.openTextDocument = async () => doc;
    workspace.getWorkspaceFolder = () => ({ uri: fileUri(folder), name: 'w', index: 0 });
    workspace.applyEdit = async () => true;
    Object.assign(parts.diagnostics.git, { status: async () => 'ignored', invalidate: () => undefined });
    parts.diagnostics.set(doc.uri as never, scanText(doc.getText()), 'tracked');
    const [entry] = parts.diagnostics.all(doc.uri as never);
    expect(await parts.fixes.moveToEnv(doc.uri as never, entry!.range as never)).toBe(true);
    // What the editor publishes once the line reads the environment.
    parts.diagnostics.set(doc.uri as never, [], 'tracked');
    return { key, doc };
  }

  const published = (doc: { uri: unknown }) => parts.collection.get(doc.uri as never) ?? [];

  it('Move to .env keeps an error on the file, naming the key masked, with Rotate as its fix', async () => {
    const { key, doc } = await moveTracked();
    const [diagnostic, ...rest] = published(doc);
    expect(rest).toEqual([]);
    expect(diagnostic).toMatchObject({ code: 'committed-key', source: 'Keyward', severity: 0 });
    expect(diagnostic!.message).toContain(`sk-or-v1-…${key.slice(-4)}`);
    expect(diagnostic!.message).toMatch(/git has it in this file's history: rotate it/);
    expect(diagnostic!.message).not.toContain(key);
    const actions = await parts.fixes.provideCodeActions(
      doc as never,
      diagnostic!.range as never,
      { diagnostics: [Object.assign(diagnostic!, { source: 'Keyward' })] } as never,
    );
    expect(actions.map((a) => [a.title, a.isPreferred])).toEqual([['Rotate this key at the routing service', true]]);
  });

  it('ends when the stored key of the service changes (a rotation), not before', async () => {
    const { doc } = await moveTracked();
    parts.diagnostics.reword();
    expect(published(doc)).toHaveLength(1);
    const change = nextChange(parts);
    await parts.keys.setKey('router', routerKey());
    await change;
    await new Promise((resolve) => setImmediate(resolve));
    expect(published(doc)).toEqual([]);
  });

  it('ends when a live check says the service no longer accepts the key', async () => {
    const { key, doc } = await moveTracked();
    const fingerprint = scanText(key)[0]!.fingerprint;
    parts.diagnostics.verificationOf = (f) =>
      f === fingerprint ? { status: 'live', reason: 'models listed' } : undefined;
    parts.diagnostics.reword();
    expect(published(doc)[0]!.message).toMatch(/^Live key in git history: rotate now\./);
    parts.diagnostics.verificationOf = (f) => (f === fingerprint ? { status: 'inactive', reason: '401' } : undefined);
    parts.diagnostics.reword();
    expect(published(doc)).toEqual([]);
  });
});

describe('the finding of a key moved out of a tracked file survives a reload', () => {
  it('is kept in workspace state (masked form and fingerprint only) and shown again by the next session', async () => {
    parts = editorParts();
    const state = new FakeMemento();
    const key = routerKey();
    const doc = fakeDocument('/w/committed.js', `const key = "${key}";\n`);
    const first = new KeyDiagnostics(parts.keys, parts.configuration, state as never);
    try {
      first.set(doc.uri as never, scanText(doc.getText()), 'tracked');
      first.rememberCommitted(doc.uri as never, first.all(doc.uri as never)[0]!);
      expect(JSON.stringify([...state.values])).not.toContain(key);
      expect(JSON.stringify([...state.values])).toContain(`sk-or-v1-…${key.slice(-4)}`);
    } finally {
      first.dispose();
    }
    const collections = fake.state.diagnosticCollections.length;
    const next = new KeyDiagnostics(parts.keys, parts.configuration, state as never);
    try {
      await new Promise<void>((resolve) => next.onDidChange(() => resolve()));
      const shown = fake.state.diagnosticCollections[collections]!.get(doc.uri as never) ?? [];
      expect(shown.map((d) => d.code)).toEqual(['committed-key']);
    } finally {
      next.dispose();
    }
  });
});
