// Grading the open documents again when git's view changes, over the fake vscode API and a real repository: git is
// asked once for them all (gitPrefetch.ts), and a burst of changes (the index, the git extension, a save) does not
// fall back to two gits per document for the gradings it overtook.
import { afterEach, describe, expect, it } from 'vitest';
import { KeyStore } from '../../src/core/keys/keyStore.ts';
import { runGit } from '../../src/core/scan/git.ts';
import type { GitRunner } from '../../src/core/scan/gitStatus.ts';
import { Configuration } from '../../src/host/configuration.ts';
import { KeyDiagnostics } from '../../src/host/scan/keyDiagnostics.ts';
import { Log } from '../../src/host/log.ts';
import { secretPort, statePort } from '../../src/host/keys/secretPorts.ts';
import { makeRepo } from '../cli/gitFixtures.ts';
import { FakeMemento, FakeSecrets, fileUri } from './fakeVscode.ts';
import { fake } from './vscodeShim.ts';

const NAMES = ['a.js', 'b.js', 'c.js', 'd.js', 'e.js', 'f.js'];

describe('the open documents graded again after a change of git', () => {
  let diagnostics: KeyDiagnostics | undefined;
  afterEach(() => {
    diagnostics?.dispose();
    fake.api.workspace.textDocuments = [];
  });

  it('asks git twice per change, whatever the number of documents, and a burst asks nothing file by file', async () => {
    const repo = makeRepo();
    for (const name of NAMES) repo.write(name, 'export {};\n');
    repo.git('add', 'a.js', 'b.js', 'c.js');
    repo.git('commit', '-q', '-m', 'some');
    repo.write('.gitignore', 'f.js\n');
    const keys = new KeyStore(secretPort(new FakeSecrets() as never), statePort(new FakeMemento() as never));
    diagnostics = new KeyDiagnostics(keys, new Configuration(new Log()));
    const calls: string[] = [];
    const counting: GitRunner = (args, cwd, input) => {
      calls.push(args[0]!);
      return runGit(args, cwd, input === undefined ? {} : { input });
    };
    Object.assign(diagnostics.git, { run: counting });
    const docs = NAMES.map((name) => {
      const path = `${repo.dir}/${name}`;
      return { uri: fileUri(path), fileName: path, languageId: 'javascript', isUntitled: false, getText: () => '' };
    });
    fake.api.workspace.textDocuments = docs;
    for (const doc of docs) await diagnostics.full(doc as never);
    const regrade = () => (diagnostics as unknown as { gitChanged(): Promise<void> }).gitChanged();

    calls.length = 0;
    await regrade();
    expect(calls.filter((c) => c !== 'rev-parse')).toEqual(['ls-files', 'check-ignore']);
    expect(await Promise.all(docs.map((doc) => diagnostics!.fileState(doc.uri as never)))).toEqual([
      'tracked',
      'tracked',
      'tracked',
      'untracked',
      'untracked',
      'ignored',
    ]);

    // A second change while the first grading waits on git: the first one's answers are dropped, and it leaves the
    // publishing to the second rather than asking git file by file (12 more calls for six documents).
    calls.length = 0;
    const first = regrade();
    while (calls.length === 0) await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([first, regrade()]);
    expect(calls.filter((c) => c !== 'rev-parse').length).toBeLessThanOrEqual(4);
  });
});
