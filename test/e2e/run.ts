// `npm run test:e2e`: Keyward in a real VS Code (code-server) against the
// emulator, driven two ways: a mocha suite inside the extension host, and
// headless Chromium clicking through the workbench like a person. Screenshots
// go to test-results/e2e/; a failing step also saves the code-server log.
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { routerKey } from '../emulator/keyFactory.ts';
import * as esbuild from 'esbuild';
import { startEmulator } from '../emulator/server.ts';
import { startCodeServer } from './harness/codeServer.ts';
import { writeCallerVsix } from './harness/callerExtension.ts';
import { CACHE, CHROMIUM, ensureToolchain } from './harness/install.ts';
import { runInHostSuite } from './harness/inHost.ts';
import { PROBES, markersFound, scanForKeys } from './harness/leakCheck.ts';
import { CHROMIUM_ARGS, type BrowserContext, loadChromium } from './harness/playwright.ts';
import { cleanupAll, onCleanup } from './harness/processes.ts';
import { Workbench } from './harness/workbench.ts';
import { createWorkspace } from './harness/workspace.ts';
import { ALL_STEPS } from './ui/steps.ts';
import { driveSandbox } from './sandbox.ts';

const ROOT = resolve('.');
const RESULTS = join(ROOT, 'test-results', 'e2e');
const only = process.argv.includes('--ui-only') ? 'ui' : process.argv.includes('--host-only') ? 'host' : 'both';

