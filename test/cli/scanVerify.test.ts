// `keyward scan --verify` over real HTTP of the emulator: JSON, SARIF and text
// say live / inactive / unknown per finding, each key goes only to its own
// service and once, a live tracked key is escalated, and exit codes keep their
// meaning. The CLI runs as a child process; the emulator answers in this one.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestBed, startTestBed } from '../emulator/adminClient.ts';
import { CLI, type Repo, cliCacheHome, makeRepo, tempDir } from './gitFixtures.ts';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(() => bed.admin('POST', '/reset', { sandbox: true }));

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Asynchronous, so the emulator in this process can answer the CLI. */
function scan(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'scan', ...args], {
      cwd,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: cwd,
        XDG_CACHE_HOME: cliCacheHome(),
        ...env,
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

/** --verify, with each service asked at the emulator: the explicit flag is the only way a key goes elsewhere. */
const verify = (router = bed.emulator.routerBaseUrl, direct = bed.emulator.directBaseUrl) => [
  '--verify',
  '--verify-base-url',
  `router=${router}`,
  '--verify-base-url',
  `direct=${direct}`,
];

interface VerifiedFinding {
  path: string;
  service: string;
  git: string;
  verification?: { status: string; reason: string; checkedAt?: string };
}

const findings = (run: Run): VerifiedFinding[] => {
  try {
    return (JSON.parse(run.stdout) as { findings: VerifiedFinding[] }).findings;
  } catch {
    throw new Error(`not JSON (exit ${run.status}): ${run.stdout}\n${run.stderr}`);
  }
};

async function revokedDirectKey(): Promise<string> {
  const { id, key } = await bed.admin<{ id: string; key: string }>('POST', '/direct/keys', {
    orgId: bed.emulator.sandbox!.directOrgId,
    permissions: 'All',
  });
  await bed.admin('DELETE', `/direct/keys/${id}`);
  return key;
}

/** A folder (no git) with the funded router key twice and a revoked direct key. */
async function folder(): Promise<{ dir: string; router: string; direct: string }> {
  const dir = tempDir('keyward-verify-');
  const repo: Repo = makeRepo(dir, false);
  const router = bed.emulator.sandbox!.keys.routerFunded;
  const direct = await revokedDirectKey();
  repo.write('a.ts', `export const k = "${router}";\n`);
  repo.write('b/c.env', `ROUTER=${router}\nOPENAI_API_KEY=${direct}\n`);
  return { dir, router, direct };
}

describe('keyward scan --verify', () => {
  it('JSON: live and inactive per finding; each key asked once, of its own service only; exit 1 as before', async () => {
    const { dir, router, direct } = await folder();
    const run = await scan(dir, ['--no-git', ...verify(), '--format', 'json']);
    expect(run.status).toBe(1);
    const found = findings(run);
    expect(found).toHaveLength(3);
    for (const f of found.filter((f) => f.service === 'router'))
      expect(f.verification).toMatchObject({ status: 'live', reason: 'the service accepted the key (GET /key)' });
    expect(found.find((f) => f.service === 'direct')!.verification).toMatchObject({
      status: 'inactive',
      reason: expect.stringMatching(/HTTP 401/) as unknown,
    });
    expect(bed.emulator.requests).toEqual([
      { service: 'router', method: 'GET', path: '/key', key: router },
      { service: 'direct', method: 'GET', path: '/models', key: direct },
    ]);
    // Where each key was sent, per finding: the URL --verify-base-url named.
    for (const f of found)
      expect(f.verification!.checkedAt).toBe(
        f.service === 'router' ? `${bed.emulator.routerBaseUrl}/key` : `${bed.emulator.directBaseUrl}/models`,
      );
    expect(run.stdout).not.toContain(router);
    expect(run.stdout).not.toContain(direct);
  });

  it('without --verify nothing is sent and no finding has a verification', async () => {
    const { dir } = await folder();
    const run = await scan(dir, ['--no-git', '--format', 'json']);
    expect(run.status).toBe(1);
    expect(findings(run).every((f) => f.verification === undefined)).toBe(true);
    expect(bed.emulator.requests).toEqual([]);
  });

  it('SARIF: properties.verification on each result, and a live key is an error', async () => {
    const { dir } = await folder();
    const run = await scan(dir, ['--no-git', ...verify(), '--format', 'sarif']);
    expect(run.status).toBe(1);
    const results = (
      JSON.parse(run.stdout) as {
        runs: {
          results: { level: string; properties?: { verification?: { status: string; checkedAt?: string } } }[];
        }[];
      }
    ).runs[0]!.results;
    expect(results.map((r) => r.properties?.verification?.status).sort()).toEqual(['inactive', 'live', 'live']);
    expect(results.map((r) => r.properties?.verification?.checkedAt).sort()).toEqual([
      `${bed.emulator.directBaseUrl}/models`,
      `${bed.emulator.routerBaseUrl}/key`,
      `${bed.emulator.routerBaseUrl}/key`,
    ]);
    for (const r of results.filter((r) => r.properties?.verification?.status === 'live')) expect(r.level).toBe('error');
  });

  it('a live key in a tracked file is escalated: "live key in git history: rotate now"', async () => {
    const repo = makeRepo();
    repo.write('src/app.ts', `export const key = "${bed.emulator.sandbox!.keys.direct}";\n`);
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'one');
    const run = await scan(repo.dir, verify());
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^src\/app\.ts:1:21: direct service key .* \(live key in git history: rotate now; /m);
    const history = await scan(repo.dir, ['--history', ...verify(), '--format', 'json']);
    expect(findings(history)[0]!.verification!.status).toBe('live');
    expect(bed.emulator.requests.every((r) => r.service === 'direct')).toBe(true);
  });

  it('unknown when the service is down, and the exit status is still 1 for a finding', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const { dir } = await folder();
    const run = await scan(dir, ['--no-git', ...verify(`http://127.0.0.1:${port}/api/v1`), '--format', 'json']);
    expect(run.status).toBe(1);
    const found = findings(run);
    for (const f of found.filter((f) => f.service === 'router')) expect(f.verification!.status).toBe('unknown');
    expect(found.find((f) => f.service === 'direct')!.verification!.status).toBe('inactive');
    expect(bed.emulator.requests.map((r) => r.service)).toEqual(['direct']);
  });

  it('a clean scan exits 0 and sends nothing; a base URL in clear text is a usage error (2)', async () => {
    const dir = tempDir('keyward-verify-clean-');
    makeRepo(dir, false).write('clean.txt', 'nothing here\n');
    const clean = await scan(dir, ['--no-git', ...verify()]);
    expect(clean.status).toBe(0);
    expect(bed.emulator.requests).toEqual([]);
    const insecure = await scan(dir, ['--no-git', ...verify(undefined, 'http://example.com/v1')]);
    expect(insecure.status).toBe(2);
    expect(insecure.stderr).toMatch(/--verify-base-url direct=http:\/\/example\.com\/v1 uses http/);
  });
});

