// `npm run package:cli` makes a package that installs into an empty folder with the
// network off and gives a working `npx keyward` (scan, ask, status), on Node 20 for scan.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_MAIN } from '../../src/core/cliParts.ts';
import { type TestBed, startTestBed } from '../emulator/adminClient.ts';
import { routerKey } from '../emulator/keyFactory.ts';
import { tempDir } from './gitFixtures.ts';

const root = resolve('.');
let folder: string;
let env: NodeJS.ProcessEnv;
let bed: TestBed;

beforeAll(async () => {
  const work = tempDir('keyward-pkg-');
  const tarball = join(work, 'keyward-cli.tgz');
  // This Node first: npm and npx run on it, as `npm test` runs everything on the pinned Node.
  env = {
    PATH: [dirname(process.execPath), process.env.PATH ?? '/usr/bin:/bin'].join(':'),
    HOME: work,
    // An empty cache and no network: whatever installs must come from the tarball.
    npm_config_cache: join(work, 'npm-cache'),
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
  execFileSync(process.execPath, [join(root, 'scripts/packageCli.ts'), '--out', tarball], { env, stdio: 'pipe' });
  folder = tempDir('keyward-install-');
  execFileSync('npm', ['install', '--ignore-scripts', tarball], { cwd: folder, env, stdio: 'pipe' });
  bed = await startTestBed();
}, 180_000);
afterAll(() => bed?.close());

/** Without blocking: the emulator answers from this process. */
const npxAsync = (args: string[], extra: NodeJS.ProcessEnv) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
    const child = spawn('npx', ['keyward', ...args], { cwd: folder, env: { ...env, ...extra } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => done({ status, stdout, stderr }));
  });

const npx = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
  spawnSync('npx', ['keyward', ...args], { cwd: folder, env: { ...env, ...extra }, encoding: 'utf8', timeout: 60_000 });

describe('the keyward npm package', () => {
  it('is self-contained, versioned with the extension, and needs no vscode', () => {
    const installed = join(folder, 'node_modules', 'keyward');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    const { version, private: extensionPrivate } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      version: string;
      private?: boolean;
    };
    // The extension's own package is never published to npm; only this one is.
    expect(extensionPrivate).toBe(true);
    expect(manifest).toMatchObject({ name: 'keyward', version, bin: { keyward: 'dist/keyward.js' } });
    expect(manifest).not.toHaveProperty('dependencies');
    expect(manifest).not.toHaveProperty('private');
    const lock = JSON.parse(readFileSync(join(folder, 'package-lock.json'), 'utf8')) as { packages: object };
    expect(Object.keys(lock.packages).sort()).toEqual(['', 'node_modules/keyward']);
    // The bin is the launcher; the bundle it loads lies beside it.
    for (const file of ['dist/keyward.js', `dist/${CLI_MAIN}`])
      expect(readFileSync(join(installed, file), 'utf8')).not.toMatch(/require\(["']vscode["']\)/);
    expect(npx(['--version']).stdout.trim()).toBe(version);
  });

  it('npx keyward scan finds a planted key', () => {
    writeFileSync(join(folder, 'config.js'), `export const key = "${routerKey()}";\n`);
    const run = npx(['scan']);
    expect(run.stdout).toMatch(/config\.js:1:21: routing service key sk-or-v1-…/);
    // The launcher turned Node's compile cache on, in the user's cache folder (HOME here).
    expect(readdirSync(join(env.HOME!, '.cache', 'keyward'))).toContainEqual(expect.stringMatching(/^v\d+/));
    expect(run.status).toBe(1);
    const sarif = JSON.parse(npx(['scan', '--format', 'sarif', 'config.js']).stdout) as { version: string };
    expect(sarif.version).toBe('2.1.0');
  });

  it('npx keyward scan looks inside a .zip (the unpackers ship in the package, in their own file)', () => {
    const installed = join(folder, 'node_modules', 'keyward', 'dist');
    expect(existsSync(join(installed, 'archive.js'))).toBe(true);
    expect(readFileSync(join(installed, 'keyward.js'), 'utf8')).not.toContain('invalid zip data');
    const body = new TextEncoder().encode(`const key = "${routerKey()}";\n`);
    writeFileSync(join(folder, 'bundle.zip'), zipSync({ 'dist/x.js': body }));
    const run = npx(['scan', 'bundle.zip']);
    expect(run.stdout).toMatch(/bundle\.zip!dist\/x\.js:1:14: routing service key sk-or-v1-…/);
    expect(run.status).toBe(1);
  });

  it('npx keyward status and ask reach the services (the HTTP stack ships in the package)', async () => {
    await bed.admin('POST', '/reset', { sandbox: true });
    const { keys } = bed.emulator.sandbox!;
    const status = await npxAsync(['status', '--service', 'router', '--base-url', bed.emulator.routerBaseUrl], {
      OPENROUTER_API_KEY: keys.routerFunded,
    });
    expect(status.stderr).toBe('');
    expect(status.status).toBe(0);
    const ask = await npxAsync(
      ['ask', '--service', 'direct', '--base-url', bed.emulator.directBaseUrl, '--model', 'gpt-4o-mini', 'Say hi'],
      { OPENAI_API_KEY: keys.direct },
    );
    expect(ask.status).toBe(0);
    expect(ask.stdout.trim()).not.toBe('');
  });

  const systemNode = '/usr/bin/node';
  const old = existsSync(systemNode) ? execFileSync(systemNode, ['--version']).toString().trim() : '';
  it.skipIf(!old.startsWith('v20'))('on Node 20, scan works and ask says plainly it needs 22', () => {
    const bin = join(folder, 'node_modules', '.bin', 'keyward');
    writeFileSync(join(folder, 'config.js'), `export const key = "${routerKey()}";\n`);
    const scan = spawnSync(systemNode, [bin, 'scan', 'config.js'], { cwd: folder, encoding: 'utf8' });
    expect(scan.stdout).toMatch(/config\.js:1:21: routing service key/);
    expect(scan.status).toBe(1);
    const ask = spawnSync(systemNode, [bin, 'ask', 'hi'], { cwd: folder, encoding: 'utf8' });
    expect(ask.status).toBe(2);
    expect(ask.stderr).toMatch(/^keyward ask needs Node\.js 22 or newer; this is Node\.js v20/);
  });
});
