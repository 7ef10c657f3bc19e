// `keyward scan --verify` on other AI providers' keys, through the built CLI against a server that answers with each
// provider's real success and refusal shapes (test/emulator/providerChecks.ts): live, refused, an answer of another
// shape, no network; unknown where the provider has no no-cost check. Each key goes only in the header its provider
// reads, never in a URL, and no key reaches the report.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CHECKED_PROVIDERS,
  type CheckedProvider,
  PROVIDER_BASE,
  type ProviderServer,
  startProviderServer,
} from '../emulator/providerChecks.ts';
import { type ProviderKeyRule, providerKey } from '../emulator/keyFactory.ts';
import { CLI, cliCacheHome, makeRepo, tempDir } from './gitFixtures.ts';

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.live.clear();
  server.disabled.clear();
  server.mode = {};
  server.seen.length = 0;
});

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function scan(cwd: string, args: string[], waitMs = 3000): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'scan', '--no-git', ...args], {
      cwd,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: cwd,
        XDG_CACHE_HOME: cliCacheHome(),
        KEYWARD_IDLE_TIMEOUT_MS: String(waitMs),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

interface Found {
  path: string;
  line: number;
  ruleId: string;
  service: string;
  verification?: { status: string; reason: string; checkedAt?: string };
}

function findings(run: Run): Found[] {
  try {
    return (JSON.parse(run.stdout) as { findings: Found[] }).findings;
  } catch {
    throw new Error(`not JSON (exit ${run.status}): ${run.stdout}\n${run.stderr}`);
  }
}

/** One key of each checked rule, one per line of a .env file, in this order. */
const CHECKED_RULES: Record<CheckedProvider, ProviderKeyRule> = {
  anthropic: 'anthropic-key',
  google: 'google-api-key',
  groq: 'groq-key',
  xai: 'xai-key',
  huggingface: 'huggingface-token',
  replicate: 'replicate-token',
  together: 'together-key',
};

function folder(keys: string[]): string {
  const dir = tempDir('keyward-verify-providers-');
  makeRepo(dir, false).write('.env', keys.map((k, i) => `KEY_${i}=${k}\n`).join(''));
  return dir;
}

/** Every key was sent in its provider's header only: never in a URL, never to another provider. */
function expectHeadersOnly(keys: Record<string, string[]>): void {
  for (const seen of server.seen) {
    for (const key of Object.values(keys).flat()) expect(seen.url).not.toContain(key);
    const own = keys[seen.provider]!;
    if (seen.provider === 'anthropic') {
      expect(own).toContain(seen.xApiKey);
      expect(seen.anthropicVersion).toBe('2023-06-01');
      expect(seen.authorization).toBeUndefined();
    } else if (seen.provider === 'google') {
      expect(own).toContain(seen.xGoogApiKey);
      expect(seen.authorization).toBeUndefined();
      expect(seen.url).not.toMatch(/[?&]key=/);
    } else expect(own.map((k) => `Bearer ${k}`)).toContain(seen.authorization);
  }
}

describe('keyward scan --verify: other providers', () => {
  it('live and refused per provider, each at its documented endpoint with the key in its header only', async () => {
    const live = Object.fromEntries(CHECKED_PROVIDERS.map((p) => [p, providerKey(CHECKED_RULES[p])]));
    const refused = Object.fromEntries(CHECKED_PROVIDERS.map((p) => [p, providerKey(CHECKED_RULES[p])]));
    for (const key of Object.values(live)) server.live.add(key);
    const dir = folder([...Object.values(live), ...Object.values(refused)]);
    const run = await scan(dir, ['--verify', ...server.flags(), '--format', 'json']);
    expect(run.status).toBe(1);
    const found = findings(run);
    expect(found).toHaveLength(CHECKED_PROVIDERS.length * 2);
    // Results keep the report's order (by line), whatever order the answers came in.
    expect(found.map((f) => f.line)).toEqual(found.map((_, i) => i + 1));
    CHECKED_PROVIDERS.forEach((provider, i) => {
      const [accepted, refusedOne] = [found[i]!, found[i + CHECKED_PROVIDERS.length]!];
      expect(accepted.service, provider).toBe(provider);
      expect(accepted.verification, provider).toMatchObject({
        status: 'live',
        reason: expect.stringMatching(/accepted the key \(GET \//) as unknown,
      });
      expect(refusedOne.verification, provider).toMatchObject({
        status: 'inactive',
        reason: expect.stringMatching(/refused the key \(HTTP 40[01]/) as unknown,
      });
      expect(accepted.verification!.checkedAt).toMatch(new RegExp(`^${server.url}${PROVIDER_BASE[provider]}/`));
    });
    expect(found.find((f) => f.service === 'google')!.verification!.checkedAt).toBe(
      `${server.url}/google/v1beta/models`,
    );
    expect(server.seen.map((s) => `${s.method} ${s.url}`).sort()).toEqual(
      [
        'GET /anthropic/v1/models?limit=1',
        'GET /google/v1beta/models?pageSize=1',
        'GET /groq/openai/v1/models',
        'GET /xai/v1/api-key',
        'GET /huggingface/api/whoami-v2',
        'GET /replicate/v1/account',
        'GET /together/v1/models',
      ]
        .flatMap((r) => [r, r])
        .sort(),
    );
    expectHeadersOnly(Object.fromEntries(CHECKED_PROVIDERS.map((p) => [p, [live[p]!, refused[p]!]])));
    for (const key of [...Object.values(live), ...Object.values(refused)]) {
      expect(run.stdout).not.toContain(key);
      expect(run.stderr).not.toContain(key);
    }
  });

  it('an Anthropic Admin key is asked at the Admin API; xAI disabled and a Google key blocked for Gemini are told apart', async () => {
    const admin = providerKey('anthropic-admin-key');
    const xai = providerKey('xai-key');
    const google = providerKey('google-api-key');
    server.live.add(admin);
    server.disabled.add(xai);
    server.disabled.add(google);
    const run = await scan(folder([admin, xai, google]), ['--verify', ...server.flags(), '--format', 'json']);
    const [a, x, g] = findings(run);
    expect(a!.verification).toMatchObject({
      status: 'live',
      reason: 'Anthropic accepted the key (GET /v1/organizations/me)',
    });
    expect(x!.verification).toMatchObject({
      status: 'inactive',
      reason: 'xAI knows the key but reports api_key_disabled',
    });
    // Google knows the key: not inactive, and not live for Gemini either.
    expect(g!.verification).toMatchObject({
      status: 'unknown',
      reason: expect.stringMatching(/HTTP 403: Requests to this API/) as unknown,
    });
  });

  it('an answer of another shape, and a 500 that echoes the key, are unknown, redacted', async () => {
    const keys = Object.fromEntries(CHECKED_PROVIDERS.map((p) => [p, providerKey(CHECKED_RULES[p])]));
    for (const key of Object.values(keys)) server.live.add(key);
    server.mode = Object.fromEntries(CHECKED_PROVIDERS.map((p, i) => [p, i % 2 ? 'echo' : 'unexpected']));
    const run = await scan(folder(Object.values(keys)), ['--verify', ...server.flags(), '--format', 'json']);
    const found = findings(run);
    found.forEach((f, i) => {
      expect(f.verification!.status, f.service).toBe('unknown');
      expect(f.verification!.reason).toMatch(i % 2 ? /HTTP 500: internal error for / : /HTTP 200: <html>/);
    });
    for (const key of Object.values(keys)) expect(run.stdout).not.toContain(key);
  });

  it('no network: unknown with the reason, never inactive; text names it per finding', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const keys = CHECKED_PROVIDERS.map((p) => providerKey(CHECKED_RULES[p]));
    const flags = CHECKED_PROVIDERS.flatMap((p) => [
      '--verify-base-url',
      `${p}=http://127.0.0.1:${port}${PROVIDER_BASE[p]}`,
    ]);
    const dir = folder(keys);
    const run = await scan(dir, ['--verify', ...flags, '--format', 'json']);
    expect(run.status).toBe(1);
    for (const f of findings(run))
      expect(f.verification).toMatchObject({
        status: 'unknown',
        reason: `could not reach 127.0.0.1:${port} (ECONNREFUSED)`,
      });
    const text = await scan(dir, ['--verify', ...flags]);
    expect(text.stdout).toMatch(/Anthropic API key .*unknown: could not reach 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  });

  it('a provider that never answers: unknown once the wait runs out, naming the wait', async () => {
    const keys = CHECKED_PROVIDERS.map((p) => providerKey(CHECKED_RULES[p]));
    server.mode = Object.fromEntries(CHECKED_PROVIDERS.map((p) => [p, 'silent']));
    const run = await scan(folder(keys), ['--verify', ...server.flags(), '--format', 'json'], 500);
    const host = new URL(server.url).host;
    for (const f of findings(run))
      expect(f.verification, f.service).toMatchObject({
        status: 'unknown',
        reason: `${host} did not answer within 0.5 s (UND_ERR_HEADERS_TIMEOUT)`,
      });
  });

  it('a redirect is not followed: the key is sent once, and the answer is unknown', async () => {
    const keys = CHECKED_PROVIDERS.map((p) => providerKey(CHECKED_RULES[p]));
    server.mode = Object.fromEntries(CHECKED_PROVIDERS.map((p) => [p, 'redirect']));
    const run = await scan(folder(keys), ['--verify', ...server.flags(), '--format', 'json']);
    for (const f of findings(run))
      expect(f.verification, f.service).toMatchObject({
        status: 'unknown',
        reason: expect.stringMatching(
          / redirected \(HTTP 302\); Keyward does not follow a redirect with a key$/,
        ) as unknown,
      });
    expect(server.seen).toHaveLength(CHECKED_PROVIDERS.length);
    expect(server.seen.some((s) => s.url.startsWith('/elsewhere'))).toBe(false);
  });

  it('Perplexity and Fireworks AI keys are unknown, with the reason, and sent nowhere', async () => {
    const run = await scan(folder([providerKey('perplexity-key'), providerKey('fireworks-key')]), [
      '--verify',
      ...server.flags(),
      '--format',
      'json',
    ]);
    const [p, f] = findings(run);
    expect(p!.verification).toMatchObject({
      status: 'unknown',
      reason: expect.stringMatching(/^Perplexity documents no request/) as unknown,
    });
    expect(f!.verification).toMatchObject({
      status: 'unknown',
      reason: expect.stringMatching(/^Fireworks AI documents no request/) as unknown,
    });
    expect(p!.verification!.checkedAt).toBeUndefined();
    expect(server.seen).toEqual([]);
  });

  it('--verify-base-url PROVIDER=URL: https or loopback only, one per provider, only providers with a check', async () => {
    const dir = folder([]);
    for (const args of [
      ['--verify', '--verify-base-url', 'anthropic=http://example.com/v1'],
      ['--verify', '--verify-base-url', 'perplexity=https://api.example.com'],
      ['--verify', '--verify-base-url', 'groq=https://a.example/v1', '--verify-base-url', 'groq=https://b.example/v1'],
      ['--verify-base-url', `groq=${server.url}/groq/openai/v1`],
    ]) {
      const run = await scan(dir, args);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/^keyward scan: --verify-base-url /);
    }
  });
});
