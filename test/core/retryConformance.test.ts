// Keyward's retry decision against the official SDK's own, on the same answers:
// openai-node (src/client.ts shouldRetry) obeys `x-should-retry` before its
// status rules, and so must Keyward. Both are pointed at the emulator; each
// fault strikes once, so "retried" shows as a success on the second request.
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestBed, startTestBed } from '../emulator/adminClient.ts';
import { directClient, recordingSleep, settle } from './clientSupport.ts';

let bed: TestBed;
let key: string;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(async () => {
  await bed.admin('POST', '/reset', { sandbox: true });
  key = bed.emulator.sandbox!.keys.direct;
});

async function sdkRetried(fault: Record<string, unknown>): Promise<boolean> {
  await bed.admin('POST', '/faults', { ...fault, service: 'direct', count: 1 });
  const sdk = new OpenAI({ apiKey: key, baseURL: bed.emulator.directBaseUrl, maxRetries: 1 });
  return sdk.responses.create({ model: 'gpt-4o-mini', input: 'x' }).then(
    () => true,
    () => false,
  );
}

async function keywardRetried(fault: Record<string, unknown>): Promise<boolean> {
  await bed.admin('POST', '/faults', { ...fault, service: 'direct', count: 1 });
  const { sleep } = recordingSleep(bed);
  return (
    (await settle(directClient(bed, key, { sleep }).respond({ model: 'gpt-4o-mini', input: 'x' }, { stream: false })))
      .error === undefined
  );
}

describe('retry decisions match the official SDK where the service says x-should-retry', () => {
  it.each([
    ['a 500', { kind: 'http500' }, true],
    ['a 500 with x-should-retry: false', { kind: 'http500', shouldRetry: false }, false],
    ['a 401 with x-should-retry: true', { kind: 'echo_key', shouldRetry: true }, true],
    ['a 502 page with x-should-retry: false', { kind: 'http502_html', shouldRetry: false }, false],
  ])('%s', async (_name, fault, retried) => {
    expect(await sdkRetried(fault)).toBe(retried);
    expect(await keywardRetried(fault)).toBe(retried);
  });
});
