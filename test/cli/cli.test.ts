// The built `keyward` CLI against the emulator, as a terminal user runs it.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestBed, startTestBed } from '../emulator/adminClient.ts';
import { answerText } from '../emulator/answers.ts';

let bed: TestBed;
let keys: { routerFunded: string; routerFree: string; direct: string };
beforeAll(async () => { bed = await startTestBed(); });
afterAll(() => bed.close());
beforeEach(async () => {
  await bed.admin('POST', '/reset', { sandbox: true });
  keys = bed.emulator.sandbox!.keys;
});

interface Run { code: number | null; stdout: string; stderr: string }

function cli(args: string[], env: Record<string, string> = {}, input?: string, onStdout?: (text: string, child: ReturnType<typeof spawn>) => void): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['dist/cli.js', ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); onStdout?.(stdout, child); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
  });
}

const router = () => ['--service', 'router', '--base-url', bed.emulator.routerBaseUrl];
const direct = () => ['--service', 'direct', '--base-url', bed.emulator.directBaseUrl];
const routerEnv = () => ({ OPENROUTER_API_KEY: keys.routerFunded });
const directEnv = () => ({ OPENAI_API_KEY: keys.direct });

function noKeys(run: Run): void {
  for (const key of Object.values(keys)) {
    expect(run.stdout).not.toContain(key);
    expect(run.stderr).not.toContain(key);
  }
}

