// The built `keyward` CLI against the emulator, as a terminal user runs it.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { sandboxBed } from '../emulator/sandboxBed.ts';
import { answerText } from '../emulator/answers.ts';
import { SERVICE_IDS } from '../../src/shared/serviceIds.ts';

const sandbox = sandboxBed();

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(
  args: string[],
  env: Record<string, string> = {},
  input?: string,
  onStdout?: (text: string, child: ReturnType<typeof spawn>) => void,
  nodeArgs: string[] = [],
): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeArgs, 'dist/cli.js', ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      onStdout?.(stdout, child);
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
  });
}

const router = () => ['--service', 'router', '--base-url', sandbox.bed.emulator.routerBaseUrl];
const direct = () => ['--service', 'direct', '--base-url', sandbox.bed.emulator.directBaseUrl];
const routerEnv = () => ({ OPENROUTER_API_KEY: sandbox.keys.routerFunded });
const directEnv = () => ({ OPENAI_API_KEY: sandbox.keys.direct });

function noKeys(run: Run): void {
  for (const key of Object.values(sandbox.keys)) {
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
    const run = await cli(
      ['ask', ...direct(), '--model', 'gpt-4o-mini', '--no-stream', '-'],
      directEnv(),
      'piped prompt',
    );
    expect(run).toMatchObject({ code: 0, stdout: answerText('piped prompt', { tokens: 12 }) + '\n' });
  });

  it('prints one JSON object with --json', async () => {
    const run = await cli(['ask', ...router(), '--model', 'openrouter/free', '--json', 'json please'], {
      OPENROUTER_API_KEY: sandbox.keys.routerFree,
    });
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout) as Record<string, any>;
    expect(json).toMatchObject({
      ok: true,
      service: 'router',
      text: answerText('json please', { tokens: 12 }),
      usage: { outputTokens: 12, costUsd: 0 },
    });
    expect(json.model).toMatch(/:free$/);
  });

  it('exits 1 with the error contract on a service error', async () => {
    await sandbox.bed.admin('POST', `/router/accounts/${sandbox.bed.emulator.sandbox!.routerFundedAccountId}/spend`, {
      amount: 30,
    });
    const run = await cli(['ask', ...router(), '--model', 'openai/gpt-4o', '--json', 'x'], routerEnv());
    expect(run.code).toBe(1);
    const json = JSON.parse(run.stdout) as { ok: boolean; error: Record<string, unknown> };
    expect(json.ok).toBe(false);
    expect(Object.keys(json.error).sort()).toEqual([
      'action',
      'code',
      'kind',
      'message',
      'retryAfterSeconds',
      'status',
    ]);
    expect(json.error).toMatchObject({ kind: 'insufficient_credits', status: 402 });
    const text = await cli(['ask', ...router(), '--model', 'openai/gpt-4o', 'x'], routerEnv());
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/^keyward: insufficient_credits \(HTTP 402/);
    expect(text.stderr).toMatch(/what to do: Add credits/);
  });

  it('keeps the text of an interrupted stream and says so', async () => {
    await sandbox.bed.admin('POST', '/faults', { kind: 'reset', service: 'direct', afterChunks: 7, count: 1 });
    const run = await cli(['ask', ...direct(), '--model', 'gpt-4o-mini', '--json', 'broken'], directEnv());
    expect(run.code).toBe(1);
    const json = JSON.parse(run.stdout) as { error: { kind: string }; text: string };
    expect(json.error.kind).toBe('stream_interrupted');
    expect(answerText('broken', { tokens: 12 }).startsWith(json.text)).toBe(true);
    expect(json.text.length).toBeGreaterThan(0);
  });

  it('cancels cleanly on Ctrl-C and exits 130', async () => {
    await sandbox.bed.admin('POST', '/config', { tokenDelayMs: 100, answerTokens: 200 });
    let sent = false;
    const run = await cli(
      ['ask', ...router(), '--model', 'openai/gpt-4o-mini', 'long one'],
      routerEnv(),
      undefined,
      (text, child) => {
        if (!sent && text.length > 0) {
          sent = true;
          child.kill('SIGINT');
        }
      },
    );
    expect(run.code).toBe(130);
    expect(run.stderr).toMatch(/cancelled/);
  });

  it.each([
    [['ask'], /--service is required/],
    [['ask', '--service', 'elsewhere', '--model', 'm', 'x'], /--service must be router, direct or compatible/],
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
    await sandbox.bed.admin('POST', '/faults', { kind: 'echo_key', count: 2 });
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
    expect(run.stdout).toContain(`Usage: keyward ask --service ${SERVICE_IDS.join('|')} --model ID`);
  });
});

