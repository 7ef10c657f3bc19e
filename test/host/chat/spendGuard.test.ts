// The daily spend cap in the chat, over the fake vscode with real HTTP to the emulator: each answer's reported
// cost is added to the workspace's ledger; once the cap is reached a paid prompt is held back with the card's
// notice (nothing sent, no dialog; "Send anyway" re-sends with overCap, "Use a free model" sends to the free model),
// a free model is never held, and the status tooltip says today's spend. The language-model provider's refusal is
// in test/host/lm/lmProvider.test.ts. Cline and Roo Code ask before going on past a cost limit too
// (RooCodeInc/Roo-Code src/core/task/Task.ts, "allowedMaxCost"); Keyward counts per workspace and per UTC day.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccountMonitor } from '../../../src/core/monitor/accountMonitor.ts';
import { KeyStore } from '../../../src/core/keys/keyStore.ts';
import { SpendLedger } from '../../../src/core/account/spendLedger.ts';
import { ChatSession } from '../../../src/host/chat/chatSession.ts';
import { Configuration } from '../../../src/host/configuration.ts';
import { Log } from '../../../src/host/log.ts';
import { secretPort, statePort } from '../../../src/host/keys/secretPorts.ts';
import { SPEND_STATE_KEY, SpendGuard } from '../../../src/host/chat/spendGuard.ts';
import { StatusBar } from '../../../src/host/status/statusBar.ts';
import type { HostMessage } from '../../../src/shared/protocol.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { FakeMemento, FakeSecrets, fileUri } from '../fakeVscode.ts';
import { fake } from '../vscodeShim.ts';
import { directKey } from '../../emulator/keyFactory.ts';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());

const PAID = 'openai/gpt-4o-mini';

function setup(cap: number | undefined) {
  fake.state.messages.length = 0;
  fake.state.answers.length = 0;
  fake.state.statusItems.length = 0;
  for (const name of Object.keys(fake.state.settings)) delete fake.state.settings[name];
  for (const name of Object.keys(fake.state.workspaceSettings)) delete fake.state.workspaceSettings[name];
  Object.assign(fake.state.settings, {
    'keyward.router.baseUrl': bed.emulator.routerBaseUrl,
    'keyward.direct.baseUrl': bed.emulator.directBaseUrl,
    'keyward.status.refreshMinutes': 0,
    ...(cap === undefined ? {} : { 'keyward.spend.dailyCapUsd': cap }),
  });
  const log = new Log();
  const configuration = new Configuration(log);
  const keys = new KeyStore(secretPort(new FakeSecrets() as never), statePort(new FakeMemento() as never));
  const monitor = new AccountMonitor({
    keys,
    config: () => configuration.value,
    tier: () => configuration.value.direct.usageTier,
  });
  const workspaceState = new FakeMemento();
  const ledger = new SpendLedger({
    get: () => workspaceState.get(SPEND_STATE_KEY),
    set: (day) => workspaceState.update(SPEND_STATE_KEY, day),
  });
  const posted: HostMessage[] = [];
  const session = new ChatSession(monitor, keys, configuration, log, {
    extensionUri: fileUri('/ext') as never,
    store: {
      conversationId: () => 'c1',
      turns: () => [],
      saveTurns: async () => undefined,
      choice: () => ({ service: 'router', selectedModel: { router: PAID, direct: 'm', compatible: 'm' } }),
      attachmentRefs: () => [],
    } as never,
    lastEditor: { current: undefined } as never,
    spend: new SpendGuard(ledger, configuration, keys, log),
    tap: (message) => {
      if (message.type.startsWith('chat/')) posted.push(message);
    },
    clearHistory: async () => undefined,
    exportHistory: async () => undefined,
  });
  const statusBar = new StatusBar(monitor, keys, configuration, ledger);
  return {
    keys,
    ledger,
    session,
    posted,
    workspaceState,
    tooltip: () => {
      const tip = fake.state.statusItems.find((item) => item.id === 'router')?.tooltip;
      return typeof tip === 'string' ? tip : (tip?.value ?? '');
    },
    /** No dialog is ever shown for the cap: it is a card in the chat. */
    dialogs: () => fake.state.messages.filter((m) => m.level === 'warning'),
    dispose: () => {
      statusBar.dispose();
      session.dispose();
      monitor.dispose();
      configuration.dispose();
      log.dispose();
    },
  };
}

