// Issue 21 item 7: a conversation on the direct service continues from its stored response
// (previous_response_id). After the direct key changes to one of another organisation, that response is unknown:
// the service answers 400 {"error":{"message":"Previous response with id '…' not found.","type":
// "invalid_request_error","param":"previous_response_id","code":"previous_response_not_found"}} (the emulator's
// test/emulator/directService.ts plays it; the shape is the OpenAI error object of wire-facts B5 and
// openai-openapi's Error schema). Keyward then sends the visible history instead, and names the 400 as its own kind.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatTurn } from '../../../src/shared/protocol.ts';
import { errorKindRule } from '../../../src/shared/errorKindRules.ts';
import { AccountMonitor } from '../../../src/core/monitor/accountMonitor.ts';
import { DEFAULT_CONFIG, type KeywardConfig } from '../../../src/core/config.ts';
import { lastResponseId, promptTurns, responseKeyOf } from '../../../src/core/chat/conversation.ts';
import type { ServiceError } from '../../../src/core/errors.ts';
import { KeyStore } from '../../../src/core/keys/keyStore.ts';
import { runPrompt } from '../../../src/core/chat/promptRunner.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(() => bed.admin('POST', '/reset', { sandbox: true }));

async function monitorWith(keys: KeyStore): Promise<{ monitor: AccountMonitor; baseUrl: string }> {
  const config: KeywardConfig = {
    ...DEFAULT_CONFIG,
    direct: { ...DEFAULT_CONFIG.direct, baseUrl: bed.emulator.directBaseUrl },
    network: { ...DEFAULT_CONFIG.network, connectTimeoutMs: 2_000, idleTimeoutMs: 5_000 },
  };
  const monitor = new AccountMonitor({
    keys,
    config: () => config,
    tier: () => null,
    now: () => bed.emulator.clock.now(),
  });
  return { monitor, baseUrl: bed.emulator.directBaseUrl };
}

function memoryKeys(): KeyStore {
  const secrets = new Map<string, string>();
  const state = new Map<string, unknown>();
  return new KeyStore(
    {
      get: async (n) => secrets.get(n),
      store: async (n, v) => void secrets.set(n, v),
      delete: async (n) => void secrets.delete(n),
    },
    { get: <T>(n: string) => state.get(n) as T | undefined, update: async (n, v) => void state.set(n, v) },
  );
}

/** A funded key of a fresh organisation: the sandbox key's stored responses are not its. */
async function otherOrgKey(): Promise<string> {
  const org = await bed.admin<{ id: string }>('POST', '/direct/orgs', { name: 'second organisation' });
  await bed.admin('POST', `/direct/orgs/${org.id}/purchase`, { amount: 10 });
  const created = await bed.admin<{ key: string }>('POST', '/direct/keys', { orgId: org.id });
  return created.key;
}

/** What the chat does for a follow-up on the direct service, given the key it now holds. */
async function followUp(monitor: AccountMonitor, history: ChatTurn[], key: string, baseUrl: string, prompt: string) {
  const responseKey = responseKeyOf(key, baseUrl);
  const previousResponseId = lastResponseId(history, responseKey);
  const result = await runPrompt(monitor, {
    service: 'direct',
    model: 'gpt-4o-mini',
    turns: promptTurns(history, prompt, []),
    ...(previousResponseId ? { previousResponseId } : {}),
  });
  const n = history.length;
  history.push(
    { id: `u${n}`, role: 'user', text: prompt, service: 'direct', model: 'gpt-4o-mini', status: 'done' },
    {
      id: `a${n}`,
      role: 'assistant',
      text: result.text,
      service: 'direct',
      model: 'gpt-4o-mini',
      status: 'done',
      responseId: result.id,
      responseKey,
    },
  );
  return { previousResponseId, result };
}

describe('the response chain across a change of key', () => {
  it('drops the stored chain when the key changes, so the follow-up is answered', async () => {
    const keys = memoryKeys();
    const first = bed.emulator.sandbox!.keys.direct;
    await keys.setKey('direct', first);
    const { monitor, baseUrl } = await monitorWith(keys);
    const history: ChatTurn[] = [];
    await followUp(monitor, history, first, baseUrl, 'Name a tide table.');
    // Same key: the chain is used.
    const same = await followUp(monitor, history, first, baseUrl, 'And another?');
    expect(same.previousResponseId).toBe(history[1]!.responseId);

    const second = await otherOrgKey();
    await keys.setKey('direct', second);
    const after = await followUp(monitor, history, second, baseUrl, 'Which one is older?');
    expect(after.previousResponseId).toBeUndefined();
    expect(after.result.text.length).toBeGreaterThan(0);
    monitor.dispose();
  });

  it('names the 400 for an unknown stored response as its own kind, with Send again, not the model id', async () => {
    const keys = memoryKeys();
    const first = bed.emulator.sandbox!.keys.direct;
    await keys.setKey('direct', first);
    const { monitor, baseUrl } = await monitorWith(keys);
    const history: ChatTurn[] = [];
    await followUp(monitor, history, first, baseUrl, 'Name a tide table.');
    await keys.setKey('direct', await otherOrgKey());
    // A turn stored before Keyward recorded its key keeps its chain: the service refuses it.
    const stale = history[1]!.responseId!;
    const error = (await runPrompt(monitor, {
      service: 'direct',
      model: 'gpt-4o-mini',
      turns: promptTurns(history, 'Which one is older?', []),
      previousResponseId: stale,
    }).catch((thrown: unknown) => thrown)) as ServiceError;
    expect(error.kind).toBe('response_chain_lost');
    expect(error.status).toBe(400);
    expect(error.code).toBe('previous_response_not_found');
    const rule = errorKindRule('response_chain_lost');
    expect(rule.buttons.map((b) => b.action)).toEqual(['retry']);
    expect(rule.advice({ id: 'direct', name: 'direct service' } as never)).not.toMatch(/model id/);
    monitor.dispose();
  });
});
