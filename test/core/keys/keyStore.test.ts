import { describe, expect, it } from 'vitest';
import {
  KeyStore,
  SecretStorageUnavailable,
  daysUntil,
  type SecretPort,
  type StatePort,
} from '../../../src/core/keys/keyStore.ts';
import { routerKey } from '../../emulator/keyFactory.ts';

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

  it('counts days to an expiry', () => {
    const now = new Date('2026-11-21T10:00:00Z');
    expect(daysUntil('2026-11-28T10:00:00Z', now)).toBe(7);
    expect(daysUntil('2026-11-20T00:00:00Z', now)).toBe(-2);
    expect(daysUntil(null, now)).toBeNull();
  });
});
