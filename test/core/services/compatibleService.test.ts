// The compatible service from the account monitor's side, over HTTP against the
// emulator: settings, key-optional clients, verification with and without a
// model list, a prompt through runPrompt, and its stored key found by the
// scanner whatever its shape.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AccountMonitor } from '../../../src/core/monitor/accountMonitor.ts';
import { compatibleSnapshot } from '../monitor/monitorState.ts';
import { compatibleStatusView } from '../../../src/core/account/accountStatus.ts';
import { DEFAULT_CONFIG, type KeywardConfig, normalizeConfig } from '../../../src/core/config.ts';
import { KeyStore, type SecretPort, type StatePort, scannerKeys } from '../../../src/core/keys/keyStore.ts';
import { runPrompt } from '../../../src/core/chat/promptRunner.ts';
import { scanText } from '../../../src/core/scan/scanner.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { answerText } from '../../emulator/answers.ts';
import type { CompatibleMode } from '../../emulator/compatibleService.ts';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(() => {
  bed.emulator.compatible.seen.length = 0;
});

function memoryStore(): KeyStore {
  const secrets = new Map<string, string>();
  const state = new Map<string, unknown>();
  const secretPort: SecretPort = {
    get: async (n) => secrets.get(n),
    store: async (n, v) => {
      secrets.set(n, v);
    },
    delete: async (n) => {
      secrets.delete(n);
    },
  };
  const statePort: StatePort = {
    get: <T>(n: string) => state.get(n) as T | undefined,
    update: async (n, v) => {
      state.set(n, v);
    },
  };
  return new KeyStore(secretPort, statePort);
}

function monitorFor(mode: CompatibleMode | null, store = memoryStore()) {
  const config: KeywardConfig = {
    ...DEFAULT_CONFIG,
    compatible: { name: 'Local', baseUrl: mode ? bed.emulator.compatibleBaseUrls[mode] : null },
    network: { ...DEFAULT_CONFIG.network, connectTimeoutMs: 2_000, idleTimeoutMs: 5_000 },
  };
  return { store, monitor: new AccountMonitor({ keys: store, config: () => config, tier: () => 'Free' }) };
}

const prompt = (text: string, model = 'llama3.2:3b') => ({
  service: 'compatible' as const,
  model,
  turns: [{ role: 'user' as const, content: text }],
});

describe('compatible settings', () => {
  it('is off without a base URL, takes a name, and allows http only on loopback', () => {
    expect(normalizeConfig(() => undefined).config.compatible).toEqual({ name: '', baseUrl: null });
    const values: Record<string, unknown> = {
      'compatible.name': '  Ollama  ',
      'compatible.baseUrl': 'http://localhost:11434/v1/',
    };
    expect(normalizeConfig((k) => values[k]).config.compatible).toEqual({
      name: 'Ollama',
      baseUrl: 'http://localhost:11434/v1',
    });
    const bad = normalizeConfig((k) => (k === 'compatible.baseUrl' ? 'http://192.168.1.20:8000/v1' : undefined));
    expect(bad.config.compatible.baseUrl).toBeNull();
    expect(bad.problems).toEqual([{ setting: 'keyward.compatible.baseUrl', message: expect.stringContaining('http') }]);
  });
});

describe('compatible service through the account monitor', () => {
  it('prompts a keyless server without any key stored, and the status says it answers', async () => {
    const { monitor, store } = monitorFor('open');
    const result = await runPrompt(monitor, prompt('hi there'));
    expect(result.text).toBe(answerText('hi there', { tokens: 12 }));
    expect(bed.emulator.compatible.seen.at(-1)!.authorization).toBeNull();
    const view = compatibleStatusView(compatibleSnapshot(monitor), store.metadata('compatible'), 'Local', Date.now());
    expect(view.severity).toBe('normal');
    expect(view.text).toContain('Local');
  });

  it('sends the stored key to a server that wants one; without it the verdict is auth', async () => {
    const { monitor, store } = monitorFor('keyed');
    await expect(runPrompt(monitor, prompt('hi'))).rejects.toMatchObject({ kind: 'auth', service: 'compatible' });
    expect(compatibleSnapshot(monitor).verified).toBe('invalid');
    await store.setKey('compatible', bed.emulator.compatible.key);
    const result = await runPrompt(monitor, prompt('with key'));
    expect(result.text).toBe(answerText('with key', { tokens: 12 }));
    expect(bed.emulator.compatible.seen.at(-1)!.authorization).toBe(`Bearer ${bed.emulator.compatible.key}`);
    expect(compatibleSnapshot(monitor)).toMatchObject({ verified: 'ok', lastError: null });
  });

  it('verifies by the model list, and a server without one still counts as answering', async () => {
    expect(await monitorFor('open').monitor.verify('compatible')).toEqual({
      service: 'compatible',
      ok: true,
      canListModels: true,
    });
    const bare = monitorFor('bare').monitor;
    expect(await bare.verify('compatible')).toEqual({ service: 'compatible', ok: true, canListModels: false });
    expect(compatibleSnapshot(bare).canListModels).toBe(false);
  });

  it('without a base URL it says which setting to fill, not that a key is missing', async () => {
    const { monitor } = monitorFor(null);
    await expect(runPrompt(monitor, prompt('hi'))).rejects.toMatchObject({
      kind: 'bad_request',
      code: 'no_base_url',
      action: expect.stringContaining('keyward.compatible.baseUrl'),
    });
    expect(await monitor.verify('compatible')).toMatchObject({ ok: false, error: { code: 'no_base_url' } });
  });
});

describe('the stored compatible key in files', () => {
  it('is found as "your key" by the scanner whatever its shape', async () => {
    const store = memoryStore();
    // A local server's key looks like nothing the key rules know.
    const key = `lm-${'q7'.repeat(10)}Z`;
    await store.setKey('compatible', key);
    const { known } = await scannerKeys(store);
    expect(known).toEqual([{ value: key, service: 'compatible' }]);
    const findings = scanText(`const token = "${key}";\n`, { known });
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ ruleId: 'stored-key', service: 'compatible', stored: 'active' });
  });
});
