// stopFoundKeys on its own: one list per account, the one listed key that matches disabled, several candidates left
// alone and named, a service that cannot disable saying how to delete, and a refusal in words with no key in them.
import { describe, expect, it } from 'vitest';
import type { AccountKeysApi, ListedKey } from '../../../src/core/keys/accountKeys.ts';
import { stopFoundKeys } from '../../../src/core/keys/stopFoundKeys.ts';

const hex = (n: number, c: string) => c.repeat(n);
// Built here, never written whole in the repository.
const key = (body: string) => ['sk', 'or', 'v1', body].join('-');
const listed = (id: string, shown: string, extra: Partial<ListedKey> = {}): ListedKey => ({
  id,
  name: id,
  shown,
  place: null,
  owner: null,
  createdMs: null,
  lastUsedMs: null,
  expiresMs: null,
  disabled: false,
  limitUsd: null,
  remainingUsd: null,
  limitReset: null,
  usageTodayUsd: null,
  usageMonthUsd: null,
  inUse: false,
  actions: ['disable', 'delete'],
  ...extra,
});

function fakeApi(keys: ListedKey[], fail?: Error) {
  const calls: string[] = [];
  const api: AccountKeysApi = {
    list: async () => {
      calls.push('list');
      if (fail) throw fail;
      return keys;
    },
    delete: async () => {},
    setDisabled: async (k, disabled) => {
      calls.push(`${disabled ? 'disable' : 'enable'} ${k.id}`);
    },
    close: async () => {},
  };
  return { api, calls };
}

describe('stopFoundKeys', () => {
  const a = key(hex(60, 'a') + 'abcd');
  const b = key(hex(60, 'b') + 'beef');
  it('lists once, disables the one match, and leaves an ambiguous key alone with its candidates', async () => {
    const { api, calls } = fakeApi([
      listed('one', 'sk-or-v1-aaa...abcd'),
      listed('two', 'sk-or-v1-bbb...beef'),
      listed('three', 'sk-or-v1-b...beef'),
    ]);
    const out = await stopFoundKeys(
      [
        { fingerprint: 'fa', service: 'router', key: a },
        { fingerprint: 'fb', service: 'router', key: b },
        { fingerprint: 'fa', service: 'router', key: a },
      ],
      () => api,
      [],
    );
    expect(calls).toEqual(['list', 'disable one']);
    expect(out.get('fa')).toMatchObject({ status: 'disabled', key: { id: 'one' } });
    expect(out.get('fb')).toMatchObject({ status: 'ambiguous', candidates: [{ id: 'two' }, { id: 'three' }] });
  });

  it('says a disabled key is disabled already, and where no disabling exists how to delete', async () => {
    const { api, calls } = fakeApi([listed('one', 'sk-or-v1-aaa...abcd', { disabled: true })]);
    expect(
      (await stopFoundKeys([{ fingerprint: 'f', service: 'router', key: a }], () => api, [])).get('f'),
    ).toMatchObject({
      status: 'disabled_already',
    });
    const direct = fakeApi([listed('p', 'sk-or-v1-aaa...abcd', { actions: ['delete'] })]);
    const stop = (await stopFoundKeys([{ fingerprint: 'f', service: 'router', key: a }], () => direct.api, [])).get(
      'f',
    );
    expect(stop).toMatchObject({
      status: 'cannot_disable',
      reason: expect.stringMatching(/keyward keys delete .* --id p --yes/),
    });
    expect(calls).toEqual(['list']);
  });

  it('turns a refusal into words with no key in them, for every key of that account', async () => {
    const manager = key(hex(64, 'c'));
    // A plain Error, as a network failure throws: a ServiceError's own constructor redacts already.
    const { api } = fakeApi([], new Error(`connect refused for ${manager}`));
    const out = await stopFoundKeys([{ fingerprint: 'f', service: 'router', key: a }], () => api, [manager]);
    expect(out.get('f')?.status).toBe('failed');
    expect(out.get('f')?.reason).not.toContain(manager);
  });
});
