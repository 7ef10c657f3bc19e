// `keyward scan --verify` over real HTTP of the emulator: JSON, SARIF and text
// say live / inactive / unknown per finding, each key goes only to its own
// service and once, a live tracked key is escalated, and exit codes keep their
// meaning. The CLI runs as a child process; the emulator answers in this one.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestBed, startTestBed } from '../emulator/adminClient.ts';
import { CLI, type Repo, makeRepo, tempDir } from './gitFixtures.ts';

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
        OPENROUTER_BASE_URL: bed.emulator.routerBaseUrl,
        OPENAI_BASE_URL: bed.emulator.directBaseUrl,
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

interface VerifiedFinding {
  path: string;
  service: string;
  git: string;
  verification?: { status: string; reason: string };
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
    const run = await scan(dir, ['--no-git', '--verify', '--format', 'json']);
    expect(run.status).toBe(1);
    const found = findings(run);
    expect(found).toHaveLength(3);
    for (const f of found.filter((f) => f.service === 'router'))
      expect(f.verification).toEqual({ status: 'live', reason: 'the service accepted the key (GET /key)' });
    expect(found.find((f) => f.service === 'direct')!.verification).toMatchObject({
      status: 'inactive',
      reason: expect.stringMatching(/HTTP 401/) as unknown,
    });
    expect(bed.emulator.requests).toEqual([
      { service: 'router', method: 'GET', path: '/key', key: router },
      { service: 'direct', method: 'GET', path: '/models', key: direct },
    ]);
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
    const run = await scan(dir, ['--no-git', '--verify', '--format', 'sarif']);
    expect(run.status).toBe(1);
    const results = (
      JSON.parse(run.stdout) as {
        runs: { results: { level: string; properties?: { verification?: { status: string } } }[] }[];
      }
    ).runs[0]!.results;
    expect(results.map((r) => r.properties?.verification?.status).sort()).toEqual(['inactive', 'live', 'live']);
    for (const r of results.filter((r) => r.properties?.verification?.status === 'live')) expect(r.level).toBe('error');
  });

  it('a live key in a tracked file is escalated: "live key in git history: rotate now"', async () => {
    const repo = makeRepo();
    repo.write('src/app.ts', `export const key = "${bed.emulator.sandbox!.keys.direct}";\n`);
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'one');
    const run = await scan(repo.dir, ['--verify']);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^src\/app\.ts:1:21: direct service key .* \(live key in git history: rotate now; /m);
    const history = await scan(repo.dir, ['--history', '--verify', '--format', 'json']);
    expect(findings(history)[0]!.verification!.status).toBe('live');
    expect(bed.emulator.requests.every((r) => r.service === 'direct')).toBe(true);
  });

  it('unknown when the service is down, and the exit status is still 1 for a finding', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const { dir } = await folder();
    const run = await scan(dir, ['--no-git', '--verify', '--format', 'json'], {
      OPENROUTER_BASE_URL: `http://127.0.0.1:${port}/api/v1`,
    });
    expect(run.status).toBe(1);
    const found = findings(run);
    for (const f of found.filter((f) => f.service === 'router')) expect(f.verification!.status).toBe('unknown');
    expect(found.find((f) => f.service === 'direct')!.verification!.status).toBe('inactive');
    expect(bed.emulator.requests.map((r) => r.service)).toEqual(['direct']);
  });

  it('a clean scan exits 0 and sends nothing; a base URL in clear text is a usage error (2)', async () => {
    const dir = tempDir('keyward-verify-clean-');
    makeRepo(dir, false).write('clean.txt', 'nothing here\n');
    const clean = await scan(dir, ['--no-git', '--verify']);
    expect(clean.status).toBe(0);
    expect(bed.emulator.requests).toEqual([]);
    const insecure = await scan(dir, ['--no-git', '--verify'], { OPENAI_BASE_URL: 'http://example.com/v1' });
    expect(insecure.status).toBe(2);
    expect(insecure.stderr).toMatch(/OPENAI_BASE_URL http:\/\/example\.com\/v1 uses http/);
  });
});
