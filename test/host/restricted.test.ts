// Restricted Mode (an untrusted folder), over the fake vscode API: keys are
// still flagged from the file's text, git is never asked, and no fix that
// writes a file or stores a key is offered or runs.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeyStore } from '../../src/core/keys/keyStore.ts';
import { scanText } from '../../src/core/scan/scanner.ts';
import { Configuration } from '../../src/host/configuration.ts';
import { KeyDiagnostics } from '../../src/host/scan/keyDiagnostics.ts';
import { DialogProbe } from '../../src/host/dialogProbe.ts';
import { KeyFixes } from '../../src/host/scan/keyFixes.ts';
import { KeyHover } from '../../src/host/scan/keyHover.ts';
import { KeyLiveness } from '../../src/host/scan/keyLiveness.ts';
import { Log } from '../../src/host/log.ts';
import { secretPort, statePort } from '../../src/host/keys/secretPorts.ts';
import { routerKey } from '../emulator/keyFactory.ts';
import { Diagnostic, FakeMemento, FakeSecrets, Position, Range, fileUri } from './fakeVscode.ts';
import { fake } from './vscodeShim.ts';

function document(path: string, text: string) {
  const lines = text.split('\n');
  return {
    uri: fileUri(path),
    fileName: path,
    languageId: 'javascript',
    isUntitled: false,
    getText: () => text,
    lineAt: (n: number) => ({ text: lines[n]!, range: new Range(n, 0, n, lines[n]!.length) }),
  };
}

