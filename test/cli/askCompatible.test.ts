// `keyward ask --service compatible` against the emulator's OpenAI-compatible
// server, as a terminal user runs the built CLI: with and without a key, the
// same JSON shape and exit codes as the other services.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestBed, startTestBed } from '../emulator/adminClient.ts';
import { answerText } from '../emulator/answers.ts';
import { directKey, routerKey } from '../emulator/keyFactory.ts';
import { cli } from './cliSupport.ts';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(() => {
  bed.emulator.compatible.seen.length = 0;
  bed.emulator.compatible.bodies.length = 0;
});

const ask = (baseUrl: string, ...rest: string[]) => [
  'ask',
  '--service',
  'compatible',
  '--base-url',
  baseUrl,
  '--model',
  'llama3.2:3b',
  ...rest,
];

describe('keyward ask --service compatible', () => {
  it('answers from a server that needs no key, sending no Authorization header', async () => {
    const run = await cli(ask(bed.emulator.compatibleBaseUrls.open, 'hello'), {});
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(answerText('hello', { tokens: 12 }) + '\n');
    expect(bed.emulator.compatible.seen).toEqual([{ path: '/compatible/v1/chat/completions', authorization: null }]);
  });

  it('sends KEYWARD_COMPATIBLE_API_KEY when set, and prints the same JSON object as the other services', async () => {
    const key = bed.emulator.compatible.key;
    const run = await cli(ask(bed.emulator.compatibleBaseUrls.keyed, '--json', 'hello'), {
      KEYWARD_COMPATIBLE_API_KEY: key,
    });
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(Object.keys(json).sort()).toEqual(
      ['ok', 'service', 'model', 'text', 'usage', 'finishReason', 'nativeFinishReason', 'refusal'].sort(),
    );
    expect(json).toMatchObject({
      ok: true,
      service: 'compatible',
      model: 'llama3.2:3b',
      text: answerText('hello', { tokens: 12 }),
      finishReason: 'stop',
      refusal: null,
      // Streamed, yet counted: the CLI asks for usage (stream_options.include_usage).
      usage: { outputTokens: 12, costUsd: null },
    });
    expect(bed.emulator.compatible.seen[0]!.authorization).toBe(`Bearer ${key}`);
  });

  it('reads the base URL from KEYWARD_COMPATIBLE_BASE_URL, and answers whole with --no-stream', async () => {
    const run = await cli(['ask', '--service', 'compatible', '--model', 'llama3.2:3b', '--no-stream', '--json', 'hi'], {
      KEYWARD_COMPATIBLE_BASE_URL: bed.emulator.compatibleBaseUrls.open,
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      ok: true,
      text: answerText('hi', { tokens: 12 }),
      usage: { outputTokens: 12 },
    });
  });

  it('a server that wants a key and got none: exit 1 with the error contract, kind auth', async () => {
    const run = await cli(ask(bed.emulator.compatibleBaseUrls.keyed, '--json', 'hello'), {});
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, error: { kind: 'auth', status: 401 } });
    expect(bed.emulator.compatible.seen[0]!.authorization).toBeNull();
  });

  it('no base URL at all is a usage error (exit 2) that names the option and the variable', async () => {
    const run = await cli(['ask', '--service', 'compatible', '--model', 'm', '--json', 'hi'], {});
    expect(run.code).toBe(2);
    const json = JSON.parse(run.stdout) as { error: { kind: string; code: string; message: string } };
    expect(json.error).toMatchObject({ kind: 'usage', code: 'missing_option' });
    expect(json.error.message).toContain('KEYWARD_COMPATIBLE_BASE_URL');
  });

  it('plain http to another machine is refused as insecure_url (exit 2)', async () => {
    const run = await cli(ask('http://example.com/v1', '--json', 'hi'), {
      KEYWARD_COMPATIBLE_API_KEY: 'anything-1234',
    });
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, error: { kind: 'insecure_url' } });
  });

  it('keyward status --service compatible says whether the server answers and lists models', async () => {
    const listed = await cli(
      ['status', '--service', 'compatible', '--base-url', bed.emulator.compatibleBaseUrls.open, '--json'],
      {},
    );
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual({
      ok: true,
      service: 'compatible',
      answering: true,
      keySent: false,
      canListModels: true,
      models: ['llama3.2:3b', 'qwen2.5-coder:7b'],
    });
    const bare = await cli(
      ['status', '--service', 'compatible', '--base-url', bed.emulator.compatibleBaseUrls.bare, '--json'],
      {},
    );
    expect(JSON.parse(bare.stdout)).toMatchObject({ ok: true, canListModels: false, models: null });
  });
});

describe('keyward ask: the secret guard of the chat (core/guards/secretGuard.ts)', () => {
  // A key in a piped prompt was sent verbatim. Now the same guard as the chat: key shapes, and the
  // exact value of every key variable set (KEYWARD_COMPATIBLE_API_KEY has no shape); refused with
  // exit 4 naming where, or sent redacted with --redact. The emulator records what arrives.
  const piped = (found: string) => `Why does this fail?\n\nconst config = {\n  key: "${found}",\n};\n`;

  it('a key in a piped prompt is refused: exit 4, where it is (line, column, masked), nothing sent', async () => {
    const key = routerKey();
    const run = await cli(ask(bed.emulator.compatibleBaseUrls.open, '-'), {}, piped(key));
    expect(run.code).toBe(4);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^keyward ask: the prompt holds a key \(standard input line 4, column 9: .*sk-or-v1-…[0-9a-f]{4}\); nothing was sent\n {2}what to do: .*--redact/,
    );
    expect(run.stderr).not.toContain(key);
    expect(bed.emulator.compatible.seen).toEqual([]);
    expect(bed.emulator.compatible.bodies).toEqual([]);
  });

  it("a key variable's exact value, whatever its shape, is refused too; --json says key_in_prompt", async () => {
    const key = bed.emulator.compatible.key;
    const run = await cli(ask(bed.emulator.compatibleBaseUrls.keyed, '--json', `use ${key} please`), {
      KEYWARD_COMPATIBLE_API_KEY: key,
    });
    expect(run.code).toBe(4);
    const json = JSON.parse(run.stdout) as { ok: boolean; error: { kind: string }; keys: unknown[] };
    expect(json).toMatchObject({
      ok: false,
      error: { kind: 'key_in_prompt', code: 'key_in_prompt', status: null },
      keys: [{ in: 'the prompt argument', line: 1, column: 5 }],
    });
    expect(run.stdout).not.toContain(key);
    expect(bed.emulator.compatible.seen).toEqual([]);
  });

  it('--redact sends the prompt with each key replaced; the server receives no key', async () => {
    const router = routerKey();
    const direct = directKey();
    const run = await cli(
      ask(bed.emulator.compatibleBaseUrls.open, '--redact', '-'),
      {},
      piped(router) + `OPENAI_API_KEY=${direct}\n`,
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^keyward ask: 2 keys redacted before sending \(standard input line 4/);
    expect(bed.emulator.compatible.bodies).toHaveLength(1);
    const sent = bed.emulator.compatible.bodies[0]!;
    expect(sent).not.toContain(router);
    expect(sent).not.toContain(direct);
    expect(sent).toContain('[redacted key sk-or-v1-…');
    expect(sent).toContain('Why does this fail?');
  });
});
