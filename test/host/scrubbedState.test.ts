// Workspace and global state go through the one filter for disk, whoever writes them.
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeyStore, scannerKeys } from '../../src/core/keys/keyStore.ts';
import { maskKey } from '../../src/shared/keyShapes.ts';
import { ScrubbedMemento } from '../../src/host/scrubbedState.ts';
import { secretPort, statePort } from '../../src/host/keys/secretPorts.ts';
import { routerKey } from '../emulator/keyFactory.ts';
import { FakeMemento, FakeSecrets } from './fakeVscode.ts';

describe('ScrubbedMemento', () => {
  it('masks every key in what is written, the stored key of any shape included', async () => {
    const inner = new FakeMemento();
    const stored = ['tok', 'Zq8'.repeat(10)].join('_');
    const memento = new ScrubbedMemento(inner as never, async () => ({
      known: [{ value: stored, service: 'router' }],
    }));
    const key = routerKey();
    await memento.update('turns', [{ text: `a ${key}`, attachments: [{ text: `K=${stored}` }] }]);
    const raw = JSON.stringify([...inner.values]);
    expect(raw).not.toContain(key);
    expect(raw).not.toContain(stored);
    expect(memento.get('missing', 7)).toBe(7);
    await memento.update('turns', undefined);
    expect(memento.keys()).toEqual([]);
  });

  it('masks a stored key of any shape by its mask when SecretStorage cannot hand its value over', async () => {
    const secrets = new FakeSecrets();
    const keys = new KeyStore(secretPort(secrets as never), statePort(new FakeMemento() as never));
    const stored = `local${randomBytes(18).toString('hex')}`;
    await keys.setKey('compatible', stored);
    secrets.failing = true;
    const inner = new FakeMemento();
    const memento = new ScrubbedMemento(inner as never, () => scannerKeys(keys));
    await memento.update('turns', [{ text: `the key is ${stored}.` }]);
    const raw = JSON.stringify([...inner.values]);
    expect(raw).not.toContain(stored.slice(3, -4));
    expect(raw).toContain(`the key is ${maskKey(stored)}.`);
  });

  it('is the only way Keyward writes workspace or global state', () => {
    const files = readdirSync('src', { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts'))
      .map((e) => join(e.parentPath, e.name));
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const raw = [...text.matchAll(/context\.(workspaceState|globalState)\b(?!\.keys\(\)|\.get\()/g)].map((m) => m[0]);
      const wrapped = [...text.matchAll(/new ScrubbedMemento\(context\.(workspaceState|globalState)/g)].length;
      expect(raw.length, `${file} uses the state without the filter`).toBe(wrapped);
    }
  });
});
