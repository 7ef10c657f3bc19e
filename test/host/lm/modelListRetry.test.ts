// A model list that failed on a passing fault (a 500, a reset connection) does not keep Keyward's models out of VS
// Code's pickers: the provider tells VS Code to ask again, later each time, and stops once the lists come back. A
// failure that does not pass by itself (a redirect, which Keyward never follows) is not asked about again. Over the emulator, real HTTP.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AccountMonitor } from '../../../src/core/monitor/accountMonitor.ts';
import { KeyStore } from '../../../src/core/keys/keyStore.ts';
import { ModelCatalog } from '../../../src/core/chat/modelCatalog.ts';
import { Configuration } from '../../../src/host/configuration.ts';
import { KeywardChatProvider } from '../../../src/host/lm/chatProvider.ts';
import { LIST_RETRY_MS } from '../../../src/host/lm/listRetry.ts';
import { Log } from '../../../src/host/log.ts';
import { ModelSettingsStore } from '../../../src/host/chat/modelSettingsStore.ts';
import { secretPort, statePort } from '../../../src/host/keys/secretPorts.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { FakeMemento, FakeSecrets } from '../fakeVscode.ts';
import { fake } from '../vscodeShim.ts';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
afterEach(() => vi.useRealTimers());

async function provider() {
  await bed.admin('POST', '/reset', { sandbox: true });
  const key = bed.emulator.sandbox!.keys.routerFunded;
  Object.assign(fake.state.settings, {
    'keyward.router.baseUrl': bed.emulator.routerBaseUrl,
    'keyward.direct.baseUrl': bed.emulator.directBaseUrl,
  });
  const log = new Log();
  const configuration = new Configuration(log);
  const memento = new FakeMemento();
  const keys = new KeyStore(secretPort(new FakeSecrets() as never), statePort(memento as never));
  await keys.setKey('router', key);
  const monitor = new AccountMonitor({
    keys,
    config: () => configuration.value,
    tier: () => configuration.value.direct.usageTier,
  });
  const made = new KeywardChatProvider({
    monitor,
    keys,
    catalog: new ModelCatalog(monitor),
    configuration,
    settings: new ModelSettingsStore(memento as never),
    log,
    manageCommand: 'keyward.manageLanguageModels',
  });
  let asked = 0;
  made.onDidChangeLanguageModelChatInformation(() => asked++);
  const list = () => made.provideLanguageModelChatInformation({ silent: true }, {} as never);
  return { made, list, asks: () => asked };
}

const failModels = (count: number) =>
  bed.admin('POST', '/faults', { kind: 'http500', service: 'router', path: '/models', shouldRetry: false, count });

describe('a model list that failed', () => {
  it('on a 500: VS Code is told to ask again, later each time, until the list comes back', async () => {
    const { made, list, asks } = await provider();
    await failModels(2);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    expect(await list()).toEqual([]);
    vi.advanceTimersByTime(LIST_RETRY_MS[0]! - 1);
    expect(asks()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(asks()).toBe(1);
    // Asked again, failed again: the next wait is the longer one.
    expect(await list()).toEqual([]);
    vi.advanceTimersByTime(LIST_RETRY_MS[0]!);
    expect(asks()).toBe(1);
    vi.advanceTimersByTime(LIST_RETRY_MS[1]! - LIST_RETRY_MS[0]!);
    expect(asks()).toBe(2);
    // The service answers: the models are back, and nothing more is scheduled.
    expect((await list()).length).toBeGreaterThan(0);
    vi.advanceTimersByTime(LIST_RETRY_MS.at(-1)! * 2);
    expect(asks()).toBe(2);
    made.dispose();
  });

  it('on a redirect: not asked about again (a setting must change first, which tells VS Code anyway)', async () => {
    const { made, list, asks } = await provider();
    await bed.admin('POST', '/faults', { kind: 'redirect', service: 'router', path: '/models', count: 5 });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    expect(await list()).toEqual([]);
    vi.advanceTimersByTime(LIST_RETRY_MS.at(-1)! * 2);
    expect(asks()).toBe(0);
    made.dispose();
  });

  it('disposed with a wait pending: nothing fires after', async () => {
    const { made, list, asks } = await provider();
    await failModels(1);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    expect(await list()).toEqual([]);
    made.dispose();
    vi.advanceTimersByTime(LIST_RETRY_MS[0]! * 2);
    expect(asks()).toBe(0);
  });
});
