import { describe, expect, it } from 'vitest';
import {
  KeyStore,
  SecretStorageUnavailable,
  daysUntil,
  type SecretPort,
  type StatePort,
} from '../../../src/core/keys/keyStore.ts';
import { directKey, routerKey } from '../../emulator/keyFactory.ts';
import { scanText } from '../../../src/core/scan/scanner.ts';
import { scannerKeys } from '../../../src/core/keys/keyStore.ts';

function ports() {
  const secrets = new Map<string, string>();
  const state = new Map<string, unknown>();
  let failing = false;
  const secretPort: SecretPort = {
    get: async (n) => {
      if (failing) throw new Error('no keyring');
      return secrets.get(n);
    },
    store: async (n, v) => {
      if (failing) throw new Error('no keyring');
      secrets.set(n, v);
    },
    delete: async (n) => {
      if (failing) throw new Error('no keyring');
      secrets.delete(n);
    },
  };
  const statePort: StatePort = {
    get: <T>(n: string) => state.get(n) as T | undefined,
    update: async (n, v) => {
      state.set(n, structuredClone(v));
    },
  };
  return {
    secrets,
    state,
    secretPort,
    statePort,
    fail: () => {
      failing = true;
    },
  };
}

describe('key store', () => {
  it('keeps the key in secrets only, and metadata without anything key-shaped in state', async () => {
    const p = ports();
    const store = new KeyStore(p.secretPort, p.statePort, () => new Date('2026-11-21T10:00:00Z'));
    const key = routerKey();
    const meta = await store.setKey('router', ` ${key} `, { label: 'laptop' });
    expect(await store.getKey('router')).toBe(key);
    expect(meta).toMatchObject({
      service: 'router',
      label: 'laptop',
      masked: `sk-or-v1-…${key.slice(-4)}`,
      addedAt: '2026-11-21T10:00:00.000Z',
      expiresAt: null,
    });
    expect(JSON.stringify([...p.state])).not.toContain(key.slice(9, 30));
  });

  it('retires the fingerprint of a replaced or deleted key, newest first', async () => {
    const p = ports();
    const store = new KeyStore(p.secretPort, p.statePort);
    const first = await store.setKey('router', routerKey());
    const second = await store.setKey('router', routerKey());
    expect(store.retired().map((r) => r.fingerprint)).toEqual([first.fingerprint]);
    await store.deleteKey('router');
    expect(store.retired().map((r) => r.fingerprint)).toEqual([second.fingerprint, first.fingerprint]);
    expect(store.metadata('router')).toBeUndefined();
    expect(await store.getKey('router')).toBeUndefined();
  });

  it('follows a change made by another window', async () => {
    const p = ports();
    const store = new KeyStore(p.secretPort, p.statePort);
    const seen: string[] = [];
    store.onDidChange((s) => seen.push(s));
    const key = routerKey();
    p.secrets.set('keyward.key.router', key);
    expect(await store.secretChanged('keyward.key.router')).toBe('router');
    expect(store.metadata('router')!.masked).toBe(`sk-or-v1-…${key.slice(-4)}`);
    p.secrets.delete('keyward.key.router');
    await store.secretChanged('keyward.key.router');
    expect(store.metadata('router')).toBeUndefined();
    expect(await store.secretChanged('someone.else')).toBeUndefined();
    expect(seen).toEqual(['router', 'router']);
  });

  it('says clearly when secret storage fails, and stores nothing elsewhere', async () => {
    const p = ports();
    p.fail();
    const store = new KeyStore(p.secretPort, p.statePort);
    const key = routerKey();
    await expect(store.setKey('router', key)).rejects.toBeInstanceOf(SecretStorageUnavailable);
    await expect(store.getKey('router')).rejects.toThrow(/keyring/);
    expect(p.state.size).toBe(0);
  });

  it('keeps a management and an admin key in slots of their own, apart from the keys that call models', async () => {
    // Issue 33: a management or admin key is never the key a prompt, key check or model list uses.
    const p = ports();
    const store = new KeyStore(p.secretPort, p.statePort, () => new Date('2026-11-21T10:00:00Z'));
    const key = routerKey();
    const manager = routerKey();
    const admin = directKey('admin');
    await store.setKey('router', key);
    await store.setAccountKey('router', ` ${manager}\n`);
    await store.setAccountKey('direct', admin);
    expect(await store.getKey('router')).toBe(key);
    expect(await store.getKey('direct')).toBeUndefined();
    expect(await store.getAccountKey('router')).toBe(manager);
    expect(await store.getAccountKey('direct')).toBe(admin);
    expect(store.accountMetadata('router')).toMatchObject({ masked: `sk-or-v1-…${manager.slice(-4)}` });
    expect(JSON.stringify([...p.state])).not.toContain(manager.slice(9, 30));
    expect(JSON.stringify([...p.state])).not.toContain(admin.slice(9, 30));
    await expect(store.setAccountKey('compatible', manager)).rejects.toThrow(/has no management or admin key/);
    await store.deleteAccountKey('direct');
    expect(await store.getAccountKey('direct')).toBeUndefined();
    expect(store.accountMetadata('direct')).toBeUndefined();
    expect(await store.getKey('router')).toBe(key);
  });

  it('hands the scanner a stored management key, which a scan names as one, and the ordinary key as before', async () => {
    const p = ports();
    const store = new KeyStore(p.secretPort, p.statePort);
    const key = routerKey();
    const manager = routerKey();
    await store.setKey('router', key);
    await store.setAccountKey('router', manager);
    const found = scanText(`A=${key}\nB=${manager}\nC=${routerKey()}\n`, await scannerKeys(store));
    expect(found.map((f) => [f.ruleId, f.stored])).toEqual([
      ['router-key', 'active'],
      ['router-management-key', 'active'],
      ['router-key', null],
    ]);
    expect((await scannerKeys(store)).masks).toHaveLength(2);
  });

  it('follows a management key another window stored or deleted', async () => {
    const p = ports();
    const store = new KeyStore(p.secretPort, p.statePort);
    const heard: string[] = [];
    store.onDidChange((service) => heard.push(service));
    const manager = routerKey();
    p.secrets.set('keyward.managementKey.router', manager);
    expect(await store.secretChanged('keyward.managementKey.router')).toBeUndefined();
    expect(store.accountMetadata('router')?.fingerprint).toHaveLength(16);
    p.secrets.delete('keyward.managementKey.router');
    await store.secretChanged('keyward.managementKey.router');
    expect(store.accountMetadata('router')).toBeUndefined();
    expect(heard).toEqual(['router', 'router']);
  });

  it('counts days to an expiry', () => {
    const now = new Date('2026-11-21T10:00:00Z');
    expect(daysUntil('2026-11-28T10:00:00Z', now)).toBe(7);
    expect(daysUntil('2026-11-20T00:00:00Z', now)).toBe(-2);
    expect(daysUntil(null, now)).toBeNull();
  });
});
