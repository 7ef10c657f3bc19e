// Workspace and global state go through the one filter for disk, whoever writes them.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScrubbedMemento } from '../../src/host/scrubbedState.ts';
import { routerKey } from '../emulator/keyFactory.ts';
import { FakeMemento } from './fakeVscode.ts';

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