describe('keyward ask --json: every failure is the JSON object', () => {
  const parse = (run: Run) => JSON.parse(run.stdout) as { ok: boolean; error: Record<string, unknown> };

  it.each([
    [['ask', '--json'], 'usage', 'missing_option', /--service is required/],
    [['ask', '--json', '--service', 'router', 'x'], 'usage', 'missing_option', /--model is required/],
    [
      ['ask', '--json', '--service', 'router', '--model', 'm', '--bogus', 'x'],
      'usage',
      'unknown_option',
      /Unknown option '--bogus'/,
    ],
    [
      ['ask', '--json', '--service', 'router', '--model', 'm', '--base-url', 'http://example.com/v1', 'x'],
      'insecure_url',
      'insecure',
      /clear text/,
    ],
    [
      ['ask', '--json', '--service', 'router', '--model', 'm', '--base-url', 'ftp://example.com', 'x'],
      'insecure_url',
      'invalid',
      /not a valid https URL/,
    ],
    [
      ['ask', '--json', '--service', 'router', '--model', 'm', '--timeout', 'soon', 'x'],
      'usage',
      'invalid_option',
      /--timeout must be a whole number of milliseconds/,
    ],
    [
      ['status', '--json', '--service', 'router', '--base-url', 'http://example.com/v1'],
      'insecure_url',
      'insecure',
      /clear text/,
    ],
  ])('%j', async (args, kind, code, message) => {
    const run = await cli(args, routerEnv());
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('');
    const json = parse(run);
    expect(json.ok).toBe(false);
    expect(Object.keys(json.error).sort()).toEqual([
      'action',
      'code',
      'kind',
      'message',
      'retryAfterSeconds',
      'status',
    ]);
    expect(json.error).toMatchObject({
      kind,
      code,
      status: null,
      retryAfterSeconds: null,
      message: expect.stringMatching(message),
    });
  });

  it('a missing key is a usage error in JSON too', async () => {
    const run = await cli(['ask', ...direct(), '--model', 'gpt-4o-mini', '--json', 'x']);
    expect(run.code).toBe(2);
    expect(parse(run).error).toMatchObject({
      kind: 'usage',
      code: 'missing_key',
      message: expect.stringMatching(/set OPENAI_API_KEY/),
    });
  });
});