async function compileSuite(outdir: string): Promise<string> {
  rmSync(outdir, { recursive: true, force: true });
  const entries = [
    'test/e2e/suite/index.ts',
    ...readdirSync('test/e2e/suite')
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => `test/e2e/suite/${f}`),
  ];
  await esbuild.build({
    entryPoints: entries,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    // The `proxy` server of network.test.ts reads its own package.json at run time: loaded from node_modules.
    external: ['vscode', 'mocha', 'proxy'],
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  writeFileSync(join(outdir, 'package.json'), '{ "type": "commonjs" }\n');
  return join(outdir, 'index.js');
}

type Result = { suite: string; name: string; ok: boolean; error?: string };

/**
 * No key the run used appears in any file VS Code or the browser wrote: the
 * user-data folder (logs, local history, workspace and global storage), the
 * browser profile (IndexedDB holds workspace state and webview state in
 * code-server), the XDG folders, the server log, and the exported Markdown.
 * A planted key proves each place is read, and plain markers the run left in
 * webview and workspace state prove the scan reaches where that state is kept.
 */
function leakCheck(
  runDir: string,
  workspace: ReturnType<typeof createWorkspace>,
  draftOnDisk: boolean | undefined,
  keys: string[],
): Result[] {
  const exported = readdirSync(workspace.folder)
    .filter((f) => /^exported.*\.md$/.test(f))
    .map((f) => join(workspace.folder, f));
  const roots = [
    join(runDir, 'user'),
    join(runDir, 'chromium'),
    join(runDir, 'xdg'),
    join(runDir, 'code-server.log'),
    ...exported,
  ];
  const results: Result[] = [];
  const record = (name: string, problem: string | undefined) => {
    results.push({ suite: 'leak', name, ok: problem === undefined, ...(problem ? { error: problem } : {}) });
    process.stdout.write(`  ${problem === undefined ? '✓' : '✗'} [leak] ${name}${problem ? `: ${problem}` : ''}\n`);
  };

  const canary = routerKey();
  const planted = roots
    .filter((root) => existsSync(root))
    .map((root, i) => {
      const path = statSync(root).isDirectory()
        ? join(root, `keyward-leak-canary-${i}.bin`)
        : `${root}.keyward-leak-canary`;
      writeFileSync(
        path,
        Buffer.concat([
          Buffer.from('SQLite page\0'),
          Buffer.from(`{"draft":"${canary}"}`, i % 2 ? 'utf16le' : 'latin1'),
        ]),
      );
      return path;
    });
  const self = scanForKeys([...roots, ...planted.filter((p) => p.endsWith('.keyward-leak-canary'))], [canary]);
  for (const path of planted) rmSync(path, { force: true });
  const missed = planted.filter((path) => !self.hits.some((hit) => hit.path === path));
  record(
    'the leak check finds a key planted in each place it reads',
    missed.length ? `missed ${missed.join(', ')}` : undefined,
  );

  const scan = scanForKeys(roots, keys);
  const empty = scan.roots.filter((r) => r.files === 0 && !r.path.endsWith('.md')).map((r) => r.path);
  record(
    `every place was there to read (${scan.roots.map((r) => `${r.files} files in ${r.path.slice(runDir.length + 1) || r.path}`).join(', ')})`,
    empty.length ? `nothing to read in ${empty.join(', ')}` : undefined,
  );
  record(
    `no key (${new Set(keys).size} of them) in user data, logs, workspace or webview state, or the export`,
    scan.hits.length ? scan.hits.map((h) => `${h.key} in ${h.path} (${h.encoding})`).join('; ') : undefined,
  );
  const probes = [
    // The in-host panel tests leave the turn; a grep may leave them out.
    ...(only !== 'ui' && !process.env.KEYWARD_E2E_GREP
      ? [{ what: 'a saved conversation turn (workspace state)', text: PROBES.turn }]
      : []),
  ];
  const found = markersFound(
    roots,
    probes.map((p) => p.text),
  );
  const missing = probes.filter((p) => !found.includes(p.text)).map((p) => p.what);
  // The UI steps' draft was looked for when their part ended, before the in-host suite's window rewrote the
  // webview state; the key scan above still covers everything on disk at the end.
  if (draftOnDisk === false) missing.unshift('the panel draft (webview state, looked for after the UI steps)');
  record(
    'the scan reaches the webview and workspace state the run left',
    missing.length ? `not found on disk: ${missing.join(', ')}` : undefined,
  );
  return results;
}

async function main(): Promise<number> {
  const started = Date.now();
  rmSync(RESULTS, { recursive: true, force: true });
  mkdirSync(RESULTS, { recursive: true });
  const tools = ensureToolchain();
  process.stdout.write(`e2e: toolchain ready (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);

  try {
    execFileSync('npm', ['run', '-s', 'package'], { stdio: 'pipe' });
  } catch (error) {
    throw new Error(`npm run package failed:\n${String((error as { stderr?: Buffer }).stderr ?? error)}`);
  }
  const vsix = join(ROOT, 'keyward.vsix');
  // In this checkout, not the shared cache: two runs from two checkouts must not load each other's suite.
  const testsIndex = await compileSuite(join(ROOT, 'out', 'e2e-suite'));

  mkdirSync(join(CACHE, 'runs'), { recursive: true });
  const runDir = mkdtempSync(join(CACHE, 'runs', 'run-'));
  if (!process.env.KEYWARD_E2E_KEEP) onCleanup(() => rmSync(runDir, { recursive: true, force: true }));
  else process.stdout.write(`e2e: keeping ${runDir}\n`);
  const emulator = await startEmulator({ sandbox: true, config: { tokenDelayMs: 5 } });
  onCleanup(() => emulator.close());
  const workspace = createWorkspace(runDir);

  // Keys the in-host tests and UI steps make and hand Keyward: none may reach disk outside the workspace.
  const leakKeysFile = join(runDir, 'leak-keys.txt');
  writeFileSync(leakKeysFile, '');
  const env = {
    emulator: {
      routerBaseUrl: emulator.routerBaseUrl,
      directBaseUrl: emulator.directBaseUrl,
      adminUrl: emulator.adminUrl,
    },
    sandboxKeys: emulator.sandbox!.keys,
    workspace: { folder: workspace.folder, files: workspace.files, keys: workspace.keys },
    runDir,
    leakKeysFile,
  };
  const server = await startCodeServer(tools, {
    runDir,
    vsix,
    otherVsixes: [writeCallerVsix(runDir)],
    settings: {
      'keyward.router.baseUrl': emulator.routerBaseUrl,
      'keyward.direct.baseUrl': emulator.directBaseUrl,
      'keyward.compatible.baseUrl': emulator.compatibleBaseUrls.open,
      'keyward.compatible.name': 'Local LLM',
    },
    env: {
      KEYWARD_E2E: JSON.stringify(env),
      ...(process.env.KEYWARD_E2E_GREP ? { KEYWARD_E2E_GREP: process.env.KEYWARD_E2E_GREP } : {}),
    },
  });
  onCleanup(() => server.stop());
  process.stdout.write(`e2e: code-server at ${server.url}, emulator at ${emulator.url}\n`);

  const chromium = loadChromium(tools.playwrightCore);
  // One browser profile for both parts; the browser is closed between them so the UI part's webview state is
  // on disk (IndexedDB is written as the browser closes) before the in-host suite's window rewrites it.
  const launchBrowser = async (): Promise<BrowserContext> => {
    const context = await chromium.launchPersistentContext(join(runDir, 'chromium'), {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1400, height: 900 },
      // vscode.env.clipboard in the browser workbench is the page's clipboard: #terminal reads the terminal's Copy there.
      permissions: ['clipboard-read', 'clipboard-write'],
      env: {
        ...process.env,
        XDG_CONFIG_HOME: join(runDir, 'xdg', 'config'),
        XDG_CACHE_HOME: join(runDir, 'xdg', 'cache'),
      },
    });
    onCleanup(() => context.close());
    return context;
  };
  let browser = await launchBrowser();

  const results: Result[] = [];
  /** Whether the UI part's draft probe reached the webview state on disk (looked for right after that part). */
  let draftOnDisk: boolean | undefined;

  if (only !== 'host') {
    const page = browser.pages()[0] ?? (await browser.newPage());
    // Errors in the workbench or a webview are evidence: keep them next to the screenshots.
    const consoleLines: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && !/open-vsx|vsda|Failed to load resource|ENOTFOUND/.test(message.text()))
        consoleLines.push(message.text());
    });
    onCleanup(() => writeFileSync(join(RESULTS, 'console-errors.log'), consoleLines.join('\n') + '\n'));
    const wb = new Workbench(page, RESULTS);
    await wb.open(server.url, workspace.folder);
    // While iterating on one step: KEYWARD_E2E_UI_GREP runs only the steps whose name matches (honoured only when set).
    const uiGrep = process.env.KEYWARD_E2E_UI_GREP ? new RegExp(process.env.KEYWARD_E2E_UI_GREP, 'i') : undefined;
    for (const step of ALL_STEPS.filter((s) => !uiGrep || uiGrep.test(s.name))) {
      const stepStart = Date.now();
      try {
        await step.run({ wb, workspace, emulator, leakKey: (key) => appendFileSync(leakKeysFile, `${key}\n`) });
        await wb.screenshot(step.name);
        results.push({ suite: 'ui', name: step.name, ok: true });
        process.stdout.write(`  ✓ [ui] ${step.name} (${Date.now() - stepStart} ms)\n`);
      } catch (error) {
        const shot = await wb.screenshot(`FAILED-${step.name}`).catch(() => '(no screenshot)');
        copyFileSync(server.logFile, join(RESULTS, 'code-server.log'));
        results.push({ suite: 'ui', name: step.name, ok: false, error: (error as Error).message });
        process.stdout.write(`  ✗ [ui] ${step.name}: ${(error as Error).message}\n    screenshot: ${shot}\n`);
      }
    }
    await page.close();
    await browser.close();
    draftOnDisk = markersFound([join(runDir, 'chromium')], [PROBES.draft]).length > 0;
    if (only !== 'ui') browser = await launchBrowser();
  }

  if (only !== 'ui') {
    const hostResult = await runInHostSuite(browser, {
      url: server.url,
      port: server.port,
      extensionFolder: ROOT,
      testsIndex,
      workspace: workspace.folder,
      // A ceiling for a hang only (each test has its own): a loaded 2-core machine ran the suite in 5 min.
      timeoutMs: 1_500_000,
      shotsDir: RESULTS,
    });
    const text = hostResult.log.join('\n');
    const passing = Number(/(\d+) passing/.exec(text)?.[1] ?? 0);
    const failing = Number(/(\d+) failing/.exec(text)?.[1] ?? 0);
    for (let i = 0; i < passing; i++) results.push({ suite: 'host', name: `passing ${i + 1}`, ok: true });
    for (let i = 0; i < failing; i++) results.push({ suite: 'host', name: `failing ${i + 1}`, ok: false });
    if (hostResult.exitCode !== 0 && failing === 0)
      results.push({ suite: 'host', name: 'suite run', ok: false, error: `exit code ${hostResult.exitCode}` });
    if (passing + failing === 0 && hostResult.exitCode === 0)
      results.push({ suite: 'host', name: 'suite run', ok: false, error: 'no in-host test ran' });
    writeFileSync(join(RESULTS, 'in-host.log'), text + '\n');
    if (hostResult.exitCode !== 0) copyFileSync(server.logFile, join(RESULTS, 'code-server.log'));
  }

  // The browser writes IndexedDB (workspace and webview state) as it closes: close it before looking.
  await browser.close();
  await server.stop();
  results.push(
    ...leakCheck(runDir, workspace, draftOnDisk, [
      ...Object.values(emulator.sandbox!.keys),
      ...Object.values(workspace.keys),
      ...readFileSync(leakKeysFile, 'utf8').split('\n').filter(Boolean),
    ]),
  );

  if (only === 'both' || process.argv.includes('--sandbox')) {
    try {
      await driveSandbox(tools.playwrightCore, RESULTS);
      results.push({ suite: 'sandbox', name: 'npm start: the printed URL prompts both sandbox services', ok: true });
      process.stdout.write('  ✓ [sandbox] npm start: the printed URL prompts both sandbox services\n');
    } catch (error) {
      results.push({ suite: 'sandbox', name: 'npm start', ok: false, error: (error as Error).message });
      process.stdout.write(`  ✗ [sandbox] npm start: ${(error as Error).message}\n`);
    }
  }

  // Keyward's own log of the run, next to the screenshots.
  const logs = join(runDir, 'user', 'logs');
  if (existsSync(logs)) {
    const keywardLogs = readdirSync(logs, { recursive: true, withFileTypes: true }).filter(
      (e) => e.isFile() && e.name === 'Keyward.log',
    );
    writeFileSync(
      join(RESULTS, 'keyward.log'),
      keywardLogs.map((e) => readFileSync(join(e.parentPath, e.name), 'utf8')).join('\n'),
    );
  }

  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  for (const failure of results.filter((r) => !r.ok && r.error))
    process.stdout.write(`e2e failure [${failure.suite}] ${failure.name}: ${failure.error}\n`);
  process.stdout.write(`e2e: ${((Date.now() - started) / 1000).toFixed(1)} s, screenshots in ${RESULTS}\n`);
  process.stdout.write(`e2e: ${passed} passed, ${failed} failed\n`);
  return failed === 0 && results.length > 0 ? 0 : 1;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  process.stderr.write(`e2e: ${(error as Error).message}\n`);
  if (existsSync(RESULTS)) writeFileSync(join(RESULTS, 'error.txt'), String((error as Error).stack) + '\n');
} finally {
  await cleanupAll();
}
process.exit(code);
