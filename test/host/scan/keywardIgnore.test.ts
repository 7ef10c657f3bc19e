// .keywardignore in the editor, over the fake vscode: a suppressed key is still shown (a Hint,
// not hidden) with the file, line and reason that suppressed it, as `keyward scan` lists it; a
// refused line of the ignore file is an Error on that line; a changed ignore file applies at once.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fingerprint } from '../../../src/core/keys/keyFormats.ts';
import { makeRepo } from '../../cli/gitFixtures.ts';
import { routerKey } from '../../emulator/keyFactory.ts';
import { type EditorParts, editorParts, nextChange } from '../editorParts.ts';
import { DiagnosticSeverity, fakeDocument, fileUri } from '../fakeVscode.ts';
import { fake } from '../vscodeShim.ts';
import { scanUnopenedFile } from '../../../src/host/scan/unopenedFile.ts';

let parts: EditorParts;
afterEach(() => parts.dispose());

describe('.keywardignore in the editor', () => {
  it('shows a suppressed key as a Hint saying where it was suppressed; the others keep their severity', async () => {
    parts = editorParts();
    const repo = makeRepo();
    const [fixture, kept, real] = [routerKey(), routerKey(), routerKey()];
    repo.write(
      '.keywardignore',
      `test/fixtures/  # generated, never live\n${fingerprint(kept)}  revoked, kept for the docs\nno reason here\n`,
    );
    const docs = [
      fakeDocument(repo.write('test/fixtures/keys.ts', `k = "${fixture}"\n`), `k = "${fixture}"\n`),
      fakeDocument(repo.write('docs/a.js', `k = "${kept}"\n`), `k = "${kept}"\n`),
      fakeDocument(repo.write('src/app.js', `k = "${real}"\n`), `k = "${real}"\n`),
    ];
    for (const doc of docs) await parts.diagnostics.full(doc as never);
    const first = (i: number) => parts.collection.get(docs[i]!.uri as never)![0]!;
    const [onFixture, onKept, onReal] = [first(0), first(1), first(2)];
    expect(onFixture.severity).toBe(DiagnosticSeverity.Hint);
    expect(onFixture.message).toMatch(/ Suppressed by \.keywardignore:1: generated, never live$/);
    expect(onFixture.code).toBe('router-key');
    expect(onKept.severity).toBe(DiagnosticSeverity.Hint);
    expect(onKept.message).toMatch(/ Suppressed by \.keywardignore:2: revoked, kept for the docs$/);
    expect(onReal.severity).toBe(DiagnosticSeverity.Warning);
    expect(onReal.message).not.toMatch(/Suppressed/);
    expect(parts.diagnostics.all(docs[0]!.uri as never)[0]!.suppression).toEqual({
      file: '.keywardignore',
      line: 1,
      kind: 'path',
      reason: 'generated, never live',
    });
    // The hover says it too, the reason as text (the repository's words never become Markdown).
    const hover = (await parts.hover.provideHover(docs[0] as never, onFixture.range.start as never))!;
    expect((hover.contents as unknown as { value: string }[]).map((c) => c.value).join('\n')).toMatch(
      /- Suppressed: by \\\.keywardignore:1: generated, never live\n/,
    );
    // The refused line is an Error on that line of the ignore file.
    const problems = parts.ignoreProblems.get(fileUri(join(repo.dir, '.keywardignore')) as never)!;
    expect(problems.map((d) => [d.range.start.line, d.severity])).toEqual([[2, DiagnosticSeverity.Error]]);
    expect(problems[0]!.message).toMatch(/^This line of \.keywardignore suppresses nothing: neither a fingerprint/);

    // The line is removed: the fixture is a Warning again, without re-opening it.
    repo.write('.keywardignore', `${fingerprint(kept)}  revoked, kept for the docs\n`);
    parts.diagnostics.ignoreFileChanged();
    expect(parts.collection.get(docs[0]!.uri as never)![0]!.severity).toBe(DiagnosticSeverity.Warning);
    expect(parts.collection.get(docs[1]!.uri as never)![0]!.message).toMatch(/\.keywardignore:1: revoked/);
    expect(parts.ignoreProblems.get(fileUri(join(repo.dir, '.keywardignore')) as never)).toEqual([]);
  });

  // Issue 35 §4: the reason written in a comment on the line above, as .gitignore and .gitleaksignore files are.
  it('takes the comment above an entry as its reason in the Hint and the hover; an entry with none is an Error', async () => {
    parts = editorParts();
    const repo = makeRepo();
    const [kept, real] = [routerKey(), routerKey()];
    repo.write('.keywardignore', `# revoked example key in the docs\n${fingerprint(kept)}\n\nsrc/\n`);
    const docs = [
      fakeDocument(repo.write('docs/a.js', `k = "${kept}"\n`), `k = "${kept}"\n`),
      fakeDocument(repo.write('src/app.js', `k = "${real}"\n`), `k = "${real}"\n`),
    ];
    for (const doc of docs) await parts.diagnostics.full(doc as never);
    const [onKept, onReal] = docs.map((doc) => parts.collection.get(doc.uri as never)![0]!);
    expect(onKept!.severity).toBe(DiagnosticSeverity.Hint);
    expect(onKept!.message).toMatch(/ Suppressed by \.keywardignore:2: revoked example key in the docs$/);
    const hover = (await parts.hover.provideHover(docs[0] as never, onKept!.range.start as never))!;
    expect((hover.contents as unknown as { value: string }[]).map((c) => c.value).join('\n')).toMatch(
      /- Suppressed: by \\\.keywardignore:2: revoked example key in the docs\n/,
    );
    expect(onReal!.severity).toBe(DiagnosticSeverity.Warning);
    const problems = parts.ignoreProblems.get(fileUri(join(repo.dir, '.keywardignore')) as never)!;
    expect(problems.map((d) => [d.range.start.line, d.severity])).toEqual([[3, DiagnosticSeverity.Error]]);
    expect(problems[0]!.message).toMatch(/^This line of \.keywardignore suppresses nothing: neither a fingerprint/);
  });

  // Issue 31 item 9: before, these lines were taken and every key in the tree dropped to a Hint.
  it.each(['?*  # generated', '*.*  # x', '[!\\n]*  # x'])(
    '"%s" is refused on its line, and a key elsewhere keeps its severity',
    async (line) => {
      parts = editorParts();
      const repo = makeRepo();
      repo.write('.keywardignore', `${line}\n`);
      const key = routerKey();
      const doc = fakeDocument(repo.write('src/app.js', `k = "${key}"\n`), `k = "${key}"\n`);
      await parts.diagnostics.full(doc as never);
      const [onKey] = parts.collection.get(doc.uri as never)!;
      expect(onKey!.severity).toBe(DiagnosticSeverity.Warning);
      expect(onKey!.message).not.toMatch(/Suppressed/);
      expect(parts.diagnostics.all(doc.uri as never)[0]!.suppression).toBeUndefined();
      const problems = parts.ignoreProblems.get(fileUri(join(repo.dir, '.keywardignore')) as never)!;
      expect(problems.map((d) => [d.range.start.line, d.severity])).toEqual([[0, DiagnosticSeverity.Error]]);
      expect(problems[0]!.message).toMatch(
        /^This line of \.keywardignore suppresses nothing: ".+" would suppress (every file|most files)/,
      );
    },
  );

  // Issue 31 item 9: a repository's file never quiets the user's own stored key.
  it('the key stored in Keyward stays an Error that says why, whatever the ignore file or an allow comment says', async () => {
    parts = editorParts();
    const repo = makeRepo();
    const [mine, other, quiet] = [routerKey(), routerKey(), routerKey()];
    repo.write('.keywardignore', `src/  # generated\n${fingerprint(mine)}  revoked, kept for the docs\n`);
    const text = `a = "${mine}"\nb = "${other}"\nc = "${mine}" // keyward-ignore\nd = "${quiet}" // keyward-ignore\n`;
    const doc = fakeDocument(repo.write('src/app.js', text), text);
    fake.api.workspace.textDocuments = [doc];
    try {
      await parts.keys.setKey('router', mine);
      const published = () => parts.collection.get(doc.uri as never) ?? [];
      for (let i = 0; i < 20 && !published()[0]?.message.startsWith('Your'); i++) await nextChange(parts);
      const [a, b, c, ...rest] = published();
      // Only the allow comment on a key that is not stored hides it.
      expect(rest).toEqual([]);
      expect([a!.range.start.line, b!.range.start.line, c!.range.start.line]).toEqual([0, 1, 2]);
      expect([a!.severity, b!.severity, c!.severity]).toEqual([
        DiagnosticSeverity.Error,
        DiagnosticSeverity.Hint,
        DiagnosticSeverity.Error,
      ]);
      expect(a!.message).toMatch(/^Your routing service key sk-or-v1-…\w{4}, the one stored in Keyward\./);
      expect(a!.message).toMatch(
        / \.keywardignore:1 would suppress it, but a repository's file never suppresses the key stored in Keyward\.$/,
      );
      expect(c!.message).toMatch(/ An allow comment does not hide the key stored in Keyward\./);
      expect(b!.message).toMatch(/ Suppressed by \.keywardignore:1: generated$/);
      const entries = parts.diagnostics.all(doc.uri as never);
      expect(entries.map((e) => e.suppression?.line)).toEqual([undefined, 1, undefined]);
      for (const d of published()) expect(d.message).not.toContain(mine);
    } finally {
      fake.api.workspace.textDocuments = [];
    }
  });

  it('Scan Workspace publishes a suppressed key as a Hint and does not count it as a key found', async () => {
    parts = editorParts();
    const repo = makeRepo();
    repo.write('.keywardignore', 'fixtures/  # generated, never live\n');
    const files = [
      repo.write('fixtures/a.js', `k = "${routerKey()}"\n`),
      repo.write('src/b.js', `k = "${routerKey()}"\n`),
    ];
    // The two calls of workspace.fs the scan makes, over the disk, for this test only.
    const workspace = fake.api.workspace as unknown as Record<string, unknown>;
    workspace.fs = {
      stat: async (uri: { fsPath: string }) => ({ size: statSync(uri.fsPath).size }),
      readFile: async (uri: { fsPath: string }) => readFileSync(uri.fsPath),
    };
    try {
      const [fixture, source] = await Promise.all(
        files.map((path) => scanUnopenedFile(parts.diagnostics, fileUri(path) as never, 1 << 20)),
      );
      expect(fixture).toEqual({ findings: 0, suppressed: 1, notScanned: [] });
      expect(source).toEqual({ findings: 1, suppressed: 0, notScanned: [] });
      expect(parts.collection.get(fileUri(files[0]!) as never)!.map((d) => d.severity)).toEqual([
        DiagnosticSeverity.Hint,
      ]);
    } finally {
      delete workspace.fs;
    }
  });
});
