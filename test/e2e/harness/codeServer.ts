// code-server: a real VS Code (workbench in the browser, Node extension host)
// with its own user-data, extensions and XDG folders, on a free loopback port.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, type Toolchain } from './install.ts';
import { freePort } from './ports.ts';
import { spawnGroup, stopGroup, waitFor } from './processes.ts';

export interface CodeServer {
  url: string;
  port: number;
  logFile: string;
  stop(): Promise<void>;
}

export interface CodeServerOptions {
  runDir: string;
  /** 0 or absent: a free port. */
  port?: number;
  settings: Record<string, unknown>;
  env?: Record<string, string>;
  vsix?: string;
  /** Other extensions installed next to it (the caller of Keyward's models, harness/callerExtension.ts). */
  otherVsixes?: string[];
  /**
   * The smoke-test driver loads tests from a page's payload, and makes the workbench drop every notification. The
   * e2e needs it; the sandbox of `npm start` must behave as VS Code does, so it passes false.
   */
  testDriver?: boolean;
}

const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'security.workspace.trust.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  // Written the way VS Code itself writes it: a setting it migrates makes it rewrite the file mid-start.
  'extensions.autoUpdate': 'off',
  'update.mode': 'none',
  'chat.disableAIFeatures': true,
  'workbench.enableExperiments': false,
  'git.openRepositoryInParentFolders': 'always',
  // Desktop VS Code's default (the web build saves after a delay): the steps that need auto save turn it on.
  'files.autoSave': 'off',
};

export function codeServerEnv(tools: Toolchain, runDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...cleanEnv(),
    XDG_CONFIG_HOME: join(runDir, 'xdg', 'config'),
    XDG_DATA_HOME: join(runDir, 'xdg', 'data'),
    XDG_CACHE_HOME: join(runDir, 'xdg', 'cache'),
    PATH: `${join(tools.node24Dir, 'bin')}:${process.env.PATH ?? ''}`,
    ...extra,
  };
}

function baseArgs(runDir: string): string[] {
  return [
    '--user-data-dir',
    join(runDir, 'user'),
    '--extensions-dir',
    join(runDir, 'exts'),
    '--config',
    join(runDir, 'cs-config.yaml'),
  ];
}

export async function startCodeServer(tools: Toolchain, options: CodeServerOptions): Promise<CodeServer> {
  const { runDir } = options;
  for (const dir of ['user/User', 'exts', 'xdg/config', 'xdg/data', 'xdg/cache'])
    mkdirSync(join(runDir, dir), { recursive: true });
  writeFileSync(join(runDir, 'cs-config.yaml'), 'auth: none\ncert: false\n');
  writeFileSync(
    join(runDir, 'user', 'User', 'settings.json'),
    JSON.stringify({ ...QUIET_SETTINGS, ...options.settings }, null, 2),
  );
  const env = codeServerEnv(tools, runDir, options.env);
  const logFile = join(runDir, 'code-server.log');

  for (const vsix of [options.vsix, ...(options.otherVsixes ?? [])]) {
    if (!vsix) continue;
    const install = spawnSync(tools.node24, [tools.codeServerEntry, ...baseArgs(runDir), '--install-extension', vsix], {
      env,
      encoding: 'utf8',
    });
    if (install.status !== 0)
      throw new Error(`code-server could not install ${vsix}:\n${install.stdout}\n${install.stderr}`);
  }

  const port = options.port ? options.port : await freePort();
  const child = spawnGroup(
    tools.node24,
    [
      tools.codeServerEntry,
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--reconnection-grace-time',
      '5',
      ...baseArgs(runDir),
      ...(options.testDriver === false ? [] : ['--vscode-option', 'enable-smoke-test-driver']),
    ],
    { env, logFile },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    'code-server /healthz',
    async () => {
      if (child.exitCode !== null) throw new Error(`code-server exited with ${child.exitCode}; see ${logFile}`);
      const response = await fetch(`${url}/healthz`);
      return response.ok ? true : undefined;
    },
    60_000,
    200,
  );
  return { url, port, logFile, stop: () => stopGroup(child) };
}
