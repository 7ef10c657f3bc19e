// The built extension bundle activates against a fake vscode, registers what
// package.json contributes, and disposes everything it created.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVICES } from '../../src/core/services/descriptors.ts';
import { SERVICE_IDS } from '../../src/shared/serviceIds.ts';
import { createFakeVscode, fakeExtensionContext } from './fakeVscode.ts';
import { loadExtensionBundle as loadExtension } from './loadBundle.ts';

describe('activation (bundle, fake vscode)', () => {
  it('registers every contributed command and disposes them all', () => {
    const { api, state } = createFakeVscode({ 'keyward.router.baseUrl': 'http://127.0.0.1:9/router/api/v1' });
    const context = fakeExtensionContext('9.9.9');
    loadExtension(api).activate(context);
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
      contributes: { commands: { command: string }[] };
    };
    // Quick-fix commands are internal: registered, not contributed to the palette.
    expect([...state.commands.keys()].filter((id) => !id.startsWith('keyward.fix.')).sort()).toEqual(
      manifest.contributes.commands.map((c) => c.command).sort(),
    );
    expect(state.logLines.join('\n')).toContain('router http://127.0.0.1:9/router/api/v1');
    context.dispose();
    expect(state.commands.size).toBe(0);
  });

  it('Set Key… asks which service when none is named, offering every service', async () => {
    const { api, state } = createFakeVscode({});
    const context = fakeExtensionContext();
    // The service's pick loads with the other on-demand commands (dist/commands.js).
    loadExtension(api, undefined, { onDemand: true }).activate(context);
    const setKey = state.commands.get('keyward.setKey')!;
    state.picks.push(undefined);
    await setKey();
    expect(state.quickPicks).toHaveLength(1);
    expect(state.quickPicks[0]!.map((item) => item.label)).toEqual(SERVICE_IDS.map((id) => SERVICES[id].label));
    // Dismissed: nothing more is asked.
    expect(state.messages).toEqual([]);
    context.dispose();
  });

  it('Verify, Rotate and Delete Key… with no key stored say so and offer Set Key…, which then asks which service', async () => {
    const { api, state } = createFakeVscode({});
    const context = fakeExtensionContext();
    loadExtension(api, undefined, { onDemand: true }).activate(context);
    for (const id of ['keyward.verifyKey', 'keyward.rotateKey', 'keyward.deleteKey']) {
      state.messages.length = 0;
      state.quickPicks.length = 0;
      state.answers.push('Set Key…');
      state.picks.push(undefined);
      await state.commands.get(id)!();
      expect(state.messages).toEqual([{ level: 'info', text: 'No key is stored in Keyward.', items: ['Set Key…'] }]);
      // Set Key…'s own picker, of every service; dismissed.
      expect(state.quickPicks).toHaveLength(1);
      expect(state.quickPicks[0]!.map((item) => item.label)).toEqual(SERVICE_IDS.map((sid) => SERVICES[sid].label));
    }
    context.dispose();
  });

  it('Delete Key… offers only the services with a stored key, each with its masked key, and deletes the one picked', async () => {
    const { api, state } = createFakeVscode({});
    const context = fakeExtensionContext();
    const [first, second] = SERVICE_IDS;
    const meta = (service: string, masked: string) => ({ service, label: 'k', masked, fingerprint: 'f', length: 40 });
    await context.globalState.update('keyward.keys.metadata', {
      [first!]: meta(first!, 'one-…aaaa'),
      [second!]: meta(second!, 'two-…bbbb'),
    });
    loadExtension(api, undefined, { onDemand: true }).activate(context);
    state.picks.push(SERVICES[second!].label);
    state.answers.push('Delete Key');
    await state.commands.get('keyward.deleteKey')!();
    expect(state.quickPicks[0]).toEqual([
      { label: SERVICES[first!].label, description: 'one-…aaaa', detail: undefined },
      { label: SERVICES[second!].label, description: 'two-…bbbb', detail: undefined },
    ]);
    expect(state.messages[0]!.text).toContain('two-…bbbb');
    const left = context.globalState.get<Record<string, unknown>>('keyward.keys.metadata') ?? {};
    expect(Object.keys(left)).toEqual([first]);
    context.dispose();
  });

  it("asks VS Code to read Keyward's model lists when its AI features are turned back on, and only then", () => {
    // VS Code reads a provider's lists when something asks for models or the provider says they changed, not when
    // chat.disableAIFeatures turns off: a real-host run's picker stayed empty after it did.
    const { api, state } = createFakeVscode({ 'chat.disableAIFeatures': true });
    const context = fakeExtensionContext();
    loadExtension(api).activate(context);
    const provider = state.lmProviders.get('keyward') as {
      onDidChangeLanguageModelChatInformation(f: () => void): void;
    };
    let asked = 0;
    provider.onDidChangeLanguageModelChatInformation(() => asked++);
    const changed = (key: string) =>
      state.configurationEmitter.fire({ affectsConfiguration: (s) => key.startsWith(s) });
    changed('editor.fontSize');
    expect(asked).toBe(0);
    state.workspaceSettings['chat.disableAIFeatures'] = false;
    changed('chat.disableAIFeatures');
    expect(asked).toBe(1);
    // Turned off again: nothing to read.
    state.workspaceSettings['chat.disableAIFeatures'] = true;
    changed('chat.disableAIFeatures');
    expect(asked).toBe(1);
    context.dispose();
  });

  it('names a bad setting in a warning and keeps the default', () => {
    const { api, state } = createFakeVscode({ 'keyward.router.baseUrl': 'http://evil.example/v1' });
    loadExtension(api).activate(fakeExtensionContext());
    expect(state.messages).toEqual([
      { level: 'warning', text: expect.stringContaining('keyward.router.baseUrl'), items: [] },
    ]);
    expect(state.logLines.join('\n')).toContain('router https://openrouter.ai/api/v1');
  });
});
