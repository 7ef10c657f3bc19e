// Disable now from a found key's quick fix, over the fake vscode API and real HTTP to the emulator: offered first
// once a management key is stored (and not for the key Keyward uses), it finds the key by its listed form and
// disables it at once; a key of another account is named as such, never guessed.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scanText } from '../../../src/core/scan/scanner.ts';
import { FixCommand } from '../../../src/host/scan/fixCommands.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { type EditorParts, editorParts } from '../editorParts.ts';
import { Diagnostic, fakeDocument } from '../fakeVscode.ts';
import { fake } from '../vscodeShim.ts';

let bed: TestBed;
let accountId: string;
let parts: EditorParts | undefined;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(async () => {
  parts?.dispose();
  await bed.admin('POST', '/reset', {});
  accountId = (await bed.admin<{ id: string }>('POST', '/router/accounts', { name: 'acct' })).id;
  await bed.admin('POST', `/router/accounts/${accountId}/purchase`, { amount: 20 });
  parts = editorParts({ 'keyward.router.baseUrl': bed.emulator.routerBaseUrl });
  fake.state.messages.length = 0;
});

const make = async (extra: Record<string, unknown> = {}) =>
  (await bed.admin<{ key: string }>('POST', '/router/keys', { accountId, ...extra })).key;
const answers = async (key: string) =>
  (
    await bed.router('/chat/completions', key, {
      body: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
    })
  ).status !== 401;

async function fixesAt(text: string) {
  const doc = fakeDocument('/w/config.js', text, 'javascript', 'file');
  fake.api.workspace.textDocuments = [doc];
  parts!.diagnostics.set(doc.uri as never, scanText(text, parts!.diagnostics.scanOptions()), 'tracked');
  const diagnostic = Object.assign(
    new Diagnostic(undefined as never, '', 0),
    parts!.collection.get(doc.uri as never)![0]!,
    {
      source: 'Keyward',
    },
  );
  const actions = await parts!.fixes.provideCodeActions(
    doc as never,
    diagnostic.range as never,
    {
      diagnostics: [diagnostic],
    } as never,
  );
  return { doc, actions };
}

describe('Disable this key now (quick fix)', () => {
  it('is offered first with a management key, and disables the found key at once', async () => {
    const leaked = await make({ name: 'ci' });
    const before = await fixesAt(`const k = "${leaked}";\n`);
    expect(before.actions.map((a) => a.title)).not.toContain('Disable this key now at the routing service');
    await parts!.keys.setAccountKey('router', await make({ management: true }));
    const { actions } = await fixesAt(`const k = "${leaked}";\n`);
    expect([actions[0]!.title, actions[0]!.isPreferred]).toEqual(['Disable this key now at the routing service', true]);
    expect(actions.filter((a) => a.isPreferred)).toHaveLength(1);
    const { command, arguments: args } = actions[0]!.command!;
    expect(command).toBe(FixCommand.stopKey);
    expect(await fake.state.commands.get(command)!(...args!)).toBe(true);
    expect(await answers(leaked)).toBe(false);
    expect(fake.state.messages.map((m) => m.text)).toContainEqual(expect.stringMatching(/^Disabled ci \(sk-or-v1-/));
    expect(JSON.stringify(fake.state.messages)).not.toContain(leaked);
  });

  it('says a key of another account is not among the managed keys, and disables nothing', async () => {
    await parts!.keys.setAccountKey('router', await make({ management: true }));
    const other = (await bed.admin<{ id: string }>('POST', '/router/accounts', { name: 'other' })).id;
    const foreign = (await bed.admin<{ key: string }>('POST', '/router/keys', { accountId: other })).key;
    const { actions } = await fixesAt(`const k = "${foreign}";\n`);
    const { command, arguments: args } = actions[0]!.command!;
    expect(await fake.state.commands.get(command)!(...args!)).toBe(false);
    expect(fake.state.messages.at(-1)!.text).toMatch(/is not among the keys the stored management key manages/);
    expect(await answers(foreign)).toBe(true);
  });
});
