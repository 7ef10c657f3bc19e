import { describe, expect, it } from 'vitest';
import { checkKeyForSlot, directKeyKind, fingerprint } from '../../../src/core/keys/keyFormats.ts';
import { directKey, routerKey } from '../../emulator/keyFactory.ts';

const router = routerKey();
const project = directKey('proj');
const project58 = directKey('proj', 58);
const service = directKey('svcacct');
const admin = directKey('admin');
const legacy = directKey('legacy');
const join = (...parts: string[]) => parts.join('');

describe('Set Key shape checks', () => {
  it.each([
    ['router', router, 'ok'],
    ['router', project, 'other_service'],
    ['router', legacy, 'other_service'],
    ['router', join('sk-', 'ant-api03-', 'x'.repeat(40)), 'refuse'],
    ['router', join('sk-or-v1-', 'a'.repeat(63)), 'refuse'],
    ['router', join('sk-or-v1-', 'A'.repeat(64)), 'refuse'],
    ['router', 'hello', 'refuse'],
    ['router', '', 'refuse'],
    ['router', `${router} extra`, 'refuse'],
    ['direct', project, 'ok'],
    ['direct', project58, 'ok'],
    ['direct', service, 'ok'],
    ['direct', legacy, 'ok'],
    ['direct', admin, 'refuse'],
    ['direct', router, 'other_service'],
    ['direct', join('sk-', 'ant-api03-', 'x'.repeat(40)), 'refuse'],
    ['direct', join('sk-', 'something-new-', 'y'.repeat(40)), 'warn'],
    ['direct', join('AIza', 'z'.repeat(35)), 'refuse'],
    ['direct', join('gsk', '_', 'q'.repeat(40)), 'refuse'],
  ] as const)('%s slot, key %#: %s', (slot, key, verdict) => {
    expect(checkKeyForSlot(slot, key).verdict).toBe(verdict);
  });

  it('names the provider a key probably belongs to, and never echoes the key', () => {
    const anthropic = join('sk-', 'ant-api03-', 'x'.repeat(40));
    const check = checkKeyForSlot('direct', anthropic);
    expect(check).toMatchObject({ verdict: 'refuse', message: expect.stringContaining('Anthropic') });
    expect(JSON.stringify(check)).not.toContain(anthropic);
    expect(checkKeyForSlot('router', project)).toMatchObject({ verdict: 'other_service', service: 'direct' });
    expect(checkKeyForSlot('direct', router)).toMatchObject({ verdict: 'other_service', service: 'router' });
    expect((checkKeyForSlot('direct', admin) as { message: string }).message).toMatch(/admin key/);
  });

  it('tells the kinds of direct keys apart', () => {
    expect([project, service, admin, legacy].map(directKeyKind)).toEqual([
      'project',
      'service account',
      'admin',
      'legacy user',
    ]);
    expect(directKeyKind(router)).toBeUndefined();
  });

  it('fingerprints with 16 hex characters of SHA-256, ignoring surrounding space', () => {
    expect(fingerprint(router)).toMatch(/^[0-9a-f]{16}$/);
    expect(fingerprint(` ${router}\n`)).toBe(fingerprint(router));
    expect(fingerprint(project)).not.toBe(fingerprint(router));
  });
});
