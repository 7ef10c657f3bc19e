// `keyward ask` says how an answer ended: a refusal is the answer, marked as
// one; a filtered answer is never a bare success; a broken one keeps the usage
// the service reported and says the service was reached. The built CLI against the emulator.
import { describe, expect, it } from 'vitest';
import { sandboxBed } from '../emulator/sandboxBed.ts';
import { REFUSAL_TOKENS, answerText } from '../emulator/answers.ts';
import { cli } from './cliSupport.ts';

const sandbox = sandboxBed();

const REFUSAL = REFUSAL_TOKENS.join('');
const services = [
  {
    service: 'router',
    model: 'openai/gpt-4o-mini',
    args: () => ['--service', 'router', '--base-url', sandbox.bed.emulator.routerBaseUrl],
    env: () => ({ OPENROUTER_API_KEY: sandbox.keys.routerFunded }),
  },
  {
    service: 'direct',
    model: 'gpt-4o-mini',
    args: () => ['--service', 'direct', '--base-url', sandbox.bed.emulator.directBaseUrl],
    env: () => ({ OPENAI_API_KEY: sandbox.keys.direct }),
  },
] as const;
const modes = [
  { flags: [], name: 'streamed' },
  { flags: ['--no-stream'], name: 'whole' },
] as const;

describe.each(services)('keyward ask --service $service', ({ model, args, env }) => {
  it.each(modes)('a refusal ($name): --json carries it as "refusal", never a bare empty success', async ({ flags }) => {
    const run = await cli(
      ['ask', ...args(), '--model', model, ...flags, '--json', '[[refuse]] how to pick a lock'],
      env(),
    );
    expect(run.code).toBe(3);
    const json = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ ok: true, text: '', refusal: REFUSAL, finishReason: 'stop' });
    // Additive: every field the contract had is still there.
    for (const field of ['ok', 'service', 'model', 'text', 'usage']) expect(json).toHaveProperty(field);
  });

  it('a refusal in text mode: the explanation on stdout, the marker on stderr', async () => {
    const run = await cli(['ask', ...args(), '--model', model, '[[refuse]] how to pick a lock'], env());
    expect(run).toMatchObject({ code: 3, stdout: `${REFUSAL}\n` });
    expect(run.stderr).toMatch(/the model declined to answer/);
  });

  it('a filtered answer with no text: finishReason content_filter, exit 3, and a plain sentence', async () => {
    const json = await cli(['ask', ...args(), '--model', model, '--json', '[[filter]] forbidden'], env());
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: true,
      text: '',
      refusal: null,
      finishReason: 'content_filter',
    });
    const text = await cli(['ask', ...args(), '--model', model, '[[filter]] forbidden'], env());
    expect(text).toMatchObject({ code: 3, stdout: '' });
    expect(text.stderr).toMatch(/content filter withheld the answer/);
  });

  it('an ordinary answer says it ended with stop, and exits 0', async () => {
    const run = await cli(['ask', ...args(), '--model', model, '--json', 'plain answer'], env());
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      ok: true,
      text: answerText('plain answer', { tokens: 12 }),
      finishReason: 'stop',
      refusal: null,
    });
  });
});

describe('keyward ask: partly filtered, and broken answers', () => {
  const [router, direct] = services;

  it('router: a partly filtered answer keeps what arrived and still exits 3', async () => {
    const ask = (...rest: string[]) =>
      cli(['ask', ...router.args(), '--model', router.model, ...rest, '[[filter:5]] partial'], router.env());
    const run = await ask('--json');
    expect(run.code).toBe(3);
    expect(JSON.parse(run.stdout)).toMatchObject({
      ok: true,
      finishReason: 'content_filter',
      nativeFinishReason: 'content_filter',
    });
    expect((JSON.parse(run.stdout) as { text: string }).text.split(' ')).toHaveLength(5);
    const text = await ask();
    expect(text.stdout.trim().split(' ')).toHaveLength(5);
    expect(text.stderr).toMatch(/content filter stopped the answer; what arrived is above/);
  });

  it('direct: an answer that broke off keeps its text and the usage the service reported', async () => {
    await sandbox.bed.admin('POST', '/faults', { kind: 'error_event', service: 'direct', afterChunks: 7 });
    const run = await cli(['ask', ...direct.args(), '--model', direct.model, '--json', 'breaks'], direct.env());
    expect(run.code).toBe(1);
    const json = JSON.parse(run.stdout) as {
      ok: boolean;
      error: { kind: string };
      text: string;
      usage: { outputTokens: number };
    };
    expect(json).toMatchObject({ ok: false, error: { kind: 'stream_interrupted' }, usage: { outputTokens: 3 } });
    expect(json.text.split(' ')).toHaveLength(3);
  });

  it('direct: a reset mid-stream is not "could not reach"', async () => {
    await sandbox.bed.admin('POST', '/faults', { kind: 'reset', service: 'direct', afterChunks: 7 });
    const run = await cli(['ask', ...direct.args(), '--model', direct.model, 'resets'], direct.env());
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^keyward: stream_interrupted/);
    expect(run.stderr).not.toMatch(/Could not reach/i);
    expect(run.stderr).toMatch(/started answering/);
  });
});