describe('keyward ask', () => {
  it('streams the answer to stdout from the routing service', async () => {
    const run = await cli(['ask', ...router(), '--model', 'openai/gpt-4o-mini', 'hello cli'], routerEnv());
    expect(run).toMatchObject({ code: 0, stdout: answerText('hello cli', { tokens: 12 }) + '\n' });
  });

  it('reads the prompt from stdin with "-" and asks the direct service without streaming', async () => {
    const run = await cli(['ask', ...direct(), '--model', 'gpt-4o-mini', '--no-stream', '-'], directEnv(), 'piped prompt');
    expect(run).toMatchObject({ code: 0, stdout: answerText('piped prompt', { tokens: 12 }) + '\n' });
  });

  it('prints one JSON object with --json', async () => {
    const run = await cli(['ask', ...router(), '--model', 'openrouter/free', '--json', 'json please'], { OPENROUTER_API_KEY: keys.routerFree });
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout) as Record<string, any>;
    expect(json).toMatchObject({ ok: true, service: 'router', text: answerText('json please', { tokens: 12 }), usage: { outputTokens: 12, costUsd: 0 } });
    expect(json.model).toMatch(/:free$/);
  });

  it('exits 1 with the error contract on a service error', async () => {
    await bed.admin('POST', `/router/accounts/${bed.emulator.sandbox!.routerFundedAccountId}/spend`, { amount: 30 });
    const run = await cli(['ask', ...router(), '--model', 'openai/gpt-4o', '--json', 'x'], routerEnv());
    expect(run.code).toBe(1);
    const json = JSON.parse(run.stdout) as { ok: boolean; error: Record<string, unknown> };
    expect(json.ok).toBe(false);
    expect(Object.keys(json.error).sort()).toEqual(['action', 'code', 'kind', 'message', 'retryAfterSeconds', 'status']);
    expect(json.error).toMatchObject({ kind: 'insufficient_credits', status: 402 });
    const text = await cli(['ask', ...router(), '--model', 'openai/gpt-4o', 'x'], routerEnv());
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/^keyward: insufficient_credits \(HTTP 402/);
    expect(text.stderr).toMatch(/what to do: Add credits/);
  });

  it('keeps the text of an interrupted stream and says so', async () => {
    await bed.admin('POST', '/faults', { kind: 'reset', service: 'direct', afterChunks: 7, count: 1 });
    const run = await cli(['ask', ...direct(), '--model', 'gpt-4o-mini', '--json', 'broken'], directEnv());
    expect(run.code).toBe(1);
    const json = JSON.parse(run.stdout) as { error: { kind: string }; text: string };
    expect(json.error.kind).toBe('stream_interrupted');
    expect(answerText('broken', { tokens: 12 }).startsWith(json.text)).toBe(true);
    expect(json.text.length).toBeGreaterThan(0);
  });

  it('cancels cleanly on Ctrl-C and exits 130', async () => {
    await bed.admin('POST', '/config', { tokenDelayMs: 100, answerTokens: 200 });
    let sent = false;
    const run = await cli(['ask', ...router(), '--model', 'openai/gpt-4o-mini', 'long one'], routerEnv(), undefined, (text, child) => {
      if (!sent && text.length > 0) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    expect(run.code).toBe(130);
    expect(run.stderr).toMatch(/cancelled/);
  });

  it.each([
    [['ask'], /--service is required/],
    [['ask', '--service', 'elsewhere', '--model', 'm', 'x'], /--service must be router or direct/],
    [['ask', '--service', 'router', 'x'], /--model is required/],
    [['ask', '--service', 'router', '--model', 'm', '--base-url', 'http://example.com/v1', 'x'], /clear text/],
    [['ask', '--service', 'router', '--model', 'm', '--bogus', 'x'], /Unknown option '--bogus'/],
    [['frobnicate'], /unknown command "frobnicate"/],
  ])('exits 2 for usage errors: %j', async (args, message) => {
    const run = await cli(args, routerEnv());
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  it('exits 2 when the key is not in the environment', async () => {
    const run = await cli(['ask', ...direct(), '--model', 'gpt-4o-mini', 'x']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/set OPENAI_API_KEY/);
  });

  it('never prints the key, even when the server echoes it', async () => {
    await bed.admin('POST', '/faults', { kind: 'echo_key', count: 2 });
    const json = await cli(['ask', ...direct(), '--model', 'gpt-4o-mini', '--json', 'x'], directEnv());
    const text = await cli(['ask', ...direct(), '--model', 'gpt-4o-mini', 'x'], directEnv());
    expect(json.code).toBe(1);
    expect(text.code).toBe(1);
    noKeys(json);
    noKeys(text);
  });

  it('has --help', async () => {
    const run = await cli(['ask', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Usage: keyward ask --service router\|direct --model ID/);
  });
});

describe('keyward status', () => {
  it('shows the router key check and flags a key without limit or expiry', async () => {
    const funded = await cli(['status', ...router(), '--json'], routerEnv());
    expect(funded.code).toBe(0);
    const json = JSON.parse(funded.stdout) as Record<string, any>;
    expect(json).toMatchObject({ ok: true, service: 'router', key: { limit: 10, limitRemaining: 10 }, free: { used: 0, limit: 1000 }, credits: null, warnings: [] });
    const free = await cli(['status', ...router()], { OPENROUTER_API_KEY: keys.routerFree });
    expect(free.code).toBe(0);
    expect(free.stdout).toMatch(/free today 0\/50/);
    expect(free.stdout).toMatch(/no credit limit/);
    expect(free.stdout).toMatch(/no expiry/);
    noKeys(funded);
    noKeys(free);
  });

  it('shows whether the direct key may list models, and the rate limits', async () => {
    const ok = await cli(['status', ...direct(), '--json'], directEnv());
    expect(JSON.parse(ok.stdout)).toMatchObject({ ok: true, recognised: true, canListModels: true, rateLimits: null });
    const restricted = (await bed.admin<{ key: string }>('POST', '/direct/keys', { orgId: bed.emulator.sandbox!.directOrgId, permissions: 'Restricted', scopes: ['api.responses.write'] })).key;
    const run = await cli(['status', ...direct()], { OPENAI_API_KEY: restricted });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/may not list models/);
  });

  it('exits 1 for a key the service does not know', async () => {
    const run = await cli(['status', ...router(), '--json'], { OPENROUTER_API_KEY: 'not-a-key' });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, error: { kind: 'auth', status: 401 } });
  });
});
