// The classes that ask the person something take where they ask (the dialogs port, host/dialogs.ts) in their
// constructor, as the chat session takes its ports: none carries an `ask` or `said` member for tests to swap or
// read. Keyward's own in-host tests pass a DialogProbe; an ordinary run, VS Code's window.
import { describe, expect, it } from 'vitest';
import { KeyStore } from '../../src/core/keys/keyStore.ts';
import { Configuration } from '../../src/host/configuration.ts';
import { DialogProbe } from '../../src/host/dialogProbe.ts';
import { secretPort, statePort } from '../../src/host/keys/secretPorts.ts';
import { LanguageModelAccess } from '../../src/host/lm/lmAccess.ts';
import { Log } from '../../src/host/log.ts';
import { KeyDiagnostics } from '../../src/host/scan/keyDiagnostics.ts';
import { KeyFixes } from '../../src/host/scan/keyFixes.ts';
import { KeyLiveness } from '../../src/host/scan/keyLiveness.ts';
import { PreCommitHookCommand } from '../../src/host/scan/preCommitHookCommand.ts';
import { FakeMemento, FakeSecrets } from './fakeVscode.ts';
import { fake } from './vscodeShim.ts';

describe('the dialogs port', () => {
  it('the quick fixes, the liveness check and the hook command carry no member for tests', () => {
    const log = new Log();
    const configuration = new Configuration(log);
    const keys = new KeyStore(secretPort(new FakeSecrets() as never), statePort(new FakeMemento() as never));
    const diagnostics = new KeyDiagnostics(keys, configuration);
    const dialogs = new DialogProbe();
    const fixes = new KeyFixes(diagnostics, configuration, keys, { dialogs });
    const liveness = new KeyLiveness(diagnostics, configuration, dialogs);
    const hook = new PreCommitHookCommand(log, dialogs);
    const access = new LanguageModelAccess(new FakeMemento(), undefined, log, 'keyward.keyward', dialogs);
    for (const made of [fixes, liveness, hook, access]) {
      expect('ask' in made).toBe(false);
      expect('said' in made).toBe(false);
    }
    for (const made of [fixes, liveness, diagnostics, configuration]) made.dispose();
  });

  it('the hook command tells, and the language models ask, through the port they were given', async () => {
    fake.state.messages.length = 0;
    const dialogs = new DialogProbe();
    const asked: string[] = [];
    dialogs.answer = async (message, _detail, ...items) => (asked.push(message), items[0]);
    const log = new Log();
    // No folder open: the command says so, through the probe.
    expect(await new PreCommitHookCommand(log, dialogs).run()).toEqual({ kind: 'no_folder' });
    expect(dialogs.told).toEqual(['Open a folder inside a git repository to install a pre-commit hook.']);
    const access = new LanguageModelAccess(new FakeMemento(), undefined, log, 'keyward.keyward', dialogs);
    expect(await access.admit('other.ext')).toBe(true);
    expect(asked).toEqual(['other.ext wants to use Keyward’s language models.']);
    // The window's modal was not shown: the scripted answer took its place.
    expect(fake.state.messages.filter((m) => m.items.length > 0)).toEqual([]);
  });
});