describe('keyward scan --verify: where a key found in a file is sent', () => {
  /** A server that records every request: where OPENROUTER_BASE_URL / OPENAI_BASE_URL point. */
  async function recorder(): Promise<{ url: string; seen: string[]; close: () => Promise<void> }> {
    const seen: string[] = [];
    const server = createHttpServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    return {
      url: `http://127.0.0.1:${port}/v1`,
      seen,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  /**
   * A preload for the CLI's Node that lets no name resolve (no request reaches the internet from a
   * test) and writes each host name asked to a file: where the CLI tried to send the key.
   */
  function offline(): { env: NodeJS.ProcessEnv; asked: () => string[] } {
    const dir = tempDir('keyward-offline-');
    const log = join(dir, 'lookups');
    const preload = join(dir, 'offline.mjs');
    writeFileSync(log, '');
    writeFileSync(
      preload,
      `import dns from 'node:dns';
import { appendFileSync } from 'node:fs';
dns.lookup = (host, options, callback) => {
  appendFileSync(${JSON.stringify(log)}, host + '\\n');
  const done = typeof options === 'function' ? options : callback;
  process.nextTick(() => done(Object.assign(new Error('getaddrinfo ENOTFOUND ' + host), { code: 'ENOTFOUND' })));
};
`,
    );
    return {
      env: { NODE_OPTIONS: `--import ${pathToFileURL(preload).href}`, KEYWARD_IDLE_TIMEOUT_MS: '2000' },
      asked: () => readFileSync(log, 'utf8').split('\n').filter(Boolean),
    };
  }

  it('the SDK base-URL variables are ignored: their server gets nothing, the official hosts are asked and reported', async () => {
    const { dir } = await folder();
    const proxy = await recorder();
    const net = offline();
    try {
      const env = { ...net.env, OPENROUTER_BASE_URL: proxy.url, OPENAI_BASE_URL: proxy.url };
      const run = await scan(dir, ['--no-git', '--verify', '--format', 'json'], env);
      expect(run.status).toBe(1);
      expect(proxy.seen).toEqual([]);
      expect(bed.emulator.requests).toEqual([]);
      expect([...new Set(net.asked())].sort()).toEqual(['api.openai.com', 'openrouter.ai']);
      const found = findings(run);
      expect(found).toHaveLength(3);
      for (const f of found) {
        expect(f.verification!.status).toBe('unknown');
        expect(f.verification!.checkedAt).toBe(
          f.service === 'router' ? 'https://openrouter.ai/api/v1/key' : 'https://api.openai.com/v1/models',
        );
      }
      expect(run.stderr).toMatch(/OPENROUTER_BASE_URL is not used; keys found in files go to https:\/\/openrouter\.ai/);
      expect(run.stderr).toMatch(/OPENAI_BASE_URL is not used; keys found in files go to https:\/\/api\.openai\.com/);

      // Only the explicit flag sends a key elsewhere, and only the service it names.
      const chosen = await scan(
        dir,
        ['--no-git', '--verify', '--verify-base-url', `router=${proxy.url}`, '--format', 'json'],
        env,
      );
      expect(proxy.seen).toHaveLength(1);
      expect(proxy.seen[0]).toMatch(/^GET \/v1\/key Bearer sk-or-v1-/);
      expect(findings(chosen).find((f) => f.service === 'router')!.verification!.checkedAt).toBe(`${proxy.url}/key`);
      expect(findings(chosen).find((f) => f.service === 'direct')!.verification!.checkedAt).toBe(
        'https://api.openai.com/v1/models',
      );
    } finally {
      await proxy.close();
    }
  });

  it('--verify-base-url: SERVICE=URL for router or direct, once each, https or localhost, and only with --verify', async () => {
    const dir = tempDir('keyward-verify-flag-');
    makeRepo(dir, false).write('clean.txt', 'nothing here\n');
    for (const args of [
      ['--verify-base-url', `router=${bed.emulator.routerBaseUrl}`],
      ['--verify', '--verify-base-url', `compatible=${bed.emulator.routerBaseUrl}`],
      ['--verify', '--verify-base-url', bed.emulator.routerBaseUrl],
      ['--verify', '--verify-base-url', 'router=https://a.example/v1', '--verify-base-url', 'router=https://b.example'],
      ['--verify', '--verify-base-url', 'router=ftp://a.example/v1'],
    ]) {
      const run = await scan(dir, ['--no-git', ...args]);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/^keyward scan: --verify-base-url /);
    }
    expect(bed.emulator.requests).toEqual([]);
  });
});