describe('keyward ask: base URL and timeouts from flags and the environment', () => {
  it('honours OPENROUTER_BASE_URL and OPENAI_BASE_URL when --base-url is absent, and --base-url over them', async () => {
    const fromRouterEnv = await cli(['ask', '--service', 'router', '--model', 'openai/gpt-4o-mini', 'from env'], {
      ...routerEnv(),
      OPENROUTER_BASE_URL: sandbox.bed.emulator.routerBaseUrl,
    });
    expect(fromRouterEnv).toMatchObject({ code: 0, stdout: answerText('from env', { tokens: 12 }) + '\n' });
    const fromDirectEnv = await cli(['ask', '--service', 'direct', '--model', 'gpt-4o-mini', 'from env'], {
      ...directEnv(),
      OPENAI_BASE_URL: sandbox.bed.emulator.directBaseUrl + '/',
    });
    expect(fromDirectEnv.code).toBe(0);
    const flag = await cli(['ask', ...router(), '--model', 'openai/gpt-4o-mini', 'x'], {
      ...routerEnv(),
      OPENROUTER_BASE_URL: 'https://unused.example.invalid/api/v1',
    });
    expect(flag.code).toBe(0);
  });

  it('applies the https rule to the environment variable, naming it', async () => {
    const run = await cli(['ask', '--service', 'direct', '--model', 'gpt-4o-mini', '--json', 'x'], {
      ...directEnv(),
      OPENAI_BASE_URL: 'http://example.com/v1',
    });
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout).error).toMatchObject({
      kind: 'insecure_url',
      message: expect.stringMatching(/^OPENAI_BASE_URL http:\/\/example\.com\/v1 uses http/),
    });
    const text = await cli(['status', '--service', 'router'], {
      ...routerEnv(),
      OPENROUTER_BASE_URL: 'http://example.com/v1',
    });
    expect(text.code).toBe(2);
    expect(text.stderr).toMatch(/OPENROUTER_BASE_URL http:\/\/example\.com\/v1 uses http/);
  });

  it('waits minutes for a whole answer but not for a silent stream; both configurable', async () => {
    await sandbox.bed.admin('POST', '/faults', { kind: 'slow_headers', delayMs: 1500, count: 4 });
    const whole = await cli(
      ['ask', ...direct(), '--model', 'o3', '--no-stream', '--idle-timeout', '300', 'think'],
      directEnv(),
    );
    expect(whole).toMatchObject({ code: 0, stdout: answerText('think', { tokens: 12 }) + '\n' });
    const flag = await cli(
      ['ask', ...direct(), '--model', 'o3', '--no-stream', '--timeout', '300', '--json', 'think'],
      directEnv(),
    );
    expect(flag.code).toBe(1);
    expect(JSON.parse(flag.stdout).error).toMatchObject({
      kind: 'timeout',
      message: expect.stringMatching(/after 300 ms \(the request timeout/),
    });
    const env = await cli(['ask', ...direct(), '--model', 'o3', '--no-stream', '--json', 'think'], {
      ...directEnv(),
      KEYWARD_TIMEOUT_MS: '300',
    });
    expect(JSON.parse(env.stdout).error).toMatchObject({ kind: 'timeout' });
    const stream = await cli(['ask', ...direct(), '--model', 'o3', '--json', 'think'], {
      ...directEnv(),
      KEYWARD_IDLE_TIMEOUT_MS: '300',
    });
    expect(JSON.parse(stream.stdout).error).toMatchObject({
      kind: 'timeout',
      message: expect.stringMatching(/the idle timeout/),
    });
  });
});

