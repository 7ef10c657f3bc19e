// Per-model settings in the chat: set for a model, sent on the wire where the model list says the model takes them
// (the emulator records the body), named under the answer, and asked for by the chat's settings button.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountMonitor } from '../../../src/core/monitor/accountMonitor.ts';
import { KeyStore } from '../../../src/core/keys/keyStore.ts';
import type { HostMessage } from '../../../src/shared/protocol.ts';
import { ChatSession } from '../../../src/host/chat/chatSession.ts';
import { Configuration } from '../../../src/host/configuration.ts';
import { Log } from '../../../src/host/log.ts';
import { ModelSettingsStore } from '../../../src/host/chat/modelSettingsStore.ts';
import { secretPort, statePort } from '../../../src/host/keys/secretPorts.ts';
import { settingsNote } from '../../../src/webview/settingsNote.ts';
import { metaLine } from '../../../src/webview/turnNotes.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { FakeMemento, FakeSecrets, fileUri } from '../fakeVscode.ts';
import { fake } from '../vscodeShim.ts';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());

function store() {
  let turns: unknown[] = [];
  return {
    conversationId: () => 'c1',
    turns: () => turns,
    saveTurns: async (next: unknown[]) => void (turns = next),
    choice: () => ({ service: 'router', selectedModel: { router: 'm', direct: 'm', compatible: 'm' } }),
    attachmentRefs: () => [],
    selectService: () => undefined,
  };
}

describe('chat: per-model settings', () => {
  it('sends the settings the model takes, names them under the answer, and the button asks the host', async () => {
    await bed.admin('POST', '/reset', { sandbox: true });
    Object.assign(fake.state.settings, { 'keyward.router.baseUrl': bed.emulator.routerBaseUrl });
    const log = new Log();
    const configuration = new Configuration(log);
    const memento = new FakeMemento();
    const keys = new KeyStore(secretPort(new FakeSecrets() as never), statePort(memento as never));
    await keys.setKey('router', bed.emulator.sandbox!.keys.routerFunded);
    const monitor = new AccountMonitor({ keys, config: () => configuration.value, tier: () => 'free' as never });
    const settings = new ModelSettingsStore(memento as never);
    const posted: HostMessage[] = [];
    const edits: unknown[][] = [];
    const session = new ChatSession(monitor, keys, configuration, log, {
      extensionUri: fileUri('/ext') as never,
      store: store() as never,
      lastEditor: { current: undefined } as never,
      tap: (m) => void posted.push(m),
      clearHistory: async () => undefined,
      exportHistory: async () => undefined,
      modelSettings: settings,
      editModelSettings: async (...args) => void edits.push(args),
    });
    await settings.set('router', 'openai/gpt-4o-mini', {
      temperature: 0.4,
      maxOutputTokens: 50,
      reasoningEffort: 'low',
    });
    // The model list tells which settings each model takes.
    session.handleMessage({ type: 'models/refresh', service: 'router' });
    await new Promise<void>((resolve) => {
      const wait = () => (posted.some((m) => m.type === 'models/list') ? resolve() : setTimeout(wait, 10));
      wait();
    });
    await session.send('r1', 'router', 'openai/gpt-4o-mini', 'hello', []);
    const body = bed.emulator.requests.filter((r) => r.body).at(-1)!.body!;
    expect(body).toMatchObject({ temperature: 0.4, max_tokens: 50 });
    expect(body.reasoning).toBeUndefined();
    const done = posted.find((m) => m.type === 'chat/done');
    expect(done && done.type === 'chat/done' && done.turn.settings).toEqual({ temperature: 0.4, maxOutputTokens: 50 });
    const s = (_key: string, fallback: string) => fallback;
    expect(done && done.type === 'chat/done' && metaLine(done.turn, s)).toContain('temperature 0.4 · max 50 tokens');

    session.handleMessage({ type: 'models/editSettings', service: 'router', model: 'anthropic/claude-sonnet-4.5' });
    await new Promise((r) => setTimeout(r, 0));
    expect(edits).toEqual([
      ['router', 'anthropic/claude-sonnet-4.5', { temperature: true, maxOutputTokens: true, reasoningEffort: true }],
    ]);
    session.dispose();
    configuration.dispose();
    log.dispose();
  });

  it('the note under the answer names each setting, and nothing when none was sent', () => {
    const s = (_key: string, fallback: string) => fallback;
    expect(settingsNote(undefined, s)).toBeNull();
    expect(settingsNote({}, s)).toBeNull();
    expect(settingsNote({ reasoningEffort: 'high' }, s)).toBe('reasoning high');
  });
});