let s: ReturnType<typeof setup>;
beforeEach(async () => {
  await bed.admin('POST', '/reset', { sandbox: true });
});

async function spendOnce(): Promise<number> {
  await s.session.send('first', 'router', PAID, 'hello', []);
  expect(s.posted.at(-1)?.type).toBe('chat/done');
  await vi.waitFor(() => expect(s.ledger.today().totalUsd).toBeGreaterThan(0));
  return s.ledger.today().totalUsd;
}

describe('the daily spend cap', () => {
  it('adds each answer’s reported cost to the workspace’s day, and shows it in the status tooltip', async () => {
    s = setup(undefined);
    await s.keys.setKey('router', bed.emulator.sandbox!.keys.routerFunded);
    const spent = await spendOnce();
    expect(s.workspaceState.get(SPEND_STATE_KEY)).toMatchObject({ totalUsd: spent, byService: { router: spent } });
    await vi.waitFor(() =>
      expect(s.tooltip()).toMatch(/Spent today in this workspace: \$0\.\d+ \(routing service only, UTC day/),
    );
    // No cap: never held.
    s.posted.length = 0;
    await s.session.send('second', 'router', PAID, 'again', []);
    expect(s.posted.at(-1)?.type).toBe('chat/done');
    s.dispose();
  });

  it('once reached, a paid prompt is held with the card’s notice: nothing is sent and no dialog is shown', async () => {
    s = setup(0.000005);
    await s.keys.setKey('router', bed.emulator.sandbox!.keys.routerFunded);
    await spendOnce();
    await vi.waitFor(() => expect(s.tooltip()).toMatch(/of the \$0\.000005 daily cap/));
    const asked = bed.emulator.requests.length;
    s.posted.length = 0;
    await s.session.send('capped', 'router', PAID, 'more', []);
    expect(s.posted).toEqual([
      {
        type: 'chat/spendCap',
        requestId: 'capped',
        spent: expect.stringMatching(/^\$0\.\d+$/),
        cap: '$0.000005',
        free: { service: 'router', model: 'openrouter/free' },
      },
    ]);
    expect(bed.emulator.requests.length).toBe(asked);
    expect(s.dialogs()).toEqual([]);
    s.dispose();
  });

  it('"Send anyway" (overCap) sends to the model asked; "Use a free model" sends to the free router unheld', async () => {
    s = setup(0.000005);
    await s.keys.setKey('router', bed.emulator.sandbox!.keys.routerFunded);
    await spendOnce();
    s.posted.length = 0;
    await s.session.send('anyway', 'router', PAID, 'more', [], undefined, undefined, { overCap: true });
    expect(s.posted.find((m) => m.type === 'chat/started')).toMatchObject({ assistant: { model: PAID } });
    expect(s.posted.at(-1)?.type).toBe('chat/done');
    s.posted.length = 0;
    await s.session.send('free', 'router', 'openrouter/free', 'more', []);
    expect(s.posted.find((m) => m.type === 'chat/started')).toMatchObject({
      assistant: { service: 'router', model: 'openrouter/free' },
    });
    expect(s.posted.at(-1)?.type).toBe('chat/done');
    expect(s.dialogs()).toEqual([]);
    s.dispose();
  });

  it('offers no free model when no service with free models has a key', async () => {
    s = setup(0.000005);
    await s.keys.setKey('direct', directKey());
    await s.ledger.record('direct', 1);
    s.posted.length = 0;
    await s.session.send('direct', 'direct', 'gpt-4o-mini', 'more', []);
    expect(s.posted).toEqual([{ type: 'chat/spendCap', requestId: 'direct', spent: '$1.00', cap: '$0.000005' }]);
    s.dispose();
  });

  it('a workspace cannot raise the user’s cap', async () => {
    s = setup(0.000005);
    fake.state.workspaceSettings['keyward.spend.dailyCapUsd'] = 1000;
    await s.keys.setKey('router', bed.emulator.sandbox!.keys.routerFunded);
    await spendOnce();
    s.posted.length = 0;
    await s.session.send('paid', 'router', PAID, 'more', []);
    expect(s.posted.map((m) => m.type)).toEqual(['chat/spendCap']);
    s.dispose();
  });
});