describe('keyward ask against a hostile or odd server', () => {
  // Prints the process's peak resident memory (KiB) as it exits.
  const peakRss = [
    '--import',
    `data:text/javascript,${encodeURIComponent('process.on("exit",()=>process.stderr.write("maxrss="+process.resourceUsage().maxRSS+"\\n"))')}`,
  ];

  it.each([
    ['endless_line', [], 'sse_line_too_long'],
    ['endless_event', [], 'sse_event_too_large'],
    ['endless_body', ['--no-stream'], 'body_too_large'],
  ])(
    '%s: stops soon with response_too_large and bounded memory',
    async (kind, extra, code) => {
      await sandbox.bed.admin('POST', '/faults', { kind, afterChunks: 0, count: 5 });
      const started = Date.now();
      const run = await cli(
        ['ask', ...router(), '--model', 'openai/gpt-4o-mini', '--json', ...extra, 'x'],
        routerEnv(),
        undefined,
        undefined,
        peakRss,
      );
      const seconds = (Date.now() - started) / 1000;
      expect(run.code).toBe(1);
      expect(JSON.parse(run.stdout).error).toMatchObject({ kind: 'response_too_large', code });
      const rssMiB = Number(/maxrss=(\d+)/.exec(run.stderr)![1]) / 1024;
      console.info(`${kind}: exit after ${seconds.toFixed(1)} s, peak RSS ${rssMiB.toFixed(0)} MiB`);
      expect(rssMiB).toBeLessThan(200);
      expect(seconds).toBeLessThan(15);
    },
    40_000,
  );

  it.each(['message', 'code', 'reason', 'raw', 'provider', 'title', 'stream'])(
    'never prints the key the server echoes in %s',
    async (field) => {
      // x-should-retry: false keeps the retried kinds (429, 502) to one request each.
      await sandbox.bed.admin('POST', '/faults', { kind: 'echo_key', field, shouldRetry: false, count: 2 });
      const json = await cli(['ask', ...router(), '--model', 'openai/gpt-4o-mini', '--json', 'x'], routerEnv());
      const text = await cli(['ask', ...router(), '--model', 'openai/gpt-4o-mini', 'x'], routerEnv());
      expect(json.code).toBe(1);
      expect(text.code).toBe(1);
      noKeys(json);
      noKeys(text);
      expect(json.stdout).toContain('…' + sandbox.keys.routerFunded.slice(-4));
    },
  );

  it('reports a moderation 403, a region 403 and a redirect plainly, once', async () => {
    await sandbox.bed.admin('POST', '/faults', { kind: 'moderation', service: 'router', count: 1 });
    const flagged = await cli(['ask', ...router(), '--model', 'openai/gpt-4o-mini', 'x'], routerEnv());
    expect(flagged.code).toBe(1);
    expect(flagged.stderr).toMatch(
      /^keyward: moderation \(HTTP 403, 403\): The prompt was flagged by OpenAI's moderation for violence/,
    );
    await sandbox.bed.admin('POST', '/faults', { kind: 'region', service: 'direct', count: 1 });
    const region = await cli(['ask', ...direct(), '--model', 'gpt-4o-mini', '--json', 'x'], directEnv());
    expect(JSON.parse(region.stdout).error).toMatchObject({ kind: 'region', status: 403 });
    await sandbox.bed.admin('POST', '/faults', { kind: 'redirect', status: 307, count: 5 });
    const moved = await cli(['ask', ...router(), '--model', 'openai/gpt-4o-mini', 'x'], routerEnv());
    expect(moved.code).toBe(1);
    expect(moved.stderr).not.toMatch(/trying again/);
    expect(moved.stderr).toMatch(
      /^keyward: redirected \(HTTP 307\): The routing service redirected to https:\/\/moved\.example\.invalid\/router\/api\/v1\/chat\/completions \(HTTP 307\); Keyward does not follow redirects with your key\./,
    );
  });
});

describe('keyward status', () => {
  it('shows the router key check and flags a key without limit or expiry', async () => {
    const funded = await cli(['status', ...router(), '--json'], routerEnv());
    expect(funded.code).toBe(0);
    const json = JSON.parse(funded.stdout) as Record<string, any>;
    expect(json).toMatchObject({
      ok: true,
      service: 'router',
      key: { limit: 10, limitRemaining: 10 },
      free: { used: 0, limit: 1000 },
      credits: null,
      warnings: [],
    });
    const free = await cli(['status', ...router()], { OPENROUTER_API_KEY: sandbox.keys.routerFree });
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
    const restricted = (
      await sandbox.bed.admin<{ key: string }>('POST', '/direct/keys', {
        orgId: sandbox.bed.emulator.sandbox!.directOrgId,
        permissions: 'Restricted',
        scopes: ['api.responses.write'],
      })
    ).key;
    const run = await cli(['status', ...direct()], { OPENAI_API_KEY: restricted });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/may not list models/);
  });

  it('never prints the key when the key check echoes it whole', async () => {
    await sandbox.bed.admin('POST', '/faults', { kind: 'echo_key', field: 'label', path: '/key', count: 2 });
    const json = await cli(['status', ...router(), '--json'], routerEnv());
    const text = await cli(['status', ...router()], routerEnv());
    expect(json.code).toBe(0);
    expect(text.code).toBe(0);
    noKeys(json);
    noKeys(text);
    expect(text.stdout).toContain('…' + sandbox.keys.routerFunded.slice(-4));
  });

  it('exits 1 for a key the service does not know', async () => {
    const run = await cli(['status', ...router(), '--json'], { OPENROUTER_API_KEY: 'not-a-key' });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, error: { kind: 'auth', status: 401 } });
  });
});