describe('Restricted Mode', () => {
  let gitCalls = 0;
  let parts: { diagnostics: KeyDiagnostics; fixes: KeyFixes; configuration: Configuration };

  beforeEach(() => {
    fake.api.workspace.isTrusted = false;
    fake.state.commands.clear();
    fake.state.messages.length = 0;
    const keys = new KeyStore(secretPort(new FakeSecrets() as never), statePort(new FakeMemento() as never));
    const configuration = new Configuration(new Log());
    const diagnostics = new KeyDiagnostics(keys, configuration);
    gitCalls = 0;
    const count = () => {
      gitCalls++;
      throw new Error('git was run in Restricted Mode');
    };
    Object.assign(diagnostics.git, { status: count, root: count, run: count });
    parts = { diagnostics, configuration, fixes: new KeyFixes(diagnostics, configuration, keys) };
  });

  afterEach(() => {
    fake.api.workspace.isTrusted = true;
    parts.fixes.dispose();
    parts.diagnostics.dispose();
    parts.configuration.dispose();
  });

  it('flags a key from the text alone, says git was not asked, and offers only the rotation', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'keyward-restricted-'));
    const key = routerKey();
    const text = `const key = "${key}";\n`;
    writeFileSync(join(folder, 'app.js'), text);
    const doc = document(join(folder, 'app.js'), text);
    const state = await parts.diagnostics.fileState(doc.uri as never);
    expect(state).toBe('restricted');
    parts.diagnostics.set(doc.uri as never, scanText(text), state);
    const [entry] = parts.diagnostics.all(doc.uri as never);
    expect(entry!.git).toBe('restricted');
    const diagnostic = new Diagnostic(entry!.range as never, 'x', 1);
    diagnostic.source = 'Keyward';
    const titles = (
      await parts.fixes.provideCodeActions(doc as never, entry!.range as never, { diagnostics: [diagnostic] } as never)
    ).map((a) => a.title);
    expect(titles).toEqual(['Rotate this key at the routing service']);
    expect(gitCalls).toBe(0);
  });

  it('refuses the fixes that write, however they are invoked', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'keyward-restricted-'));
    const uri = fileUri(join(folder, 'app.js'));
    writeFileSync(uri.fsPath, `const key = "${routerKey()}";\n`);
    expect(await parts.fixes.moveToEnv(uri as never, new Range(0, 13, 0, 86) as never)).toBe(false);
    expect(await parts.fixes.storeAndRemove(uri as never, new Range(0, 13, 0, 86) as never)).toBe(false);
    expect(await parts.fixes.gitignoreFile(uri as never)).toBe(false);
    expect(existsSync(join(folder, '.env'))).toBe(false);
    expect(existsSync(join(folder, '.gitignore'))).toBe(false);
    expect(readFileSync(uri.fsPath, 'utf8')).toMatch(/sk-or-v1-/);
    expect(fake.state.messages.map((m) => m.text)).toEqual(
      Array(3).fill(expect.stringMatching(/^Restricted Mode: Keyward does not change files or store keys/)),
    );
    expect(gitCalls).toBe(0);
  });

  it('declares limited support, and Scan Git History is off until the folder is trusted', () => {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
      capabilities: { untrustedWorkspaces: { supported: string; description: string } };
      contributes: { commands: { command: string; enablement?: string }[] };
    };
    expect(manifest.capabilities.untrustedWorkspaces).toMatchObject({
      supported: 'limited',
      description: '%capabilities.untrustedWorkspaces%',
    });
    expect(manifest.contributes.commands.find((c) => c.command === 'keyward.scanHistory')!.enablement).toBe(
      'isWorkspaceTrusted',
    );
  });

  it('asks before "Check whether this key is live" sends a key from an untrusted file, naming the host it goes to', async () => {
    // The key is sent to the user's own service URL; still, a key from a folder not trusted leaves only when asked.
    let requests = 0;
    const server: Server = createServer((_request, response) => {
      requests++;
      response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"no"}}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    fake.state.settings['keyward.router.baseUrl'] = `http://${host}/api/v1`;
    const configuration = new Configuration(new Log());
    // The question goes through the dialogs port the class is given: scripted here.
    let answer: string | undefined;
    const asked: string[] = [];
    const dialogs = new DialogProbe();
    dialogs.answer = async (message) => (asked.push(message), answer);
    const liveness = new KeyLiveness(parts.diagnostics, configuration, dialogs);
    const workspace = fake.api.workspace as unknown as Record<string, unknown>;
    try {
      const key = routerKey();
      const text = `const key = "${key}";\n`;
      const doc = document('/untrusted/app.js', text);
      workspace.openTextDocument = async () => ({ ...doc, getText: (range?: unknown) => (range ? key : text) });
      parts.diagnostics.set(doc.uri as never, scanText(text), 'restricted');
      const [entry] = parts.diagnostics.all(doc.uri as never);
      expect(await liveness.check(doc.uri as never, entry!.range as never)).toBeUndefined();
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain(host);
      expect(asked[0]).toMatch(/^Restricted Mode: .*sk-or-v1-….* Send it\?$/);
      expect(asked[0]).not.toContain(key);
      expect(requests).toBe(0);

      answer = 'Send and Check';
      expect((await liveness.check(doc.uri as never, entry!.range as never))?.status).toBe('inactive');
      expect(requests).toBe(1);
      expect(gitCalls).toBe(0);
    } finally {
      delete workspace.openTextDocument;
      delete fake.state.settings['keyward.router.baseUrl'];
      liveness.dispose();
      configuration.dispose();
      server.close();
    }
  });

  it('the hover does not advise moving the key out, since no fix does it here', async () => {
    const key = routerKey();
    const text = `const key = "${key}";\n`;
    const doc = document('/untrusted/hover.js', text);
    parts.diagnostics.set(doc.uri as never, scanText(text), 'restricted');
    const hover = new KeyHover(parts.diagnostics);
    try {
      const shown = await hover.provideHover(doc as never, new Position(0, 15) as never);
      const markdown = (shown as unknown as { contents: { value: string }[] }).contents[0]!.value;
      expect(markdown).toMatch(/Restricted Mode/);
      expect(markdown).not.toMatch(/move the key out \(|Move the key out/);
      expect(markdown).toMatch(/Rotate the key/);
    } finally {
      hover.dispose();
    }
  });
});
