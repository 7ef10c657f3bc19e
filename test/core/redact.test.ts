import { describe, expect, it } from 'vitest';
import { maskKey, redactSecrets } from '../../src/core/redact.ts';
import { directKey, routerKey } from '../emulator/keyFactory.ts';

describe('maskKey', () => {
  it('keeps the prefix and the last four characters', () => {
    const key = routerKey();
    expect(maskKey(key)).toBe(`sk-or-v1-…${key.slice(-4)}`);
    const project = directKey('proj');
    expect(maskKey(project)).toBe(`sk-proj-…${project.slice(-4)}`);
    expect(maskKey(directKey('legacy'))).toMatch(/^sk-…/);
  });

  it('shows no part of a random body that happens to start with a word and a dash', () => {
    // Seen in a CI run: a generated project key `sk-proj-q-…` was masked with its `q-`.
    const project = directKey('proj');
    const dashed = `sk-proj-q-${project.slice('sk-proj-'.length + 2)}`;
    expect(maskKey(dashed)).toBe(`sk-proj-…${dashed.slice(-4)}`);
    const router = routerKey();
    expect(maskKey(`sk-or-v1-ab-${router.slice(12)}`)).toMatch(/^sk-or-v1-…/);
    expect(maskKey(`sk-ab-cd-${project.slice(9)}`)).toMatch(/^sk-…/);
  });
});

describe('redactSecrets', () => {
  it('masks every key shape of both services inside arbitrary text', () => {
    const keys = [routerKey(), directKey('proj'), directKey('svcacct'), directKey('admin'), directKey('legacy')];
    const text = keys.map((k, i) => `line ${i}: "${k}", then more`).join('\n');
    const out = redactSecrets(text);
    for (const key of keys) {
      expect(out).not.toContain(key);
      expect(out).toContain(key.slice(-4));
    }
  });

  it('masks a bearer token of any shape, and a known secret wherever it appears', () => {
    expect(redactSecrets('Authorization: Bearer abcdefghijklmnop')).toBe('Authorization: Bearer abc…mnop');
    expect(redactSecrets('the value was xyzzy-secret-value-12345 here', ['xyzzy-secret-value-12345'])).not.toContain(
      'xyzzy-secret-value-12345',
    );
  });

  it('leaves ordinary text alone', () => {
    const text = 'task-or-v1 is a word; sk- alone is not a key; risk-proj-short';
    expect(redactSecrets(text)).toBe(text);
  });
});
