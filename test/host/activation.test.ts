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
    loadExtension(api).activate(context);
    const setKey = state.commands.get('keyward.setKey')!;
    state.picks.push(undefined);
    await setKey();
    expect(state.quickPicks).toHaveLength(1);
    expect(state.quickPicks[0]!.map((item) => item.label)).toEqual(SERVICE_IDS.map((id) => SERVICES[id].label));
    // Dismissed: nothing more is asked.
    expect(state.messages).toEqual([]);
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
