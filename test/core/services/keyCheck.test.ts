// Checking a key that is not stored, over real HTTP to the emulator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type KeywardConfig } from '../../../src/core/config.ts';
import { checkKey } from '../../../src/core/services/keyCheck.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { directKey, routerKey } from '../../emulator/keyFactory.ts';

let bed: TestBed;
let config: KeywardConfig;
beforeAll(async () => {
  bed = await startTestBed({ sandbox: true });
  config = {
    ...DEFAULT_CONFIG,
    router: { ...DEFAULT_CONFIG.router, baseUrl: bed.emulator.routerBaseUrl },
    direct: { ...DEFAULT_CONFIG.direct, baseUrl: bed.emulator.directBaseUrl },
  };
});
afterAll(() => bed.close());

describe('checkKey', () => {
  it('accepts the keys the services know, a Restricted direct key included', async () => {
    expect(await checkKey('router', bed.emulator.sandbox!.keys.routerFunded, config)).toEqual({ ok: true });
    expect(await checkKey('direct', bed.emulator.sandbox!.keys.direct, config)).toEqual({ ok: true });
    const { key } = await bed.admin<{ key: string }>('POST', '/direct/keys', {
      orgId: bed.emulator.sandbox!.directOrgId,
      permissions: 'Restricted',
      scopes: ['api.responses.write'],
    });
    expect(await checkKey('direct', key, config)).toEqual({ ok: true });
  });

  it('names a key the service refuses as auth, and an unreachable service as something else', async () => {
    const refused = await checkKey('router', routerKey(), config);
    expect(refused.ok === false && refused.error.kind).toBe('auth');
    const direct = await checkKey('direct', directKey('proj'), config);
    expect(direct.ok === false && direct.error.kind).toBe('auth');
    const offline = await checkKey('router', routerKey(), {
      ...config,
      router: { ...config.router, baseUrl: 'http://127.0.0.1:9/api/v1' },
    });
    expect(offline.ok === false && offline.error.kind).not.toBe('auth');
  });
});
